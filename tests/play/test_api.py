"""Whole games through the HTTP API, and the API's answers to stale, retried and illegal
moves."""

import random

import pytest

from play import models as play_models
from play.models import Notebook, Table, TableAttempt, TableEvent, TableStatus
from tests.play.helpers import (
    TOKEN_TOTALS,
    ApiGame,
    ApiPlayer,
    Strategy,
    open_table,
    someone_was_eliminated,
    table_url,
    token_totals,
)

TUTORIAL_SLUG = "the-clerkenwell-repeater"
RIGHT_ANSWERS = {"thief": "Silas Crane", "hiding_place": "St James's Church", "ticket": "212"}


def play_whole_game(users, seed, after_commit) -> tuple[int, list[ApiPlayer], ApiGame, dict]:
    players = [ApiPlayer(user) for user in users]
    table_id = open_table(players, TUTORIAL_SLUG, seed=seed)
    # The first players at 221B guess and are eliminated; once someone has been, the
    # next ones have worked it out.
    strategy = Strategy(random.Random(seed), RIGHT_ANSWERS, someone_was_eliminated)
    game = ApiGame(table_id, players, strategy, after_commit, notebook_rate=0.02)
    final = game.play()
    return table_id, players, game, final


def assert_sensible_end(table_id, players, final):
    from play.models import Table

    table = Table.objects.get(pk=table_id)
    assert table.status == TableStatus.FINISHED and table.finished_at is not None
    assert token_totals(table.state) == TOKEN_TOTALS
    result = final["game"]["result"]
    assert result["kind"] in ("solved", "everyone_lost")
    statuses = [player["status"] for player in final["game"]["players"]]
    attempts = {a.seat.number: a.attempt for a in TableAttempt.objects.filter(table=table)}
    for seat in result["winners"]:
        assert statuses[seat] == "won"
        assert attempts[seat].correct_count == len(RIGHT_ANSWERS)
    for seat, status in enumerate(statuses):
        if status == "eliminated":
            assert attempts[seat].correct_count < len(RIGHT_ANSWERS)
            assert final["game"]["players"][seat]["correct"] == attempts[seat].correct_count
    if result["kind"] == "everyone_lost":
        assert set(statuses) == {"eliminated"}
    for player in players:
        view = player.view(table_id)
        assert view["status"] == "finished"
        assert view["game"]["legal_actions"] == []
        assert view["solution"]["answers"][0]["answer"] == "Silas Crane"
    types = list(TableEvent.objects.filter(table=table).values_list("type", flat=True))
    assert types[0] == "table_started" and types[-1] == "game_over"
    return result


def test_it_plays_a_whole_three_player_game_through_the_api(
    tutorial, alice, bob, charlie, django_capture_on_commit_callbacks
):
    table_id, players, game, final = play_whole_game(
        [alice, bob, charlie], 3, django_capture_on_commit_callbacks
    )
    result = assert_sensible_end(table_id, players, final)
    assert result["kind"] == "solved"
    assert len(game.moves) > 20
    assert {move.action["type"] for move in game.moves} >= {"visit", "done_reading", "answer"}
    # The process's one copy of the case, which every move and view shared, is as stored.
    digest, stored = Table.objects.values_list("fixed_digest", "fixed_state").get(pk=table_id)
    assert play_models._fixed_parts[digest] == stored


def test_it_plays_a_whole_seven_player_game_through_the_api(
    tutorial, seven, django_capture_on_commit_callbacks
):
    table_id, players, game, final = play_whole_game(seven, 7, django_capture_on_commit_callbacks)
    result = assert_sensible_end(table_id, players, final)
    assert result["kind"] == "solved"
    assert len(final["seats"]) == 7
    assert Notebook.objects.filter(seat__table_id=table_id).count() == 7


# --- Stale, retried and illegal moves -------------------------------------------------------


@pytest.fixture
def table_players(started, alice, bob, charlie):
    return [ApiPlayer(user, seat) for seat, user in enumerate([alice, bob, charlie])]


def on_turn(table_players, table_id) -> tuple[ApiPlayer, dict]:
    view = table_players[0].view(table_id)
    player = table_players[view["game"]["turn"]]
    return player, player.view(table_id)


def test_it_answers_409_with_the_current_version_to_a_stale_move(started, table_players):
    player, view = on_turn(table_players, started.pk)
    moved = player.act(started.pk, {"type": "take_watson"}, view["version"])
    assert moved.status_code == 200
    current = moved.json()["version"]
    events_before = TableEvent.objects.filter(table=started).count()

    stale = player.act(started.pk, {"type": "carriage_stop"}, view["version"], key="stale-1")

    assert stale.status_code == 409
    assert stale.json() == {
        "error": {
            "code": "stale_version",
            "message": stale.json()["error"]["message"],
            "details": {"version": current},
        }
    }
    assert str(current) in stale.json()["error"]["message"]
    started.refresh_from_db()
    assert started.version == current
    assert TableEvent.objects.filter(table=started).count() == events_before
    assert started.action_requests.filter(key__endswith="stale-1").count() == 0


def test_it_returns_the_first_result_to_a_retried_post_without_acting_twice(started, table_players):
    player, view = on_turn(table_players, started.pk)
    body = {"type": "carriage_stop"}
    first = player.act(started.pk, body, view["version"], key="retry-7f3a")
    events_after_first = TableEvent.objects.filter(table=started).count()

    again = player.act(started.pk, body, view["version"], key="retry-7f3a")

    assert first.status_code == again.status_code == 200
    assert again.json()["replayed"] is True
    assert first.json()["replayed"] is False
    assert again.json()["version"] == first.json()["version"] == view["version"] + 1
    started.refresh_from_db()
    assert started.version == view["version"] + 1
    assert TableEvent.objects.filter(table=started).count() == events_after_first


def test_it_takes_the_idempotency_key_from_the_header_too(started, table_players):
    player, view = on_turn(table_players, started.pk)
    url = table_url(started.pk, "actions/")
    body = {"action": {"type": "carriage_stop"}, "expected_version": view["version"]}
    first = player.post(url, body, **{"Idempotency-Key": "header-key"})
    again = player.post(url, body, **{"Idempotency-Key": "header-key"})
    assert first.status_code == again.status_code == 200
    assert again.json()["replayed"] is True
    started.refresh_from_db()
    assert started.version == view["version"] + 1


def test_it_replays_a_refusal_to_a_retried_illegal_move(started, table_players):
    player, view = on_turn(table_players, started.pk)
    illegal = {"type": "visit", "location": 1, "carriages": 99}
    first = player.act(started.pk, illegal, view["version"], key="greedy")
    again = player.act(started.pk, illegal, view["version"], key="greedy")
    assert first.status_code == again.status_code == 400
    assert first.json() == again.json()
    started.refresh_from_db()
    assert started.version == view["version"]


def test_it_refuses_an_illegal_move_with_the_engines_code_and_sentence(started, table_players):
    player, view = on_turn(table_players, started.pk)
    held = view["game"]["players"][player.seat]["carriages"]

    refused = player.act(
        started.pk, {"type": "visit", "location": 1, "carriages": 99}, view["version"]
    )

    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "not_enough_carriages"
    assert str(held) in error["message"] and error["message"].endswith(".")
    assert error["details"] == {}
    started.refresh_from_db()
    assert started.version == view["version"]


def test_it_refuses_a_move_out_of_turn(started, table_players):
    player, view = on_turn(table_players, started.pk)
    other = table_players[(player.seat + 1) % 3]
    refused = other.act(started.pk, {"type": "carriage_stop"}, view["version"])
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "not_your_turn"
    assert refused.json()["error"]["message"]


def test_it_refuses_a_malformed_move_in_the_one_error_shape(started, table_players):
    player, view = on_turn(table_players, started.pk)
    url = table_url(started.pk, "actions/")
    missing = player.post(url, {"action": {"type": "carriage_stop"}})
    assert missing.status_code == 400
    assert missing.json()["error"]["code"] == "invalid"
    assert "expected_version" in missing.json()["error"]["details"]["fields"]
    unknown = player.act(started.pk, {"type": "fly_to_paris"}, view["version"])
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "unknown_action"


def test_it_answers_304_while_the_table_has_not_moved(started, table_players):
    view = table_players[0].view(started.pk)
    unchanged = table_players[0].get(
        table_url(started.pk), **{"If-None-Match": f'"{view["version"]}"'}
    )
    assert unchanged.status_code == 304
    assert unchanged["ETag"] == f'"{view["version"]}"'
    stale = table_players[0].get(table_url(started.pk), **{"If-None-Match": '"0"'})
    assert stale.status_code == 200


def test_it_lists_my_tables(started, table_players, tutorial):
    response = table_players[1].get("/api/tables/")
    assert response.status_code == 200
    assert [table["id"] for table in response.json()] == [started.pk]
    assert response.json()[0]["case"] == TUTORIAL_SLUG
