"""The Sherlock & Mycroft table page through the test client: the lobby, a game in play and
its end, for each player and a spectator; only legal moves offered, one seat's hidden
clues shown to that seat alone, a move posted and a refused one explained."""

import html
import json
import re

import pytest
from django.test import Client

from games.sherlock_mycroft import GAME, rules
from games.sites import get_site
from play import services
from play.models import Spectator, Table, TableStatus
from tests.games.sherlock_mycroft.helpers import at_day, move, place, play, set_tokens, stacked

from .helpers import act, legal, page

pytestmark = pytest.mark.django_db

ACTION_VALUE = re.compile(r'name="action" value="([^"]*)"')


@pytest.fixture(autouse=True)
def quick(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    # Three people a test at the default hasher's cost would take most of the run.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def clients(alice, bob, charlie):
    made = {}
    for user in (alice, bob, charlie):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


@pytest.fixture
def duel(alice, bob, charlie) -> Table:
    """A started table: alice (seat 0) against bob (seat 1), charlie watching."""
    table = services.table_create(host=alice, game="sherlock_mycroft", options={})
    Table.objects.filter(pk=table.pk).update(seed=1887)
    services.table_join(invite_code=table.invite_code, user=bob)
    Spectator.objects.create(table=table, user=charlie)
    return services.table_start(table_id=table.pk, user=alice)


def with_state(table: Table, state: dict) -> Table:
    """The table, its game replaced by ``state`` (built with the rules' test helpers)."""
    table.refresh_from_db()
    table.state = state
    table.version += 1
    table.save(update_fields=["state", "version"])
    return table


def offered(html_text: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in ACTION_VALUE.findall(html_text)]


def assert_only_legal(client, table, user) -> list[dict]:
    """Every button of the page posts one of this seat's legal actions (radio choices
    fold into them only by ``action_from_form``, checked below)."""
    actions = offered(page(client, table))
    allowed = legal(table, user)
    assert actions, "no move offered"
    for action in actions:
        assert action in allowed, action
    return actions


def wake_until_still(limit=400) -> None:
    for _ in range(limit):
        if not services.tables_wake_due():
            return
    raise AssertionError("the table never settled")


# --- The lobby -------------------------------------------------------------------------------


def test_the_lobby_offers_a_computer_player_and_starts(clients, alice):
    table = services.table_create(host=alice, game="sherlock_mycroft", options={"moran": True})
    text = page(clients["alice"], table)
    assert "The lobby" in text and 'id="add-bot"' in text
    assert "Sebastian Moran: on" in text

    services.seat_add_bot(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    text = page(clients["alice"], table)
    assert "Day 1 of 7" in text
    assert "It is your turn: move an action marker (3 moves left today)." in text
    assert 'href="/static/sherlock_mycroft/table.css"' in text


# --- In play ---------------------------------------------------------------------------------


def test_a_player_sees_the_line_as_cards_the_board_and_the_day_track(clients, duel, alice):
    text = page(clients["alice"], duel)
    line = duel.state["line"]
    assert text.count('class="clue clue--') >= len(line)
    for card in line:
        assert f'data-card="{card}"' in text
    for entry in duel.state["board"]:
        assert f'id="character-{entry["id"]}"' in text
    assert 'aria-current="step"' in text
    assert "Majorities so far" in text
    assert 'id="your-move"' in text
    assert_only_legal(clients["alice"], duel, alice)


def test_only_the_player_whose_turn_it_is_gets_moves(clients, duel, bob):
    bob_page = page(clients["bob"], duel)
    assert 'id="your-move"' not in bob_page
    assert "It is Alice&#x27;s turn to move an action marker." in bob_page
    assert offered(bob_page) == []


def test_each_player_sees_only_their_own_hidden_clues(clients, duel, alice, bob):
    state = place(duel.state, ["bullet-4", "fingerprint-2"], "hidden", 0)
    state = place(state, ["button-6"], "hidden", 1)
    state = place(state, ["cigarette-3"], "hidden_known", 1)  # stolen from alice: public
    with_state(duel, state)

    alice_page = page(clients["alice"], duel)
    bob_page = page(clients["bob"], duel)
    spectator = page(clients["charlie"], duel)

    assert 'data-card="bullet-4"' in alice_page and 'data-card="fingerprint-2"' in alice_page
    assert "Only you see these" in alice_page
    assert 'data-card="button-6"' in bob_page
    for private in GAME.private_items(state, 1):
        assert private not in alice_page
        assert private not in spectator
    for private in GAME.private_items(state, 0):
        assert private not in bob_page
        assert private not in spectator
    # A stolen clue everybody watched go is shown to all; the others are card backs.
    assert 'data-card="cigarette-3"' in alice_page and 'data-card="cigarette-3"' in spectator
    assert 'Hidden clues <span class="meta">(2)</span>' in spectator
    assert "(+1 hidden)" in alice_page  # her own counts in the majorities


def test_a_spectator_sees_the_public_view_without_moves(clients, duel):
    text = page(clients["charlie"], duel)
    assert "Day 1 of 7" in text
    assert 'id="your-move"' not in text and offered(text) == []
    assert "Only you see these" not in text


def test_a_legal_move_is_posted_and_the_rival_sees_it(clients, duel, alice):
    action = move("watson", {"take": [duel.state["line"][0]]})
    assert action in legal(duel, alice)
    response = act(clients["alice"], duel, action)
    assert response.status_code == 200
    assert 'role="alert"' not in response.text
    duel.refresh_from_db()
    assert duel.state["turn"] == 1 and duel.state["visible"][0] == [action["ability"]["take"][0]]
    bob_page = page(clients["bob"], duel)
    assert "You went to" not in bob_page
    assert "Alice went to Doctor Watson and paid 1 marker." in bob_page
    assert "It is your turn" in bob_page


def test_a_refused_move_shows_its_sentence(clients, duel, alice, bob):
    act(clients["alice"], duel, move("toby", {}))
    act(clients["bob"], duel, move("mrs_hudson", {}))
    response = act(clients["alice"], duel, move("toby", {}))
    assert 'role="alert"' in response.text
    assert "One of your markers is already on that character." in response.text
    response = act(clients["bob"], duel, move("watson", None))
    assert "It is not your turn." in response.text
    duel.refresh_from_db()
    assert duel.state["turn"] == 0


def test_from_day_two_the_marker_to_move_is_a_radio_choice(clients, duel, alice):
    state = at_day(duel.state, 2, alice=("watson", "mrs_hudson"), bob=("lestrade",))
    with_state(duel, state)
    text = page(clients["alice"], duel)
    assert "Pick up your standing marker from" in text
    assert 'name="from" value="watson" checked' in text
    assert 'name="from" value="mrs_hudson"' in text
    assert_only_legal(clients["alice"], duel, alice)

    plain = move("toby", None, origin="watson")
    response = act(clients["alice"], duel, plain, **{"from": "mrs_hudson"})
    assert 'role="alert"' not in response.text
    duel.refresh_from_db()
    on = {m["on"] for m in duel.state["markers"][0]}
    assert on == {"watson", "toby", None}


def test_violet_hunters_swap_is_two_radio_groups(clients, duel, alice):
    state = at_day(duel.state, 2, alice=("watson",), bob=("lestrade",))
    state = place(state, ["explosive-1", "map-2"], "visible", 0)
    state["board"].append({"id": "violet_hunter", "space": "day2", "face_up": True})
    state["character_deck"].remove("violet_hunter")
    with_state(duel, state)
    text = page(clients["alice"], duel)
    assert 'name="ability-give" value="explosive-1" checked' in text
    assert 'name="ability-take"' in text
    assert_only_legal(clients["alice"], duel, alice)

    take = duel.state["line"][2]
    swap = move("violet_hunter", {"give": "explosive-1", "take": duel.state["line"][0]}, "watson")
    response = act(clients["alice"], duel, swap, **{"ability-give": "map-2", "ability-take": take})
    assert 'role="alert"' not in response.text
    duel.refresh_from_db()
    assert "map-2" in duel.state["line"] and take in duel.state["visible"][0]


def test_the_form_fields_only_change_what_they_name():
    day_one = move("watson", {"take": ["button-1"]})
    assert get_site("sherlock_mycroft").action_from_form(day_one, {"from": "toby"}) == day_one
    keep = {"type": "keep", "card": "button-1"}
    assert (
        get_site("sherlock_mycroft").action_from_form(keep, {"from": "toby", "ability-give": "x"})
        == keep
    )


# --- Pending choices -------------------------------------------------------------------------


def pike_look(state):
    state, _ = play(state, 0, move("langdale_pike", {"look": 2}))
    return state, 0, "Langdale Pike: keep one card"


def von_kramm_offer(state):
    state = at_day(state, 2, alice=("watson",), bob=("lestrade",))
    state["board"].append({"id": "von_kramm", "space": "day2", "face_up": True})
    state["character_deck"].remove("von_kramm")
    state, _ = play(state, 0, move("von_kramm", {"take": [state["line"][0]]}, "watson"))
    return state, 1, "Pay 1 marker for the top card"


def moriarty_toll(state):
    state = place(state, ["button-1"], "visible", 0)
    state["step"], state["turn"] = "moriarty", 0
    state["queue"] = [{"step": "moriarty", "seat": 0}, {"step": "moriarty", "seat": 1}]
    return state, 0, "Return 2 markers"


def moran_marker(state):
    state = at_day(state, 2, alice=("watson", "toby"), bob=("lestrade",))
    state["step"], state["turn"] = "moran", 0
    state["queue"] = [{"step": "moran", "seat": 0}, {"step": "moran", "seat": 1}]
    return state, 0, "Lay down the marker on Toby"


def reservation(state):
    state["variants"]["reserve_card"] = True
    state["card_holder"] = 0
    state, _ = play(state, 0, move("mrs_hudson", {}))
    return state, 0, "Reserve nothing"


def wildcards(state):
    state = place(state, ["wild-1", "button-1", "bullet-2"], "visible", 0)
    state = place(state, ["bullet-3"], "visible", 1)
    state["day"], state["step"], state["turn"] = 7, "assign", 0
    state["queue"] = [{"step": "assign", "seat": 0}]
    return state, 0, "Place your wildcards"


@pytest.mark.parametrize(
    "arrange", [pike_look, von_kramm_offer, moriarty_toll, moran_marker, reservation, wildcards]
)
def test_every_pending_choice_is_offered_as_buttons(clients, duel, alice, bob, arrange):
    state, seat, words = arrange(stacked())
    with_state(duel, state)
    user, name = (alice, "alice") if seat == 0 else (bob, "bob")
    text = page(clients[name], duel)
    assert html.escape(words, quote=False) in text or words in text
    actions = assert_only_legal(clients[name], duel, user)

    response = act(clients[name], duel, actions[0])
    assert 'role="alert"' not in response.text, response.text


def test_the_pike_look_is_shown_only_to_the_looker(clients, duel):
    line = ("button-1", "button-2", "button-3", "button-4")
    state, _, _ = pike_look(stacked(top=(*line, "map-1", "fingerprint-9")))
    with_state(duel, state)
    assert 'data-card="fingerprint-9"' in page(clients["alice"], duel)
    for name in ("bob", "charlie"):
        text = page(clients[name], duel)
        assert "fingerprint-9" not in text and "map-1" not in text
        assert "Alice is looking at 2 cards with Langdale Pike." in text


# --- The end -----------------------------------------------------------------------------


def test_a_whole_game_against_the_computer_ends_in_the_scoring(clients, alice, charlie):
    table = services.table_create(host=alice, game="sherlock_mycroft", options={})
    Table.objects.filter(pk=table.pk).update(seed=221)
    services.seat_add_bot(table_id=table.pk, user=alice)
    Spectator.objects.create(table=table, user=charlie)
    services.table_start(table_id=table.pk, user=alice)
    for _ in range(200):
        table.refresh_from_db()
        if table.status == TableStatus.FINISHED:
            break
        if rules.turn(table.state) == 0:
            actions = offered(page(clients["alice"], table))
            response = act(clients["alice"], table, actions[0])
            assert 'role="alert"' not in response.text, response.text
        wake_until_still()
    assert table.status == TableStatus.FINISHED

    for name in ("alice", "charlie"):
        text = page(clients[name], table)
        assert 'id="final-scoring"' in text
        for kind in ("False Pass", "Fingerprint", "Map Fragment", "Total"):
            assert kind in text
        assert offered(text) == []
    outcome = table.outcome
    text = page(clients["alice"], table)
    scores = table.state["result"]["scores"]
    if outcome["winners"] == [0]:
        assert "You win" in text
    elif outcome["winners"] == [1]:
        assert "Computer 1 wins" in text
    assert f'<td class="points total">{scores[0]}</td>' in text


def test_the_end_reveals_every_hidden_clue(clients, duel):
    state = place(stacked(), ["bullet-4"], "hidden", 0)
    state = place(state, ["button-6"], "hidden", 1)
    state = set_tokens(state, 3, 3)
    state["day"], state["step"], state["turn"] = 7, "assign", 0
    state["queue"] = []
    state["moves_left"] = [0, 0]
    from games.sherlock_mycroft.rules import flow

    flow.continue_assign(state, [])
    with_state(duel, state)
    text = page(clients["charlie"], duel)
    assert 'data-card="bullet-4"' in text and 'data-card="button-6"' in text
    assert "Final scoring" in text
