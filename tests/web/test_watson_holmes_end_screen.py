"""The Watson & Holmes end screen tells what became of each player: solved it, so many right
at 221B, left the game, waited at 221B and was never called, or never went."""

import pytest
from django.test import Client

from play.models import TableStatus

from .helpers import act, page
from .test_table_pages import RIGHT, deliver_verdicts, everyone_done, visit

# Alice's answers: words found nowhere else on the page, so a leak would show.
ALICE = {"thief": "Ebenezer Quibble", "hiding_place": "the Zanzibar pavilion", "ticket": "987"}


@pytest.fixture
def clients(alice, bob, charlie):
    made = {}
    for user in (alice, bob, charlie):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


def end_lines(html: str) -> dict[str, str]:
    """Each player's line of the end screen, by name: "Bob" -> "solved it (place 1)"."""
    places = html.split('id="end-screen"')[1].split('<ul class="places">')[1].split("</ul>")[0]
    lines = {}
    for item in places.split("<li>")[1:]:
        text = " ".join(item.split("</li>")[0].split())
        # The pawn's markup comes first; then "Name: what became of them".
        name, _, line = text.rpartition(":")
        lines[name.rsplit(">", 1)[-1].strip()] = line.strip()
    return lines


def bob_solves_while_alice_waits(clients, table):
    """Alice and Bob both go to 221B; Bob, with more carriages (Alice paid 4 for Watson), is
    judged first, solves the case, and the game ends before Alice's turn."""
    act(clients["alice"], table, {"type": "take_watson"})
    act(clients["alice"], table, {"type": "baker_street"})
    act(clients["bob"], table, {"type": "baker_street"})
    visit(clients, table, "charlie", 3)
    act(clients["alice"], table, {"type": "watson_read", "location": 3})
    for user, answers in (("alice", ALICE), ("bob", RIGHT)):
        act(
            clients[user],
            table,
            {"type": "answer", "answers": {}},
            **{f"answers-{key}": value for key, value in answers.items()},
        )
    everyone_done(clients, table)
    deliver_verdicts(table)
    table.refresh_from_db()


def test_it_says_a_player_waiting_at_221b_was_not_called_because_the_case_was_solved(
    clients, started
):
    bob_solves_while_alice_waits(clients, started)
    assert started.status == TableStatus.FINISHED
    assert started.state["players"][0]["status"] == "playing"
    assert started.state["pawns"][0] == "221B"
    for viewer in ("alice", "bob", "charlie"):
        lines = end_lines(page(clients[viewer], started))
        assert lines["Bob"].startswith("solved it")
        assert lines["Alice"] == "waited at 221B; the case was solved before their turn"
        assert lines["Charlie"] == "never went to 221B"


def test_it_keeps_the_answers_of_a_player_never_called_to_themselves(clients, started):
    bob_solves_while_alice_waits(clients, started)
    # Alice's answers were never judged: the end screen says she waited, and shows
    # nothing she wrote to the others.
    for viewer in ("bob", "charlie"):
        html = page(clients[viewer], started)
        assert ALICE["thief"] not in html and "Zanzibar" not in html
    assert "Ebenezer Quibble" in started.state["answers"][0].values()  # kept, unjudged
