"""The Elementary deck's table page through the test client: the lobby, a game in play and
its end, for each player and a spectator; only your own hand shown; only legal moves
offered; a move posted, a refused one explained; the deduction grid's marks kept."""

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.holmes_elementary.rules.cards import CARD_NAMES
from play import services
from play.models import Spectator, Table
from tests.games.holmes_elementary.helpers import make_state

from .helpers import act, legal, page

pytestmark = pytest.mark.django_db

ACTION_VALUE = re.compile(r'name="action" value="([^"]*)"')
# Forms whose action the player completes (a guess's suit and rank, the cards ticked).
FORM_ACTIONS = ({"type": "guess"}, {"type": "discard"})
CASE = ["X01", "S02", "H03", "A04", "M05", "C06", "L07"]


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0


@pytest.fixture
def clients(alice, bob, charlie):
    made = {}
    for user in (alice, bob, charlie):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


@pytest.fixture
def lobby(alice, bob, charlie) -> Table:
    table = services.table_create(
        host=alice, game="holmes_elementary", options={"first_player": "0", "max_rounds": 12}
    )
    Table.objects.filter(pk=table.pk).update(seed=221)
    services.table_join(invite_code=table.invite_code, user=bob)
    Spectator.objects.create(table=table, user=charlie)
    table.refresh_from_db()
    return table


@pytest.fixture
def duel(lobby, alice) -> Table:
    """alice (seat 0, on turn) against bob (seat 1); charlie watches."""
    return services.table_start(table_id=lobby.pk, user=alice)


def with_state(table: Table, state: dict) -> Table:
    table.refresh_from_db()
    for seat, name in enumerate(("Alice", "Bob", "Charlie")[: len(state["players"])]):
        state["players"][seat]["name"] = name
    table.state = state
    table.version += 1
    table.save(update_fields=["state", "version"])
    return table


def named(card: str) -> str:
    """A card's name as the page writes it (HTML-escaped)."""
    return html.escape(CARD_NAMES[card])


def offered(text: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in ACTION_VALUE.findall(text)]


def hand_of(table: Table, seat: int) -> list[str]:
    table.refresh_from_db()
    return table.state["players"][seat]["hand"]


def refusal(text: str) -> str:
    found = re.search(r'<p class="refusal" role="alert" id="refusal">(.*?)</p>', text, re.S)
    return html.unescape(found.group(1).strip()) if found else ""


# --- The lobby -------------------------------------------------------------------------------


def test_the_lobby_names_the_house_rules_in_words(lobby, clients):
    text = page(clients["alice"], lobby)
    assert "The lobby" in text
    assert "First player: The host" in text
    assert "Round limit: 12" in text
    assert "Deduction grid" not in text


def test_the_games_page_offers_the_first_player_by_name(clients):
    text = clients["alice"].get(reverse("play:games")).text
    for label in ("The host", "Seat 2", "Seat 6", "At random"):
        assert f">{label}</option>" in text


def test_a_seat_the_table_lacks_cannot_play_first(alice, bob, clients):
    table = services.table_create(
        host=alice, game="holmes_elementary", options={"first_player": "4"}
    )
    services.table_join(invite_code=table.invite_code, user=bob)
    with pytest.raises(services.TableError, match="first player"):
        services.table_start(table_id=table.pk, user=alice)


# --- A game in play --------------------------------------------------------------------------


def test_a_player_sees_their_own_hand_as_cards_and_nobody_elses(duel, clients):
    alice_page = page(clients["alice"], duel)
    bob_page = page(clients["bob"], duel)
    for card in hand_of(duel, 0):
        assert f'id="hand-{card}"' in alice_page
        assert named(card) in alice_page
        assert f'id="hand-{card}"' not in bob_page
        assert named(card) not in bob_page
    for card in hand_of(duel, 1):
        assert f'id="hand-{card}"' in bob_page
        assert named(card) not in alice_page
    assert "It is your turn: Action phase." in alice_page
    assert "It is Alice&#x27;s turn: Action phase." in bob_page
    assert "Deduction grid" in alice_page
    assert "Hand: 7 cards" in bob_page  # alice's, dealt five and drew two


def test_a_spectator_sees_the_public_view(duel, clients):
    text = page(clients["charlie"], duel)
    assert "The seven spots" in text
    assert "Your hand" not in text
    assert "Deduction grid" not in text
    assert 'name="action"' not in text
    for seat in (0, 1):
        for card in hand_of(duel, seat):
            assert named(card) not in text
    for card in duel.state["spots"].values():
        assert named(card) not in text


def test_only_legal_moves_are_offered(duel, clients, alice, bob):
    actions = offered(page(clients["alice"], duel))
    allowed = legal(duel, alice)
    assert {"type": "pass"} in actions
    assert any(action["type"] == "play" for action in actions)
    for action in actions:
        assert action in allowed or action in FORM_ACTIONS, action
    assert offered(page(clients["bob"], duel)) == []
    assert legal(duel, bob) == []


def test_the_grid_fills_in_the_cards_in_your_hand(duel, clients):
    text = page(clients["alice"], duel)
    for card in hand_of(duel, 0):
        assert f'id="cell-{card}" data-card="{card}"' in text
        cell = re.search(rf'<button[^>]*id="cell-{card}"[^>]*>', text).group(0)
        assert "he-cell--hand" in cell
        assert "in your hand" in cell


def test_a_legal_move_posts_and_the_page_moves_on(duel, clients):
    response = act(clients["alice"], duel, {"type": "pass"})
    assert response.status_code == 200
    assert refusal(response.text) == ""
    assert "It is your turn: Sleuth phase." in response.text
    duel.refresh_from_db()
    assert duel.state["phase"] == "sleuth"


def test_a_refused_move_shows_its_sentence(duel, clients):
    response = act(clients["alice"], duel, {"type": "guess"}, **{"param-suit": "C"})
    assert refusal(response.text) == "This action needs a rank field."
    response = act(
        clients["alice"], duel, {"type": "guess"}, **{"param-suit": "C", "param-rank": "11"}
    )
    assert refusal(response.text) == "A rank is a whole number from 1 to 10."
    duel.refresh_from_db()
    assert duel.state["phase"] == "action"


def test_a_guess_is_made_with_the_spot_and_rank_chosen(duel, clients):
    suit, hidden = "M", duel.state["spots"]["M"]
    wrong = 1 if hidden != "M01" else 2
    response = act(
        clients["alice"], duel, {"type": "guess"}, **{"param-suit": suit, "param-rank": str(wrong)}
    )
    assert refusal(response.text) == ""
    assert f"You guessed Method {wrong}: wrong." in response.text
    assert "Only you saw it: the Method spot holds" in response.text
    assert "Barred for you" in response.text
    bob_page = page(clients["bob"], duel)
    assert f"Alice guessed Method {wrong}: wrong." in bob_page
    assert "Only you saw it" not in bob_page


def test_an_action_card_asks_its_target_to_choose_two_cards(duel, clients):
    state = make_state(
        [["A05", "X02", "S03"], ["H01", "H02", "M03", "C04", "L05"]], current=0, phase="action"
    )
    with_state(duel, state)
    act(clients["alice"], duel, {"type": "play", "card": "A05", "target": 1})
    bob_page = page(clients["bob"], duel)
    assert "Alice played an Action card on you: choose 2 cards to discard." in bob_page
    assert 'id="pick-H01"' in bob_page
    assert "Waiting for Bob to choose 2 cards to discard" in page(clients["alice"], duel)

    response = act(clients["bob"], duel, {"type": "discard"}, cards=["H01"])
    assert refusal(response.text) == "Discard exactly 2 cards."
    response = act(clients["bob"], duel, {"type": "discard"}, cards=["H01", "M03"])
    assert refusal(response.text) == ""
    assert hand_of(duel, 1) == ["H02", "C04", "L05"]


def test_a_locale_card_offers_the_cards_drawn_to_keep(duel, clients):
    state = make_state([["L05", "X02"], ["H01", "H02"]], deck=["C01", "C02", "C03"])
    with_state(duel, state)
    act(clients["alice"], duel, {"type": "play", "card": "L05"})
    text = page(clients["alice"], duel)
    assert "Keep one card" in text
    assert offered(text) == [{"type": "keep", "card": card} for card in ("C01", "C02", "C03")]
    act(clients["alice"], duel, {"type": "keep", "card": "C02"})
    assert hand_of(duel, 0) == ["X02", "C02"]


def test_the_valid_cases_are_offered_and_the_fifth_token_ends_the_game(duel, clients):
    state = make_state([[*CASE, "S03"], ["H01", "H02"]])
    state["players"][0]["tokens"] = 4
    state["supply"] -= 4
    with_state(duel, state)
    text = page(clients["alice"], duel)
    solves = [action for action in offered(text) if action["type"] == "solve"]
    assert solves == [{"type": "solve", "cards": CASE}]
    response = act(clients["alice"], duel, solves[0])
    assert "You won: five case tokens!" in response.text
    assert 'id="end-screen"' in response.text
    for name in ("bob", "charlie"):
        text = page(clients[name], duel)
        assert "Alice won with five case tokens." in text
        assert 'name="action"' not in text
        for card in state["spots"].values():
            assert named(card) in text  # every spot face up
    assert "Final standing" in text


def test_marks_are_saved_with_the_notebook_and_render_back(duel, clients):
    marks = {"grid": {"X05": "out", "C06": "maybe", "nonsense": "out"}}
    response = clients["alice"].post(
        reverse("play:table-notebook", args=[duel.pk]),
        {"marks": json.dumps(marks)},
        HTTP_ACCEPT="application/json",
    )
    assert response.json() == {"saved": True}
    text = page(clients["alice"], duel)
    x05 = re.search(r'<button[^>]*id="cell-X05"[^>]*>', text).group(0)
    assert 'data-mark="out"' in x05
    assert "marked ruled out" in x05
    c06 = re.search(r'<button[^>]*id="cell-C06"[^>]*>', text).group(0)
    assert 'data-mark="maybe"' in c06
    assert "nonsense" not in text
    # A live update renders them too.
    live = clients["alice"].get(reverse("play:table-live", args=[duel.pk]))
    assert 'data-mark="out"' in live.text
    # The other player's grid is their own.
    assert 'data-mark="out"' not in page(clients["bob"], duel)


def test_computer_players_play_a_whole_game_and_the_page_shows_the_end(alice, clients):
    table = services.table_create(
        host=alice, game="holmes_elementary", options={"first_player": "1", "max_rounds": 6}
    )
    Table.objects.filter(pk=table.pk).update(seed=7)
    services.seat_add_bot(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    for _ in range(400):
        table.refresh_from_db()
        if table.state["phase"] == "over":
            break
        actions = legal(table, alice)
        if actions:
            solves = [action for action in actions if action["type"] == "solve"]
            act(clients["alice"], table, solves[0] if solves else actions[-1])
        services.tables_wake_due()
    table.refresh_from_db()
    assert table.state["phase"] == "over"
    text = page(clients["alice"], table)
    assert 'id="end-screen"' in text
    assert "The game is over" in text
