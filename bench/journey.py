"""A writer's journey through the editor, counted: from "Start from a template" to
"Submit for review", a 12-card case written in Chromium (Debian's, never a downloaded
one), as a writer would click and type it. Prints the clicks, the page loads and the
fields typed; the goal (issue 38) is at most 40 clicks and 12 page loads.

A figure of the editor's shape, not of speed: it asserts nothing, and times nothing.
The site runs on a throwaway SQLite database, served by daphne as in the browser tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench._harness import ROOT, free_port, stop

CHROMIUM = os.environ.get("HOLMES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
GOAL_CLICKS, GOAL_LOADS = 40, 12
WRITER, PASSWORD = "writer", "writer-password-for-the-bench"

# The case the writer types: the template's three cards rewritten, nine added.
CARDS = [
    (
        number,
        f"Place {number}",
        f"What the players read at place {number}. See [[{number % 12 + 1}]].",
    )
    for number in range(1, 13)
]
QUESTIONS = [
    ("Who rang the bell at midnight?", "Ann Vale"),
    ("Where is the bell rope?", "the crypt"),
]


@dataclass
class Counts:
    clicks: int = 0
    loads: int = 0
    fields: int = 0


class Writer:
    """The page, with every click and every field typed counted."""

    def __init__(self, page, counts: Counts):
        self.page, self.counts = page, counts
        page.on("load", lambda _page: setattr(counts, "loads", counts.loads + 1))

    def click(self, locator) -> None:
        self.counts.clicks += 1
        locator.click()

    def type(self, locator, text: str) -> None:
        self.counts.fields += 1
        locator.fill(text)


def main() -> None:
    if not Path(CHROMIUM).exists():
        print(f"journey: skipped, no browser at {CHROMIUM}")
        return
    with tempfile.TemporaryDirectory(prefix="holmes-journey-") as folder:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "holmes_site.settings",
            "HOLMES_SQLITE_PATH": str(Path(folder) / "journey.sqlite3"),
            "HOLMES_DEBUG": "1",
        }
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)  # eager Celery, in-process
        prepare(env)
        port = free_port()
        log = Path(folder) / "server.log"
        server = serve(port, env, log)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, server, log)
            counts = write_a_case(base)
        finally:
            stop(server)
    print(f"clicks: {counts.clicks} (goal <= {GOAL_CLICKS})")
    print(f"page loads: {counts.loads} (goal <= {GOAL_LOADS})")
    print(f"fields typed: {counts.fields}")


def prepare(env: dict) -> None:
    """The database, and one writer in the authors' group."""
    script = (
        "from accounts.models import User\n"
        "from authoring.services import user_make_author\n"
        f"user = User.objects.create_user({WRITER!r}, password={PASSWORD!r})\n"
        "user_make_author(user=user)\n"
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "shell", "-v", "0", "-c", script], cwd=ROOT, env=env, check=True)


def wait_until_up(base: str, server, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=2)
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"journey: the server did not start:\n{log.read_text()}") from None
            time.sleep(0.2)


def serve(port: int, env: dict, log: Path) -> subprocess.Popen:
    """The site as the browser tests serve it, in a process group of its own (this
    process's environment stays as it was, for the benchmarks that run after it)."""
    command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
               "holmes_site.asgi:application"]  # fmt: skip
    with log.open("wb") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip


def write_a_case(base: str) -> Counts:
    from playwright.sync_api import expect, sync_playwright

    counts = Counts()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(
            viewport={"width": 1280, "height": 800}, base_url=base
        ).new_page()
        writer = Writer(page, counts)
        page.goto("/admin/login/?next=/admin/")
        writer.type(page.get_by_label("Username"), WRITER)
        writer.type(page.get_by_label("Password"), PASSWORD)
        writer.click(page.get_by_role("button", name="Log in"))
        writer.click(page.get_by_role("link", name="Case versions").first)
        writer.click(page.get_by_role("link", name="Start from a template"))
        writer.type(page.get_by_label("Slug"), "the-midnight-bell")
        writer.type(page.get_by_label("Title"), "The Midnight Bell")
        writer.click(page.get_by_role("button", name="Start the case"))
        write_texts(page, writer)
        write_questions(page, writer)
        write_cards(page, writer)
        writer.click(page.get_by_role("button", name="Save and continue editing"))
        expect(page.locator("#lint-report")).to_contain_text("0 errors")
        writer.click(page.get_by_role("button", name="Submit for review"))
        expect(page.locator(".messagelist")).to_contain_text("Submitted for review")
        browser.close()
    return counts


def write_texts(page, writer: Writer) -> None:
    for heading, field, text in [
        (
            "Introduction",
            "#id_introduction",
            "The bell of St Olave's rang at midnight. Begin at [[1]].",
        ),
        ("Solution", "#id_solution", "Ann Vale rang it [[1]] [[2]] and hid the rope [[3]]."),
    ]:
        writer.click(page.locator("fieldset.collapse summary", has_text=heading))
        writer.type(page.locator(field), text)


def write_questions(page, writer: Writer) -> None:
    for row, (ask, answer) in enumerate(QUESTIONS):
        writer.click(page.locator(f"#questions-{row} summary"))
        writer.type(page.locator(f"#id_questions-{row}-ask"), ask)
        writer.type(page.locator(f"#id_questions-{row}-answer"), answer)
    # The template's example forms belong to its own question.
    writer.type(page.locator("#id_questions-0-accept"), "Miss Ann Vale")
    writer.type(page.locator("#id_questions-0-reject"), "Tom Vale")


def write_cards(page, writer: Writer) -> None:
    for row, (number, name, text) in enumerate(CARDS):
        if page.locator(f"#locations-{row}").count():
            writer.click(page.locator(f"#locations-{row} summary"))  # a template card
        else:
            writer.click(page.get_by_text("Add another Location"))
            writer.type(page.locator(f"#id_locations-{row}-number"), str(number))
        writer.type(page.locator(f"#id_locations-{row}-name"), name)
        writer.type(page.locator(f"#id_locations-{row}-text"), text)


if __name__ == "__main__":
    main()
