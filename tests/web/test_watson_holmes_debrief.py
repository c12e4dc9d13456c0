"""Verdicts that explain themselves, on the table page and in the API: the restatement
Sherlock asks for, an eliminated player's own verdicts with reasons, and at the end every
attempt at 221B. Nothing of a player's answers or verdicts reaches the others before the
end."""

import pytest
from django.test import Client

from play.models import TableStatus

from .helpers import act, page
from .test_table_pages import RIGHT, deliver_verdicts, everyone_done, visit

HEDGED = {**RIGHT, "ticket": "nearly 212"}  # a hedged number: the checker is unsure


@pytest.fixture
def clients(alice, bob, charlie):
    made = {}
    for user in (alice, bob, charlie):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


def api_game(client, table) -> dict:
    response = client.get(f"/api/tables/{table.pk}/")
    assert response.status_code == 200
    return response.json()["game"]


def form_answers(answers: dict) -> dict:
    return {f"answers-{key}": value for key, value in answers.items()}


def alice_answers_at_221b(clients, table, answers):
    act(clients["alice"], table, {"type": "baker_street"})
    visit(clients, table, "bob", 2)
    visit(clients, table, "charlie", 3)
    act(clients["alice"], table, {"type": "answer", "answers": {}}, **form_answers(answers))
    everyone_done(clients, table)
    deliver_verdicts(table)
    table.refresh_from_db()


def test_it_asks_alice_to_restate_and_tells_nobody_else_what(clients, started):
    alice_answers_at_221b(clients, started, HEDGED)
    alice = page(clients["alice"], started)
    assert 'id="restate-form"' in alice
    assert "Sherlock is not sure what you mean by your answer to question 3" in alice
    assert 'name="answers-ticket"' in alice.split('id="restate-form"')[1]
    # Only the asked question is in the form: the other answers are not reopened.
    assert 'name="answers-thief"' not in alice.split('id="restate-form"')[1].split("</form>")[0]
    for other in ("bob", "charlie"):
        html = page(clients[other], started)
        assert 'id="restate-form"' not in html and "nearly 212" not in html
        assert "Sherlock has asked Alice to say an answer more plainly" in html
        game = api_game(clients[other], started)
        assert game["you"]["restatement"] is None and "nearly 212" not in str(game)
    assert api_game(clients["alice"], started)["you"]["restatement"]["questions"][0]["id"] == (
        "ticket"
    )


def test_it_shows_the_eliminated_player_why_and_everyone_every_attempt_at_the_end(clients, started):
    alice_answers_at_221b(clients, started, HEDGED)
    response = act(
        clients["alice"],
        started,
        {"type": "restate", "answers": {}},
        **form_answers({"ticket": "211"}),
    )
    assert 'role="alert"' not in response.text, response.text
    deliver_verdicts(started)
    started.refresh_from_db()
    assert started.state["players"][0]["status"] == "eliminated"

    # Alice sees each verdict with the checker's reason, on the page and in the API.
    alice = page(clients["alice"], started)
    verdicts = alice.split('id="your-verdicts"')[1].split("</section>")[0]
    assert verdicts.count("Right</strong>") == 2 and verdicts.count("Wrong</strong>") == 1
    assert "first written “nearly 212”" in verdicts
    attempt = api_game(clients["alice"], started)["you"]["attempt"]
    assert attempt["verdicts"]["ticket"] == "wrong" and attempt["reasons"]["ticket"]
    assert attempt["reasons"]["ticket"] in verdicts
    # Bob and Charlie learn how many she got right, nothing of what or why.
    for other in ("bob", "charlie"):
        html = page(clients[other], started)
        assert 'id="your-verdicts"' not in html and 'id="attempts"' not in html
        # (The answer as a page would quote it: a bare "211" may turn up inside a token.)
        assert "“211”" not in html and attempt["reasons"]["ticket"] not in html
        game = api_game(clients[other], started)
        assert game["attempts"] is None and "nearly 212" not in str(game)

    # Round 2: bob solves it; at the end everyone sees every attempt, with reasons.
    turn_user = {1: "bob", 2: "charlie"}
    while started.state["phase"] == "visiting":
        user = turn_user[started.state["turn"]]
        if user == "bob":
            act(clients["bob"], started, {"type": "baker_street"})
        else:
            visit(clients, started, "charlie", 9)
        started.refresh_from_db()
    act(clients["bob"], started, {"type": "answer", "answers": {}}, **form_answers(RIGHT))
    everyone_done(clients, started)
    deliver_verdicts(started)
    started.refresh_from_db()
    assert started.status == TableStatus.FINISHED
    end = page(clients["charlie"], started)
    attempts = end.split('id="attempts"')[1].split("</section>")[0]
    assert "Alice: 2 of 3 right" in attempts and "Bob: 3 of 3 right, solved" in attempts
    assert "“211”" in attempts and attempt["reasons"]["ticket"] in attempts
    debrief = api_game(clients["charlie"], started)["attempts"]
    assert {entry["name"] for entry in debrief} == {"Alice", "Bob"}
    alice_ticket = next(
        answer
        for entry in debrief
        if entry["seat"] == 0
        for answer in entry["answers"]
        if answer["id"] == "ticket"
    )
    assert alice_ticket == {
        "id": "ticket",
        "ask": alice_ticket["ask"],
        "answer": "211",
        "verdict": "wrong",
        "reason": attempt["reasons"]["ticket"],
        "first_answer": "nearly 212",
    }
