"""The editor and the review workflow, with the same people everywhere: alice and bob
write cases, mina moderates, charlie only plays, and root is the superuser."""

from pathlib import Path

import pytest

from authoring import services
from cases.models import VersionStatus
from cases.package.reader import read_package_path
from cases.services import case_import_package

TUTORIAL = Path(__file__).resolve().parents[2] / "fixtures" / "cases" / "the-clerkenwell-repeater"


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    # Six users per test: the real hasher's deliberate slowness would dominate the run.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(alice):
    services.user_make_author(user=alice)
    return alice


@pytest.fixture
def bob(bob):
    services.user_make_author(user=bob)
    return bob


@pytest.fixture
def mina(make_user):
    user = make_user("mina", display_name="Mina")
    services.user_make_moderator(user=user)
    return user


@pytest.fixture
def root(make_user):
    return make_user("root", is_staff=True, is_superuser=True)


@pytest.fixture
def draft(alice):
    """alice's tutorial case, imported as a draft: lint-clean, never submitted."""
    return case_import_package(files=read_package_path(TUTORIAL), author=alice).version


@pytest.fixture
def submitted(draft, alice):
    services.case_submit(version=draft, user=alice)
    draft.refresh_from_db()
    return draft


@pytest.fixture
def in_review(submitted, mina):
    services.case_claim(version=submitted, user=mina)
    submitted.refresh_from_db()
    return submitted


@pytest.fixture
def published(in_review, mina):
    services.case_reveal(version=in_review, user=mina)  # a case is approved once read whole
    services.case_approve(version=in_review, user=mina)
    in_review.refresh_from_db()
    assert in_review.status == VersionStatus.PUBLISHED
    return in_review


def change_form_data(response) -> dict:
    """The POST data of an admin change form as it was drawn (what "Save" would send)."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms.append(inline.formset.management_form)
        forms.extend(inline.formset.forms)
    data = {}
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is None or value is False:
                continue
            data[form[name].html_name] = "on" if value is True else value
    return data
