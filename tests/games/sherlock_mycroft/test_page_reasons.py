"""The S&M page says why: an ability that cannot be used names what it lacks, two cards
alike under Langdale Pike are counted, and the wildcard preview says whether the rival's
score in it is final."""

from games.pages import PageContext
from games.sherlock_mycroft import rules
from games.sherlock_mycroft.page import game_page
from tests.games.sherlock_mycroft.helpers import at_day, move, place, play, set_tokens, stacked


def page_for(state: dict, seat: int = 0) -> dict:
    game = {**rules.view(state, seat), "legal_actions": rules.legal_actions(state, seat)}
    table_view = {"game": game, "you": {"seat": seat}, "version": 1}
    seats = {0: {"name": "Alice", "colour": "red"}, 1: {"name": "Bob", "colour": "blue"}}
    return game_page(PageContext(view=table_view, seats=seats))


def target(page: dict, character: str) -> dict:
    return next(t for t in page["choice"]["targets"] if t["id"] == character)


def test_irene_too_dear_names_her_price_and_your_markers():
    state = at_day(stacked(), 5, alice=("watson",), bob=("lestrade",))
    state["board"].append({"id": "irene_adler", "space": "day5", "face_up": True})
    state = place(state, ["button-1"], "visible", 1)
    state = set_tokens(state, 2, 5)

    irene = target(page_for(state), "irene_adler")

    assert not irene["usable"]
    assert irene["why_not"] == "It costs 5 markers today; you hold 2 markers."


def test_irene_with_nothing_to_steal_says_so():
    state = at_day(stacked(), 2, alice=("watson",), bob=("lestrade",))
    state["board"].append({"id": "irene_adler", "space": "day2", "face_up": True})
    state = place(state, ["wild-1"], "visible", 1)
    state = set_tokens(state, 5, 5)

    irene = target(page_for(state), "irene_adler")

    assert "no clue she may steal" in irene["why_not"]


def test_a_usable_ability_gives_no_reason():
    page = page_for(set_tokens(stacked(), 5, 5))
    assert all(t["why_not"] == "" for t in page["choice"]["targets"] if t["usable"])
    assert any(t["usable"] for t in page["choice"]["targets"])


def test_lestrade_unaffordable_names_his_price():
    state = set_tokens(stacked(), 1, 5)
    lestrade = target(page_for(state), "lestrade")
    assert lestrade["why_not"] == "It costs 3 markers; you hold 1 marker."


def test_two_cards_alike_under_langdale_pike_are_counted():
    line = ("button-1", "button-2", "button-3", "button-4")
    state = stacked(top=(*line, "map-1", "map-2", "fingerprint-9"))
    state, _ = play(state, 0, move("langdale_pike", {"look": 3}))

    options = page_for(state)["choice"]["options"]

    maps = next(o for o in options if "map" in o["action"])
    prints = next(o for o in options if "fingerprint" in o["action"])
    assert maps["note"] == "×2" and "you see 2 of them" in maps["describe"]
    assert prints["note"] == ""


def assign_step(state: dict, queue: list[int]) -> dict:
    state["day"], state["step"], state["turn"] = 7, "assign", queue[0]
    state["queue"] = [{"step": "assign", "seat": seat} for seat in queue]
    return state


def test_the_wildcard_preview_warns_that_the_rival_places_after_you():
    state = place(stacked(), ["wild-1", "button-1"], "visible", 0)
    state = place(state, ["wild-2", "bullet-3"], "visible", 1)
    help_text = page_for(assign_step(state, [0, 1]))["choice"]["help"]
    assert "places their wildcards after you" in help_text


def test_the_wildcard_preview_is_final_when_the_rival_has_none():
    state = place(stacked(), ["wild-1", "button-1"], "visible", 0)
    state = place(state, ["bullet-3"], "visible", 1)
    help_text = page_for(assign_step(state, [0]))["choice"]["help"]
    assert "no wildcard to place: these scores are final" in help_text
