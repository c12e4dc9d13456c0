"""A group around one real table (issue 24), in Chromium: the lobby's QR code is scanned
back from a screenshot, and the introduction and the card read to all are read aloud by
the browser's own speech synthesis.

Headless Chromium has no voices: an utterance it is given fails at once. So the tests
wrap `speechSynthesis.speak` with a recorder that keeps the utterance, as a device still
speaking it would (pause, resume and cancel are recorded and then done by the real
synthesis); the page's own script runs untouched.
"""

import io
import re

import pytest

pytest.importorskip("playwright")
zxingcpp = pytest.importorskip("zxingcpp")

from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

from play import services  # noqa: E402
from play.models import Table  # noqa: E402
from tests.e2e.pages import log_in  # noqa: E402
from tests.web.helpers import act  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
# What the page says to the speech synthesis, and when it pauses or resumes.
RECORD_SPEECH = """
window.__speech = [];
if (window.speechSynthesis) {
  const synth = window.speechSynthesis;
  for (const name of ["speak", "pause", "resume", "cancel"]) {
    const real = synth[name].bind(synth);
    synth[name] = (utterance) => {
      window.__speech.push(name === "speak" ? "speak:" + utterance.text : name);
      if (name !== "speak") return real();
    };
  }
}
"""
NO_SPEECH = "delete window.speechSynthesis; delete window.SpeechSynthesisUtterance;"


def open_page(browser, base_url: str, viewport: dict, *, script: str = RECORD_SPEECH) -> Page:
    context = browser.new_context(viewport=viewport, base_url=base_url)
    context.add_init_script(script)
    page = context.new_page()
    page.csp_errors = []
    page.on(
        "console",
        lambda message: (
            "Content Security Policy" in message.text and page.csp_errors.append(message.text)
        ),
    )
    return page


def spoken(page: Page) -> list[str]:
    return page.evaluate("window.__speech")


def scanned(png: bytes) -> list[str]:
    return [code.text for code in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture
def lobby(tutorial, alice, bob, charlie):
    """alice's table of the tutorial case, bob and charlie seated (a fixed deal)."""
    table = services.table_create(host=alice, case_version=tutorial)
    Table.objects.filter(pk=table.pk).update(seed=1889)
    for friend in (bob, charlie):
        services.table_join(invite_code=table.invite_code, user=friend)
    table.refresh_from_db()
    return table


# --- Invite by scanning -------------------------------------------------------------------


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280", "360"])
def test_the_lobby_qr_code_scans_to_the_invite_link(
    lobby, alice, live_server_url, chromium, artifacts, viewport
):
    page = open_page(chromium, live_server_url, viewport)
    log_in(page, "alice")
    page.goto(reverse("play:table", args=[lobby.pk]))
    figure = page.locator("#invite-qr")
    expect(figure).to_be_visible()
    expect(page.locator("#invite-code")).to_have_text(lobby.invite_code_shown)
    invite = page.locator("#invite-link").input_value()
    assert invite == f"{live_server_url}/join/{lobby.invite_code}/"

    # Large enough to scan across a table, and whole on a phone.
    qr = page.locator("#invite-qr svg").bounding_box()
    assert qr["width"] >= (250 if viewport is WIDE else 240)
    assert qr["width"] == pytest.approx(qr["height"], abs=1)
    assert no_horizontal_scroll(page)
    assert scanned(page.locator("#invite-qr svg").screenshot()) == [invite]
    assert page.csp_errors == []

    width = viewport["width"]
    figure.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / f"lobby-qr-{width}.png")
    # The whole screen as a phone held up to another would see it: the code still reads.
    assert scanned(page.screenshot()) == [invite]


# --- Read aloud ----------------------------------------------------------------------------


def test_the_case_page_reads_the_introduction_aloud_with_play_and_pause(
    tutorial, live_server_url, chromium, artifacts
):
    page = open_page(chromium, live_server_url, WIDE)
    page.goto(reverse("play:case", args=[tutorial.case.slug]))
    button = page.locator("button.read-aloud")
    expect(button).to_have_count(1)
    expect(button).to_have_text("Read the introduction aloud")
    page.screenshot(path=artifacts / "read-aloud-case-1280.png")

    button.click()
    said = [entry for entry in spoken(page) if entry.startswith("speak:")]
    first_paragraph = tutorial.introduction.strip().split("\n")[0].strip()
    assert said and said[0] == "speak:" + _plain(first_paragraph)
    assert len(said) == len([p for p in tutorial.introduction.split("\n") if p.strip()])
    expect(button).to_have_text("Pause reading")
    expect(button).to_have_attribute("aria-pressed", "true")

    button.click()
    expect(button).to_have_text("Resume reading")
    assert spoken(page)[-1] == "pause"
    button.focus()
    page.keyboard.press("Enter")  # the keyboard works the button as well
    expect(button).to_have_text("Pause reading")
    assert spoken(page)[-1] == "resume"

    phone = open_page(chromium, live_server_url, PHONE)
    phone.goto(reverse("play:case", args=[tutorial.case.slug]))
    expect(phone.locator("button.read-aloud")).to_be_visible()
    assert no_horizontal_scroll(phone)
    phone.screenshot(path=artifacts / "read-aloud-case-360.png")
    assert page.csp_errors == [] and phone.csp_errors == []


def test_a_browser_without_speech_synthesis_shows_no_button(tutorial, live_server_url, chromium):
    page = open_page(chromium, live_server_url, WIDE, script=NO_SPEECH)
    page.goto(reverse("play:case", args=[tutorial.case.slug]))
    assert page.evaluate("'speechSynthesis' in window") is False
    expect(page.locator("#introduction-heading")).to_be_visible()
    expect(page.locator("[data-read-aloud]")).to_have_count(1)  # the text is there...
    expect(page.locator("button.read-aloud")).to_have_count(0)  # ...but no button


@pytest.fixture
def watson_has_read(lobby, alice, bob, charlie):
    """Round 1 at the moment alice, holding Watson, has read card 3 to everyone."""
    started = services.table_start(table_id=lobby.pk, user=alice)
    clients = {}
    for user in (alice, bob, charlie):
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    act(clients["alice"], started, {"type": "take_watson"})
    act(clients["alice"], started, {"type": "baker_street"})
    act(clients["bob"], started, {"type": "baker_street"})
    act(clients["charlie"], started, {"type": "visit", "location": 3, "carriages": 0})
    response = act(clients["alice"], started, {"type": "watson_read", "location": 3})
    assert response.status_code == 200 and 'role="alert"' not in response.text
    return started


def test_the_watson_holder_reads_the_card_aloud_and_the_others_see_no_button(
    watson_has_read, tutorial, live_server_url, chromium, artifacts
):
    card = tutorial.locations.get(number=3)
    table_url = reverse("play:table", args=[watson_has_read.pk])
    alice = open_page(chromium, live_server_url, WIDE)
    log_in(alice, "alice")
    alice.goto(table_url)
    card_button = alice.locator(".watson-text button.read-aloud")
    expect(card_button).to_have_text("Read this card aloud to everyone")
    expect(alice.get_by_role("button", name="Read the introduction aloud")).to_have_count(1)
    card_button.click()
    said = " ".join(entry for entry in spoken(alice) if entry.startswith("speak:"))
    assert _plain(card.text.strip().split("\n")[0]) in said
    expect(card_button).to_have_text("Pause reading")
    alice.screenshot(path=artifacts / "read-aloud-watson-1280.png")

    bob = open_page(chromium, live_server_url, PHONE)
    log_in(bob, "bob")
    bob.goto(table_url)
    expect(bob.locator(".watson-text")).to_be_visible()  # bob sees the card read to all...
    expect(bob.get_by_role("button", name="Read this card aloud to everyone")).to_have_count(0)
    # On a phone the introduction starts folded; unfolded, it has its button.
    bob.locator("#case-intro summary").click()
    expect(bob.get_by_role("button", name="Read the introduction aloud")).to_be_visible()
    assert no_horizontal_scroll(bob)
    bob.screenshot(path=artifacts / "read-aloud-table-360.png")
    assert alice.csp_errors == [] and bob.csp_errors == []


def _plain(markdown_line: str) -> str:
    """A line of Markdown as the page shows it (emphasis marks gone)."""
    return re.sub(r"[*_`]", "", markdown_line).strip()
