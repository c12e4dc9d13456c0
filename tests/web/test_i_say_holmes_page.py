"""I Say, Holmes!'s table page through the test client: the lobby, a case in play, a
response window, an arrest, a case's scoring and the end, for each player and a
spectator; only your own hand shown; only legal moves offered; a move posted, a refused
one explained."""

import html
import json
import re

import pytest
from django.test import Client

from games.i_say_holmes.rules import cards
from games.sites import get_site
from play import services
from play.models import Spectator, Table
from tests.games.i_say_holmes.helpers import table as table_state

from .helpers import act, legal, page

pytestmark = pytest.mark.django_db

ACTION_VALUE = re.compile(r'name="action" value="([^"]*)"')

# alice (seat 0) is on turn, the Current card a Clue: her Arrest follows it. bob holds
# Moriarty (guilty) and an Alibi; charlie is innocent.
HANDS = [
    ["arrest-1", "hansom-1", "westend-1"],
    ["moriarty", "clue-2", "alibi-1"],
    ["train-1", "telegram-1", "bakerst-1"],
]


@pytest.fixture(autouse=True)
def quick(settings):
    settings.HOLMES_BOT_PAUSE_SECONDS = 0
    # Four users a test at the default hasher's cost would take most of the run.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


@pytest.fixture
def clients(alice, bob, charlie, dave):
    made = {}
    for user in (alice, bob, charlie, dave):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


@pytest.fixture
def lobby(alice, bob, charlie, dave) -> Table:
    table = services.table_create(
        host=alice, game="i_say_holmes", options={"max_cases": 2, "window_seconds": 30}
    )
    Table.objects.filter(pk=table.pk).update(seed=221)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_join(invite_code=table.invite_code, user=charlie)
    Spectator.objects.create(table=table, user=dave)
    table.refresh_from_db()
    return table


@pytest.fixture
def started(lobby, alice) -> Table:
    """alice, bob and charlie play; dave watches."""
    return services.table_start(table_id=lobby.pk, user=alice)


def with_state(table: Table, state: dict) -> Table:
    table.refresh_from_db()
    state["players"] = list(table.state["players"])
    table.state = state
    table.version += 1
    table.save(update_fields=["state", "version"])
    return table


@pytest.fixture
def arranged(started) -> Table:
    """The fixed hands above, alice on turn with an Arrest that follows the Clue."""
    return with_state(started, table_state(HANDS, current="clue-1", max_cases=2, window_seconds=30))


def offered(text: str) -> list[dict]:
    return [json.loads(html.unescape(value)) for value in ACTION_VALUE.findall(text)]


def title(card: str) -> str:
    return html.escape(cards.row(card).title)


def refusal(text: str) -> str:
    found = re.search(r'<p class="refusal" role="alert" id="refusal">(.*?)</p>', text, re.S)
    return html.unescape(found.group(1).strip()) if found else ""


def hand_of(table: Table, seat: int) -> list[str]:
    table.refresh_from_db()
    return table.state["hands"][seat]


def section(text: str, element_id: str) -> str:
    found = re.search(rf'<(section|div) [^>]*id="{element_id}".*?</\1>', text, re.S)
    return found.group(0) if found else ""


def hand_card(text: str, card: str) -> str:
    """One card of the hand, up to the next card or the end of the hand."""
    found = re.search(rf'id="hand-{card}".*?(?=class="ish-hand-card|</section>)', text, re.S)
    return found.group(0) if found else ""


# --- The lobby -------------------------------------------------------------------------------


def test_the_lobby_names_the_house_rules(lobby, clients):
    for name in ("alice", "dave"):
        text = page(clients[name], lobby)
        assert "The lobby" in text
        assert "Number of cases: 2" in text
        assert "Seconds to answer a card played on you: 30" in text
        assert "Your hand" not in text


def test_a_default_lobby_names_its_clocks_and_plays_until_his_last_bow(alice, clients):
    table = services.table_create(host=alice, game="i_say_holmes")
    text = page(clients["alice"], table)
    assert "Number of cases: until His Last Bow" in text
    assert "Seconds to answer a card played on you: 30" in text
    assert "Seconds for a secret choice: 30" in text
    assert "Seconds for a turn: no limit" in text
    assert "No turn timer." in text


# --- A case in play --------------------------------------------------------------------------


def test_each_player_sees_their_own_hand_as_cards_and_nobody_elses(started, clients):
    texts = {name: page(clients[name], started) for name in ("alice", "bob", "charlie", "dave")}
    for seat, name in enumerate(("alice", "bob", "charlie")):
        for card in hand_of(started, seat):
            assert f'id="hand-{card}"' in texts[name]
            for other in ("alice", "bob", "charlie", "dave"):
                if other != name:
                    assert f'id="hand-{card}"' not in texts[other]
    for text in texts.values():
        assert "The Current card" in text
        assert "What may follow it" in text
        assert "Case 1 of 2" in text
        assert text.count('class="player ish-player') == 3


def test_the_hand_marks_the_cards_that_follow_in_words(arranged, clients):
    text = page(clients["alice"], arranged)
    card = hand_card(text, "arrest-1")
    assert "✓ Follows the Current card" in card
    assert "Action" in card and "3</strong> CP" in card
    assert "✓" not in hand_card(text, "westend-1")
    assert "It is your turn." in text
    # The Current card says what may follow it.
    assert "Arrest" in section(text, "ish-story") and "any Travel card" in section(
        text, "ish-story"
    )


def test_a_spectator_sees_the_public_view(arranged, clients):
    text = page(clients["dave"], arranged)
    assert "Your hand" not in text
    assert 'name="action"' not in text
    for hand in HANDS:
        for card in hand:
            assert f'id="hand-{card}"' not in text
    assert "Moriarty" not in section(text, "ish-players")
    assert "Hand: <strong>3</strong> cards" in text
    assert "It is alice&#x27;s turn." in text or "It is Alice&#x27;s turn." in text


def test_only_legal_moves_are_offered(arranged, clients, alice, bob):
    actions = offered(page(clients["alice"], arranged))
    allowed = legal(arranged, alice)
    assert sorted(map(json.dumps, actions)) == sorted(map(json.dumps, allowed))
    assert {"type": "play", "card": "arrest-1", "target": 1} in actions
    assert offered(page(clients["bob"], arranged)) == []
    assert legal(arranged, bob) == []


def test_a_legal_move_posts_and_a_refused_one_shows_its_sentence(arranged, clients):
    response = act(clients["alice"], arranged, {"type": "play", "card": "clue-2", "target": 1})
    assert refusal(response.text) == "Play a card from your hand."
    response = act(clients["alice"], arranged, {"type": "draw"})
    assert refusal(response.text) == "You hold a card that follows the Current card: play one."
    response = act(clients["alice"], arranged, {"type": "play", "card": "arrest-1", "target": 2})
    assert response.status_code == 200
    assert refusal(response.text) == ""
    arranged.refresh_from_db()
    assert arranged.state["pending"]["kind"] == "window"


# --- A response window and an arrest ---------------------------------------------------------


def test_a_window_asks_its_target_to_counter_or_allow(arranged, clients):
    act(clients["alice"], arranged, {"type": "play", "card": "arrest-1", "target": 1})
    bob = page(clients["bob"], arranged)
    window = section(bob, "ish-window")
    assert "Counter or allow?" in window
    assert "played Arrest on you." in window
    assert "An Alibi or a Mastermind counters it." in window
    assert "The timer above shows how long is left" in window
    assert {"type": "allow"} in offered(bob)
    assert {"type": "counter", "card": "alibi-1"} in offered(bob)
    assert 'id="turn-timer"' in bob  # the shell's countdown of the window
    for name in ("alice", "charlie", "dave"):
        text = page(clients[name], arranged)
        assert "A response window is open" in text
        assert "Waiting for: <strong>" in text
        assert offered(text) == []


def test_a_counter_is_posted_from_the_window(arranged, clients):
    act(clients["alice"], arranged, {"type": "play", "card": "arrest-1", "target": 1})
    response = act(clients["bob"], arranged, {"type": "counter", "card": "alibi-1"})
    assert refusal(response.text) == ""
    # The Alibi makes everyone pass a card to the right: a secret choice.
    assert "Your secret choice" in response.text
    assert "A secret choice" in page(clients["dave"], arranged)


def test_an_arrest_shows_the_hand_only_to_the_arrester_and_the_accused(arranged, clients):
    act(clients["alice"], arranged, {"type": "play", "card": "arrest-1", "target": 2})
    act(clients["charlie"], arranged, {"type": "allow"})
    alice = section(page(clients["alice"], arranged), "ish-arrests")
    assert "arrested charlie" in alice.lower()
    assert "Innocent" in alice
    assert "You saw charlie&#x27;s hand" in alice or "You saw Charlie&#x27;s hand" in alice
    for card in HANDS[2]:
        assert title(card) in alice
    charlie = section(page(clients["charlie"], arranged), "ish-arrests")
    assert "Your hand, as it was shown" in charlie
    for name in ("bob", "dave"):
        text = section(page(clients[name], arranged), "ish-arrests")
        assert "Innocent" in text
        assert "private" not in text
        assert title("bakerst-1") not in text


# --- A case's scoring and the end ------------------------------------------------------------


def test_a_guilty_arrest_closes_the_case_and_its_news_stays_until_the_next_move(arranged, clients):
    act(clients["alice"], arranged, {"type": "play", "card": "arrest-1", "target": 1})
    act(clients["bob"], arranged, {"type": "allow"})
    arranged.refresh_from_db()
    assert arranged.state["case"] == 2 and arranged.state["pending"] is None  # dealt
    opener = arranged.state["turn"]["seat"]
    for name in ("alice", "bob", "charlie", "dave"):
        text = page(clients[name], arranged)
        scoring = section(text, "ish-case-scoring")
        assert "Case 1 closed" in scoring
        assert "arrested" in scoring and "guilty" in scoring
        assert "Professor Moriarty" in scoring
        assert "Grand total" in scoring
        book = arranged.state["last_case"]["book"]
        assert html.escape(book, quote=True) in scoring
        assert "Case 2 of 2" in text
        assert {"type": "next_case"} not in offered(text)
    # The first move of case 2 folds the news away beside the log.
    mover = ("alice", "bob", "charlie")[opener]
    move = legal(arranged, arranged.seats.get(number=opener).user)[0]
    response = act(clients[mover], arranged, move)
    assert refusal(response.text) == ""
    text = page(clients["dave"], arranged)
    assert section(text, "ish-case-scoring") == ""
    assert "How case 1 closed" in text


def test_the_end_turns_every_token_over(arranged, clients):
    arranged.state["max_cases"] = 1
    with_state(arranged, arranged.state)
    act(clients["alice"], arranged, {"type": "play", "card": "arrest-1", "target": 1})
    act(clients["bob"], arranged, {"type": "allow"})
    for name in ("alice", "bob", "dave"):
        text = page(clients[name], arranged)
        end = section(text, "end-screen")
        assert "The game is over" in end
        assert "Final standing" in end
        assert "(Case Closed)" in end  # alice's book, its value shown
        assert offered(text) == []
    assert "you win" in page(clients["alice"], arranged).lower()


def test_a_closed_case_is_told_to_the_table():
    names = {0: "Alice", 1: "Bob"}
    text = get_site("i_say_holmes").notice_text(
        "table_news", "I Say, Holmes!", names, {"case": 1, "how": "guilty", "seat": 0, "accused": 1}
    )
    assert text == "I Say, Holmes!: Case 1 is closed: Alice arrested Bob, who was guilty."


def test_the_timer_says_what_a_window_waits_for():
    site = get_site("i_say_holmes")
    assert site.timer_label({"game": {"pending": {"kind": "window"}}}) == "Time to answer"
    assert site.timer_label({"game": {"pending": None}}) == "Time to move"
