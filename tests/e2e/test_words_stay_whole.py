"""At 360 px no word on a card game's table is cut in two to fit a narrow column (a
review once saw "Compu ter 1" and "Lef t"): with every seat taken, each word of the
page's main part sits on one line."""

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

from play import services
from tests.e2e.pages import PHONE, log_in, open_page

pytestmark = pytest.mark.django_db(transaction=True)

# Every word in <main> whose letters the browser laid out on two lines or more.
WORDS_CUT = """() => {
  const cut = [];
  for (const cell of document.querySelectorAll("main")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/[A-Za-z0-9]{2,}/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) cut.push(word[0]);
      }
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("game", ["sherlock_mycroft", "i_say_holmes", "holmes_elementary"])
def test_no_word_on_a_full_table_is_cut_at_360_px(game, alice, live_server_url, chromium):
    table = services.table_create(host=alice, game=game, options={})
    most = {"sherlock_mycroft": 1, "i_say_holmes": 7, "holmes_elementary": 5}[game]
    for _ in range(most):  # as many seats as the game takes: the narrowest columns
        services.seat_add_bot(table_id=table.pk, user=alice)
    services.table_start(table_id=table.pk, user=alice)
    page = open_page(chromium, live_server_url, PHONE)
    log_in(page, "alice")

    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#live")).to_be_visible()

    assert page.evaluate(WORDS_CUT) == []
