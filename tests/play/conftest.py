"""Tables on the tutorial sample case, with alice hosting and bob and charlie joining; and
dave, erin, frank and grace for seven-player tables."""

from pathlib import Path

import pytest

from cases.package.reader import read_package_path
from cases.services import case_import_package
from play import services
from play.models import Table

TUTORIAL = Path(__file__).resolve().parents[2] / "fixtures" / "cases" / "the-clerkenwell-repeater"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    # Seven users per test at the default hasher's cost would take most of the run.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_throttles():
    # Throttle counts live in the cache, keyed by user id; ids come back after each
    # test's rollback, so one test's joins must not count against the next.
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def tutorial(db):
    return case_import_package(files=read_package_path(TUTORIAL), publish=True).version


@pytest.fixture
def lobby(tutorial, alice, bob, charlie):
    table = services.table_create(host=alice, case_version=tutorial)
    # A fixed deal: tables draw a random seed, and the characters it deals change which
    # moves are offered; tests should see the same game on every run.
    Table.objects.filter(pk=table.pk).update(seed=1889)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_join(invite_code=table.invite_code, user=charlie)
    table.refresh_from_db()
    return table


@pytest.fixture
def started(lobby, alice):
    return services.table_start(table_id=lobby.pk, user=alice)


@pytest.fixture
def dave(make_user):
    return make_user("dave", display_name="Dave")


@pytest.fixture
def erin(make_user):
    return make_user("erin", display_name="Erin")


@pytest.fixture
def frank(make_user):
    return make_user("frank", display_name="Frank")


@pytest.fixture
def grace(make_user):
    return make_user("grace", display_name="Grace")


@pytest.fixture
def seven(alice, bob, charlie, dave, erin, frank, grace):
    """Seven people, in seat order."""
    return [alice, bob, charlie, dave, erin, frank, grace]


@pytest.fixture
def roomy_channel_layer(settings):
    # Keep every push of a whole game for the test to read at the end.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 100_000, "expiry": 3600},
        }
    }
