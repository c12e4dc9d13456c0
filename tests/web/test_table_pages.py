"""The lobby and the table pages, through the test client: permissions, live fragments,
moves, the notebook, and what each player may (never) see."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games import get_rules
from games.base import SYSTEM
from games.watson_holmes.page import CHARACTER_ACTIONS
from play import services
from play.models import Notebook, Seat, TableAttempt, TableStatus

from .helpers import act, legal, page

ALICE_CARD_1 = "The shop in St John Street ticks like a living thing"
BOB_CARD_2 = "Mr Brandt lives above a bookbinder"
SOLUTION_TEXT = "he was the thief's excuse"
RIGHT = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}
WRONG = {"thief": "Tom Quill", "hiding_place": "Smithfield Market", "ticket": "211"}


@pytest.fixture
def clients(alice, bob, charlie):
    made = {}
    for user in (alice, bob, charlie):
        made[user.username] = Client()
        made[user.username].force_login(user)
    return made


def visit(clients, table, user, location, carriages=0):
    response = act(
        clients[user], table, {"type": "visit", "location": location, "carriages": carriages}
    )
    assert response.status_code == 200
    assert 'role="alert"' not in response.text, response.text
    return response


# --- Permissions -------------------------------------------------------------------------


def test_it_sends_anonymous_visitors_to_log_in(client, started):
    for name in ("play:table", "play:table-live"):
        response = client.get(reverse(name, args=[started.pk]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))


def test_it_shows_a_non_member_nothing_of_the_game(client, started, make_user):
    client.force_login(make_user("mallory"))
    # The address offers what the invite would (watching), never the game itself.
    outsider = client.get(reverse("play:table", args=[started.pk]))
    assert outsider.templates[0].name == "play/outsider.html"
    assert 'id="live"' not in outsider.content.decode()
    assert client.get(reverse("play:table-live", args=[started.pk])).status_code == 404
    response = client.post(
        reverse("play:table-act", args=[started.pk]),
        {"action": json.dumps({"type": "carriage_stop"})},
    )
    assert response.status_code == 404
    response = client.post(reverse("play:table-notebook", args=[started.pk]), {"text": "x"})
    assert response.status_code == 404


def test_it_shows_start_to_the_host_only(clients, lobby):
    assert 'id="start-game"' in page(clients["alice"], lobby)
    bob_page = page(clients["bob"], lobby)
    assert 'id="start-game"' not in bob_page
    assert 'id="leave-table"' in bob_page
    response = clients["bob"].post(reverse("play:table-start", args=[lobby.pk]))
    assert response.status_code == 403


# --- Lobby -------------------------------------------------------------------------------


def test_it_shows_the_invite_link_seats_and_colours(clients, lobby):
    html = page(clients["alice"], lobby)
    assert reverse("play:join", args=[lobby.invite_code]) in html
    assert 'id="copy-invite"' in html
    for name in ("Alice", "Bob", "Charlie"):
        assert name in html
    assert '<span class="pawn pawn--red" aria-hidden="true">R</span>' in html
    assert "<span>Red" in html


def test_it_joins_by_invite_link_after_a_confirmation(client, tutorial, alice, bob):
    table = services.table_create(host=alice, case_version=tutorial)
    client.force_login(bob)
    url = reverse("play:join", args=[table.invite_code])
    assert "Take a seat" in client.get(url).text
    assert not Seat.objects.filter(table=table, user=bob).exists()
    response = client.post(url)
    assert response["Location"] == reverse("play:table", args=[table.pk])
    assert Seat.objects.filter(table=table, user=bob).exists()


def test_it_says_so_when_an_invite_opens_no_table(client, bob):
    client.force_login(bob)
    response = client.get(reverse("play:join", args=["nope"]))
    assert "opens no table" in response.text


def test_it_changes_colour_and_leaves(clients, lobby, bob):
    response = clients["bob"].post(
        reverse("play:table-colour", args=[lobby.pk]), {"colour": "purple"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert Seat.objects.get(table=lobby, user=bob).colour == "purple"
    taken = clients["bob"].post(
        reverse("play:table-colour", args=[lobby.pk]), {"colour": "red"}, HTTP_HX_REQUEST="true"
    )
    assert "Alice already plays red" in taken.text
    response = clients["bob"].post(reverse("play:table-leave", args=[lobby.pk]))
    assert response["Location"] == reverse("play:tables")
    assert not Seat.objects.filter(table=lobby, user=bob).exists()


def test_it_starts_the_game_and_asks_lobby_pages_to_reload(clients, lobby):
    version = lobby.version
    response = clients["alice"].post(
        reverse("play:table-start", args=[lobby.pk]), HTTP_HX_REQUEST="true"
    )
    assert response["HX-Refresh"] == "true"
    lobby.refresh_from_db()
    assert lobby.status == TableStatus.PLAYING
    live = clients["bob"].get(
        reverse("play:table-live", args=[lobby.pk]),
        {"since": version, "status": "lobby"},
        HTTP_HX_REQUEST="true",
    )
    assert live["HX-Refresh"] == "true"


# --- The live region -------------------------------------------------------------------


def test_it_answers_204_while_the_version_is_unchanged(clients, started):
    url = reverse("play:table-live", args=[started.pk])
    assert clients["bob"].get(url, {"since": started.version}).status_code == 204
    response = clients["bob"].get(url, {"since": started.version - 1})
    assert response.status_code == 200
    assert f'data-version="{started.version}"' in response.text


def test_it_offers_only_the_legal_moves(clients, started):
    alice_page = page(clients["alice"], started)
    bob_page = page(clients["bob"], started)
    assert "It is your turn" in alice_page
    assert "Take the Watson card" in alice_page
    # One form per legal visit: twelve free cards, twice if her character offers a
    # variant (Toby, Billy...), which the table's random deal decides.
    alice_moves = get_rules(started.engine).legal_actions(started.state, 0)
    visits = [action for action in alice_moves if action["type"] == "visit"]
    assert len({action["location"] for action in visits}) == 12
    assert alice_page.count('class="visit-form"') == len(visits)
    assert "It is Alice&#x27;s turn" in bob_page
    assert 'class="visit-form"' not in bob_page
    assert "Take the Watson card" not in bob_page


def test_it_shows_the_engine_sentence_for_a_refused_move(clients, started):
    response = act(clients["alice"], started, {"type": "visit", "location": 1}, carriages=40)
    assert 'role="alert"' in response.text
    assert "carriages" in response.text.split('role="alert"')[1].split("</p>")[0]


def test_it_refuses_a_move_out_of_turn_with_a_sentence(clients, started):
    response = act(clients["bob"], started, {"type": "carriage_stop"})
    assert 'role="alert"' in response.text


def test_it_outbids_with_the_minimum_offered_by_default(clients, started):
    visit(clients, started, "alice", 1, carriages=0)
    bob_page = page(clients["bob"], started)
    card = bob_page.split('id="card-1"')[1].split("</li>")[0]
    assert "Outbid" in card
    assert 'min="1"' in card and 'value="1"' in card


# --- Hidden information ------------------------------------------------------------------


def test_it_never_shows_bob_alices_card_character_or_the_answers(clients, started, alice):
    visit(clients, started, "alice", 1)
    visit(clients, started, "bob", 2)
    visit(clients, started, "charlie", 3)
    started.refresh_from_db()
    alice_page = page(clients["alice"], started)
    bob_page = page(clients["bob"], started)
    assert ALICE_CARD_1 in alice_page and BOB_CARD_2 in bob_page
    assert ALICE_CARD_1 not in bob_page
    assert BOB_CARD_2 not in alice_page
    alice_character = started.state["players"][0]["character"]
    assert CHARACTER_ACTIONS[alice_character] in alice_page
    assert CHARACTER_ACTIONS[alice_character] not in bob_page
    for html in (alice_page, bob_page):
        assert SOLUTION_TEXT not in html
        assert 'id="solution"' not in html
        assert "Proved by" not in html


def test_it_locks_the_notebook_while_irene_adler_forbids_notes(clients, started, bob):
    url = reverse("play:table-notebook", args=[started.pk])
    saved = clients["bob"].post(url, {"text": "Grey muffler"}, HTTP_ACCEPT="application/json")
    assert saved.json() == {"saved": True}
    assert Notebook.objects.get(seat__user=bob).text == "Grey muffler"
    # Irene Adler, revealed by alice, in the investigation that follows.
    for user, location in (("alice", 1), ("bob", 2), ("charlie", 3)):
        visit(clients, started, user, location)
    started.refresh_from_db()
    started.state["effects"]["irene"] = [0]
    started.save()
    refused = clients["bob"].post(url, {"text": "More"}, HTTP_ACCEPT="application/json")
    assert refused.status_code == 409
    assert "Irene Adler" in refused.json()["error"]
    html = page(clients["bob"], started)
    assert 'data-can-write-notes="false"' in html
    assert "readonly" in html.split('id="notebook-text"')[1].split(">")[0]
    assert "Grey muffler" not in page(clients["charlie"], started)


# The table page, for the host: the session and its user, the seat (with the table, its
# case and host, and the notebook), the seats held on the host's device, the seats whose
# players are away, the game's log, the unread notifications in the header and the case's
# questions (the answer sheet).
PAGE_QUERIES = 8


def test_it_keeps_the_table_page_to_a_constant_number_of_queries(
    clients, started, django_assert_num_queries
):
    with django_assert_num_queries(PAGE_QUERIES):
        page(clients["alice"], started)
    for user, location in (("alice", 1), ("bob", 2), ("charlie", 3)):
        visit(clients, started, user, location)
    with django_assert_num_queries(PAGE_QUERIES):
        page(clients["alice"], started)


# --- 221B, elimination, the Holmes card, the end ------------------------------------------


def deliver_verdicts(table) -> None:
    """What the Celery task does once the move that queued it commits."""
    for attempt in TableAttempt.objects.filter(table=table, attempt__judged_at__isnull=True):
        services.table_attempt_deliver_verdicts(table_attempt_id=attempt.pk)


def everyone_done(clients, table) -> None:
    for seat in Seat.objects.filter(table=table).select_related("user"):
        if {"type": "done_reading"} in legal(table, seat.user):
            act(clients[seat.user.username], table, {"type": "done_reading"})


def test_it_plays_to_the_end_with_elimination_rulings_and_a_debrief(clients, started, alice, bob):
    # Round 1: alice goes to 221B with wrong answers; the others read.
    act(clients["alice"], started, {"type": "baker_street"})
    visit(clients, started, "bob", 2)
    visit(clients, started, "charlie", 3)
    answers_form = page(clients["alice"], started)
    assert 'id="answers-form"' in answers_form
    act(
        clients["alice"],
        started,
        {"type": "answer", "answers": {}},
        **{f"answers-{key}": value for key, value in WRONG.items()},
    )
    everyone_done(clients, started)
    started.refresh_from_db()
    judging = page(clients["bob"], started)
    assert 'id="judging"' in judging and "Judging Alice's answers" in judging
    deliver_verdicts(started)
    started.refresh_from_db()
    alice_page = page(clients["alice"], started)
    assert "0 of 3" in alice_page or "1 of 3" in alice_page
    assert 'id="solution"' in alice_page and SOLUTION_TEXT in alice_page
    assert SOLUTION_TEXT not in page(clients["bob"], started)

    # Bob asks the Holmes card for a check; the checker is unsure; alice rules as Sherlock.
    response = act(
        clients["bob"], started, {"type": "holmes_check"}, question="thief", answer="Crane"
    )
    assert 'role="alert"' not in response.text
    started.refresh_from_db()
    request = started.state["requests"][-1]["id"]
    services.game_apply_action(
        table_id=started.pk,
        player=SYSTEM,
        action={"type": "judged", "request": request, "verdicts": {"thief": "unsure"}},
    )
    ruling_page = page(clients["alice"], started)
    assert "rule on Bob's answer check" in ruling_page
    act(clients["alice"], started, {"type": "rule", "request": request, "verdict": "correct"})
    assert "<strong>right</strong>" in page(clients["bob"], started)

    # Round 2: bob solves it.
    started.refresh_from_db()
    turn_user = {1: "bob", 2: "charlie"}
    while started.state["phase"] == "visiting":
        user = turn_user[started.state["turn"]]
        if user == "bob":
            act(clients["bob"], started, {"type": "baker_street"})
        else:
            visit(clients, started, "charlie", 9)
        started.refresh_from_db()
    act(
        clients["bob"],
        started,
        {"type": "answer", "answers": {}},
        **{f"answers-{key}": value for key, value in RIGHT.items()},
    )
    everyone_done(clients, started)
    deliver_verdicts(started)
    started.refresh_from_db()
    assert started.status == TableStatus.FINISHED
    end = page(clients["charlie"], started)
    assert 'id="end-screen"' in end
    assert "Bob solved the case and won" in end
    assert SOLUTION_TEXT in end
    debrief = end.split('id="debrief"')[1]
    assert "Proved by" in debrief
    assert "221B Baker Street" in debrief and "3 · Scotland Yard" in debrief


def test_it_lets_a_player_waiting_at_221b_confirm_or_change_after_a_failure(
    clients, started, alice, bob
):
    # Alice pays 4 carriages for Watson, so bob (more carriages) is judged before her.
    act(clients["alice"], started, {"type": "take_watson"})
    act(clients["alice"], started, {"type": "baker_street"})
    act(clients["bob"], started, {"type": "baker_street"})
    visit(clients, started, "charlie", 3)
    act(clients["alice"], started, {"type": "watson_read", "location": 3})
    for user, answers in (("alice", RIGHT), ("bob", WRONG)):
        act(
            clients[user],
            started,
            {"type": "answer", "answers": {}},
            **{f"answers-{key}": value for key, value in answers.items()},
        )
    everyone_done(clients, started)
    deliver_verdicts(started)
    started.refresh_from_db()

    alice_page = page(clients["alice"], started)
    assert "An attempt at 221B failed. Before yours, you may consult Sherlock Holmes" in alice_page
    assert 'value="Silas Crane"' in alice_page and "Confirm these answers" in alice_page
    assert "Waiting for Alice to confirm their answers." in page(clients["charlie"], started)
    assert 'value="Silas Crane"' not in page(clients["charlie"], started)  # hers alone

    act(
        clients["alice"],
        started,
        {"type": "answer", "answers": {}},
        **{f"answers-{key}": value for key, value in RIGHT.items()},
    )
    deliver_verdicts(started)
    started.refresh_from_db()
    assert started.status == TableStatus.FINISHED
    assert "Alice solved the case and won" in page(clients["charlie"], started)


# --- A page that reads like a game: the log, the board, texts that fit the moment --------


def log_of(html: str) -> str:
    return html.split('id="game-log"')[1].split("</section>")[0]


def test_it_tells_each_player_what_happened_to_them_in_a_sentence(clients, started):
    act(clients["alice"], started, {"type": "take_watson"})
    visit(clients, started, "alice", 1)
    visit(clients, started, "bob", 1, carriages=2)
    shop = "1 · Brandt&#x27;s Clock Shop"
    alice_log = log_of(page(clients["alice"], started))
    assert "You took Watson (4 carriages)." in alice_log
    assert f"Bob outbid you on {shop} with 2 carriages: choose again." in alice_log
    # Newest first: the outbid is told before alice's own visit.
    assert alice_log.index("Bob outbid you") < alice_log.index(f"You went to {shop} on foot.")
    charlie_log = log_of(page(clients["charlie"], started))
    assert "Alice took Watson (4 carriages)." in charlie_log
    assert f"Bob outbid Alice on {shop} with 2 carriages." in charlie_log
    assert "choose again" not in charlie_log
    assert f"You outbid Alice on {shop} with 2 carriages." in log_of(page(clients["bob"], started))


def test_it_folds_earlier_rounds_and_never_logs_a_private_card(clients, started):
    for user, location in (("alice", 1), ("bob", 2), ("charlie", 3)):
        visit(clients, started, user, location)
    everyone_done(clients, started)
    started.refresh_from_db()
    assert started.state["round"] == 2
    html = page(clients["alice"], started)
    log = log_of(html)
    assert '<details class="log-round" open id="log-round-2">' in log
    assert '<details class="log-round" id="log-round-1">' in log  # folded
    assert "You finished reading." in log and "Charlie went to 3 · Scotland Yard on foot." in log
    assert "Every pawn is placed: the investigation begins." in log
    for user in ("alice", "bob", "charlie"):
        log = log_of(page(clients[user], started))
        assert ALICE_CARD_1 not in log and BOB_CARD_2 not in log


def test_it_links_each_card_reference_to_its_card_on_the_board(clients, started):
    html = page(clients["alice"], started)
    references = set(re.findall(r'href="#location-(\d+)"', html))
    assert references, "the case's special rules name Smithfield [[6]]"
    for number in references:
        assert f'id="location-{number}"' in html
        card = html.split(f'id="card-{number}"')[1].split("</li>")[0]
        assert f'id="location-{number}"' in card


def test_it_says_your_turn_in_your_own_box_and_where_nobody_is_yet(clients, started):
    html = page(clients["alice"], started)
    own_box = html.split('id="player-0"')[1].split('id="player-1"')[0]
    assert "Your turn" in own_box and "Their turn" not in own_box
    assert "Not placed yet." in own_box
    assert "At not placed" not in html
    assert "Their turn" in page(clients["bob"], started).split('id="player-0"')[1]
    # Tokens as counters, with their words for screen readers.
    assert 'aria-label="Alice&#x27;s tokens"' in own_box
    assert 'class="counter-value">1</span><span class="counter-word"> police' in own_box


def test_it_asks_a_player_at_221b_for_answers_not_for_a_card(clients, started):
    act(clients["alice"], started, {"type": "baker_street"})
    visit(clients, started, "bob", 2)
    visit(clients, started, "charlie", 3)
    status = page(clients["alice"], started).split('id="status-turn"')[1].split("</p>")[0]
    assert "write your answers" in status
    assert "Read your card" not in status
    assert "Read your card" in page(clients["bob"], started)


def test_it_tells_the_end_once_and_drops_texts_that_no_longer_apply(clients, started):
    act(clients["alice"], started, {"type": "baker_street"})
    visit(clients, started, "bob", 2)
    visit(clients, started, "charlie", 3)
    act(
        clients["alice"],
        started,
        {"type": "answer", "answers": {}},
        **{f"answers-{key}": value for key, value in RIGHT.items()},
    )
    everyone_done(clients, started)
    deliver_verdicts(started)
    started.refresh_from_db()
    assert started.status == TableStatus.FINISHED
    for user in ("bob", "charlie"):
        html = page(clients[user], started)
        shown = re.sub(r'data-announce="[^"]*"', "", html)  # what screen readers hear
        # Once on the end screen; "since your last move" and the log's last line tell
        # the same event in the same sentence.
        end = shown.split('id="end-screen"')[1].split("</section>")[0]
        assert end.count("Alice solved the case and won in 1 round.") == 1
        since = shown.split('id="since-last-move"')[1].split("</section>")[0]
        log = shown.split('id="game-log"')[1]
        assert "<li>Alice solved the case and won in 1 round.</li>" in since
        assert log.count("Alice solved the case and won in 1 round.") == 1
        assert shown.count("Alice solved the case and won in 1 round.") == 3
        assert "The game is over." in html.split('id="status-turn"')[1].split("</p>")[0]
        assert "On your turn, before placing" not in html
        assert "Hidden from the others" not in html
        assert 'data-status="finished"' in html  # the stylesheet hides "Live" then
    assert "You solved the case and won in 1 round." in page(clients["alice"], started)


def test_it_names_the_site_icon_on_every_page(client, db):
    html = client.get(reverse("play:home")).text
    assert '<link rel="icon" href="/static/holmes/favicon.svg" type="image/svg+xml">' in html
    assert finders.find("holmes/favicon.svg")
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/static/holmes/favicon.svg"
