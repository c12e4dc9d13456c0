"""Shared fixtures: the same fixed people everywhere (alice, bob, charlie...)."""

import gc
import os

import pytest
from django.utils import timezone

REQUIRE_SERVICES = os.environ.get("HOLMES_REQUIRE_SERVICES") == "1"


def require_service(name: str, problem: str | None) -> None:
    """Skip a test whose service is absent, or fail when services are required (CI)."""
    if problem is None:
        return
    message = f"{name} is not available: {problem}"
    if REQUIRE_SERVICES:
        pytest.fail(f"{message} (HOLMES_REQUIRE_SERVICES=1)")
    pytest.skip(message)


def pytest_report_header(config):
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return f"holmes: database={engine} require_services={REQUIRE_SERVICES}"


@pytest.fixture(autouse=True)
def collections_as_in_any_program():
    """Takes out the worker's collection policy and log wherever importing the ASGI module
    put them (holmes_site/gc_watch.py): the test process is not a worker. Its tests leave
    cycles behind that a frozen generation would keep for minutes, then free in one long
    pause in the middle of some test's wait (1.1 s for 440,000 objects, in CI); and the
    log, written from whichever thread collects, outlived pytest's captured streams."""
    from holmes_site.gc_watch import _after_full_collection, _on_collection

    for callback in (_after_full_collection, _on_collection):
        if callback in gc.callbacks:
            gc.callbacks.remove(callback)


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, **fields):
        # Their addresses are confirmed, as after the e-mailed link (notifications go by
        # e-mail only to a confirmed one); pass email_verified_at=None for one that is not.
        fields.setdefault("email_verified_at", timezone.now())
        return django_user_model.objects.create_user(
            username=username,
            password=f"{username}-password",
            email=f"{username}@example.com",
            **fields,
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice", display_name="Alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob", display_name="Bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie", display_name="Charlie")
