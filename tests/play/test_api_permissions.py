"""Who may do what at a table, endpoint by endpoint: anonymous visitors, a player of
another table, a spectator and a seated player. Every refusal comes in the one error
shape {"error": {"code", "message", "details"}}."""

import pytest
from rest_framework.test import APIClient

from play import services
from play.models import Seat, Spectator, TableStatus
from tests.play.helpers import ApiPlayer, table_url

# (method, path under /api/tables/<id>/, body)
TABLE_ENDPOINTS = [
    ("get", "", None),
    ("post", "leave/", None),
    ("post", "start/", None),
    ("post", "colour/", {"colour": "grey"}),
    ("post", "actions/", {"action": {"type": "carriage_stop"}, "expected_version": 1}),
    ("get", "events/", None),
    ("get", "notebook/", None),
    ("put", "notebook/", {"text": "mine"}),
]
OTHER_ENDPOINTS = [
    ("get", "/api/tables/", None),
    ("post", "/api/tables/", {"case": "the-clerkenwell-repeater"}),
    ("post", "/api/tables/join/", {"invite_code": "whatever"}),
    ("get", "/api/notifications/", None),
    ("post", "/api/notifications/read/", {}),
]


def call(client, method, url, body):
    if method == "get":
        return client.get(url)
    return getattr(client, method)(url, body or {}, format="json")


def assert_error_shape(response, code: str | None = None) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert set(error) == {"code", "message", "details"}, error
    assert isinstance(error["message"], str) and error["message"]
    if code:
        assert error["code"] == code, error
    return error


@pytest.fixture
def dave_elsewhere(tutorial, dave, erin):
    """Dave hosts another table (with erin), so he is a player, just not at this one."""
    table = services.table_create(host=dave, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=erin)
    return ApiPlayer(dave)


@pytest.fixture
def watching_frank(started, frank):
    Spectator.objects.create(table=started, user=frank)
    return ApiPlayer(frank)


@pytest.mark.parametrize(("method", "suffix", "body"), TABLE_ENDPOINTS)
def test_it_turns_away_anonymous_visitors_from_every_table_endpoint(started, method, suffix, body):
    response = call(APIClient(), method, table_url(started.pk, suffix), body)
    assert response.status_code in (401, 403)
    assert_error_shape(response, "not_authenticated")


@pytest.mark.parametrize(("method", "url", "body"), OTHER_ENDPOINTS)
def test_it_turns_away_anonymous_visitors_from_tables_and_notifications(
    tutorial, method, url, body
):
    response = call(APIClient(), method, url, body)
    assert response.status_code in (401, 403)
    assert_error_shape(response, "not_authenticated")


@pytest.mark.parametrize(("method", "suffix", "body"), TABLE_ENDPOINTS)
def test_it_answers_404_to_a_player_of_another_table(started, dave_elsewhere, method, suffix, body):
    version = started.version
    response = call(dave_elsewhere.client, method, table_url(started.pk, suffix), body)
    assert response.status_code == 404
    assert_error_shape(response, "not_found")
    started.refresh_from_db()
    assert started.version == version
    assert not Seat.objects.filter(table=started, user=dave_elsewhere.user).exists()


def test_it_answers_404_for_a_table_that_does_not_exist(started, alice):
    response = ApiPlayer(alice).get(table_url(started.pk + 1000))
    assert response.status_code == 404
    assert_error_shape(response, "not_found")


def test_it_shows_a_spectator_the_table_and_its_history(started, watching_frank):
    view = watching_frank.get(table_url(started.pk))
    assert view.status_code == 200
    assert view.json()["you"] == {"seat": None, "spectator": True}
    assert view.json()["game"]["you"] is None
    assert "legal_actions" not in view.json()["game"]
    assert view.json()["notebook"] is None
    assert "invite_code" not in view.json()
    events = watching_frank.get(table_url(started.pk, "events/"))
    assert events.status_code == 200
    assert [event["type"] for event in events.json()] == ["table_started"]


def test_it_lets_a_spectator_neither_act_nor_keep_a_notebook(started, watching_frank):
    version = started.version
    acted = watching_frank.act(started.pk, {"type": "carriage_stop"}, version)
    assert acted.status_code == 403
    assert_error_shape(acted, "not_a_player")
    read = watching_frank.get(table_url(started.pk, "notebook/"))
    assert read.status_code == 403
    assert_error_shape(read, "not_a_player")
    written = watching_frank.put(table_url(started.pk, "notebook/"), {"text": "spy"})
    assert written.status_code == 403
    assert_error_shape(written, "not_a_player")
    started.refresh_from_db()
    assert started.version == version


def test_it_lets_a_spectator_neither_start_nor_choose_a_colour(lobby, frank):
    Spectator.objects.create(table=lobby, user=frank)
    spectator = ApiPlayer(frank)
    started = spectator.post(table_url(lobby.pk, "start/"))
    assert started.status_code == 403
    assert_error_shape(started, "permission_denied")
    coloured = spectator.post(table_url(lobby.pk, "colour/"), {"colour": "grey"})
    assert coloured.status_code == 403
    assert_error_shape(coloured, "permission_denied")
    lobby.refresh_from_db()
    assert lobby.status == TableStatus.LOBBY


def test_it_lets_a_seated_player_use_every_endpoint(started, bob):
    bob_api = ApiPlayer(bob, 1)
    view = bob_api.get(table_url(started.pk))
    assert view.status_code == 200 and view.json()["you"] == {"seat": 1, "spectator": False}
    assert view.json()["invite_code"] == started.invite_code
    assert bob_api.get(table_url(started.pk, "events/")).status_code == 200
    saved = bob_api.put(table_url(started.pk, "notebook/"), {"text": "Crane's muffler"})
    assert saved.status_code == 200 and saved.json() == {"text": "Crane's muffler", "marks": {}}
    assert bob_api.get(table_url(started.pk, "notebook/")).json() == {
        "text": "Crane's muffler",
        "marks": {},
    }
    assert bob_api.get(table_url(started.pk)).json()["notebook"] == "Crane's muffler"
    # Bob may act for his own seat: out of turn, the rules (not the permissions) refuse.
    acted = bob_api.act(started.pk, {"type": "carriage_stop"}, view.json()["version"])
    if view.json()["game"]["turn"] == 1:
        assert acted.status_code == 200, acted.content
    else:
        assert acted.status_code == 400 and acted.json()["error"]["code"] == "not_your_turn"


def test_it_lets_only_the_host_start(lobby, alice, bob):
    refused = ApiPlayer(bob).post(table_url(lobby.pk, "start/"))
    assert refused.status_code == 403
    assert_error_shape(refused, "permission_denied")
    lobby.refresh_from_db()
    assert lobby.status == TableStatus.LOBBY
    accepted = ApiPlayer(alice).post(table_url(lobby.pk, "start/"))
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "playing"
    again = ApiPlayer(alice).post(table_url(lobby.pk, "start/"))
    assert again.status_code == 400
    assert_error_shape(again, "table_started")


def test_it_needs_the_invite_code_to_join(lobby, dave):
    dave_api = ApiPlayer(dave)
    assert dave_api.get(table_url(lobby.pk)).status_code == 404
    wrong = dave_api.post("/api/tables/join/", {"invite_code": lobby.invite_code + "x"})
    assert wrong.status_code == 400
    assert_error_shape(wrong, "bad_invite")
    missing = dave_api.post("/api/tables/join/", {})
    assert missing.status_code == 400
    assert_error_shape(missing, "invalid")
    assert not Seat.objects.filter(table=lobby, user=dave).exists()
    joined = dave_api.post("/api/tables/join/", {"invite_code": lobby.invite_code})
    assert joined.status_code == 200
    assert joined.json()["you"]["seat"] == 3
    assert dave_api.get(table_url(lobby.pk)).status_code == 200


def test_it_throttles_guessing_invite_codes(lobby, dave, settings):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["join"]
    allowed = int(rate.split("/")[0])
    dave_api = ApiPlayer(dave)
    guesses = [
        dave_api.post("/api/tables/join/", {"invite_code": f"guess-{n}"}) for n in range(allowed)
    ]
    assert {guess.status_code for guess in guesses} == {400}
    throttled = dave_api.post("/api/tables/join/", {"invite_code": lobby.invite_code})
    assert throttled.status_code == 429
    assert_error_shape(throttled, "throttled")
    assert not Seat.objects.filter(table=lobby, user=dave).exists()


def test_it_refuses_to_join_a_table_that_has_started(started, dave):
    refused = ApiPlayer(dave).post("/api/tables/join/", {"invite_code": started.invite_code})
    assert refused.status_code == 400
    assert_error_shape(refused, "table_started")


def test_it_lets_a_player_leave_the_lobby_but_not_the_host(lobby, alice, bob):
    assert ApiPlayer(bob).post(table_url(lobby.pk, "leave/")).status_code == 204
    assert not Seat.objects.filter(table=lobby, user=bob).exists()
    host = ApiPlayer(alice).post(table_url(lobby.pk, "leave/"))
    assert host.status_code == 400
    assert_error_shape(host, "host_cannot_leave")


def test_it_accepts_an_api_token_instead_of_a_session(started, bob):
    token = APIClient().post(
        "/api/auth/token/", {"username": "bob", "password": "bob-password"}, format="json"
    )
    assert token.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert client.get(table_url(started.pk)).json()["you"]["seat"] == 1
    wrong = APIClient().post(
        "/api/auth/token/", {"username": "bob", "password": "nope"}, format="json"
    )
    assert wrong.status_code == 400
    assert_error_shape(wrong, "bad_credentials")
