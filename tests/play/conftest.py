"""Tables on the tutorial sample case, with alice hosting and bob and charlie joining."""

from pathlib import Path

import pytest

from cases.package.reader import read_package_path
from cases.services import case_import_package
from play import services

TUTORIAL = Path(__file__).resolve().parents[2] / "fixtures" / "cases" / "the-clerkenwell-repeater"


@pytest.fixture
def tutorial(db):
    return case_import_package(files=read_package_path(TUTORIAL), publish=True).version


@pytest.fixture
def lobby(tutorial, alice, bob, charlie):
    table = services.table_create(host=alice, case_version=tutorial)
    services.table_join(invite_code=table.invite_code, user=bob)
    services.table_join(invite_code=table.invite_code, user=charlie)
    table.refresh_from_db()
    return table


@pytest.fixture
def started(lobby, alice):
    return services.table_start(table_id=lobby.pk, user=alice)
