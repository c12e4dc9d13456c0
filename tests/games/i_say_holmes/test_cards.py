"""The ledger and the story-sequence tests."""

import pytest

from games.i_say_holmes.rules import cards


def test_it_holds_125_cards_with_unique_ids():
    assert len(cards.LEDGER_ORDER) == 125 == len(set(cards.LEDGER_ORDER))
    assert "boat" in cards.ALL_CARDS and "clue-10" in cards.ALL_CARDS


@pytest.mark.parametrize("players", range(3, 9))
def test_it_deals_six_cards_a_seat_from_the_set_up_numbers(players):
    stack = cards.deal_out_stack(players)

    assert len(stack) == 6 * players
    assert "moriarty" in stack and "afoot" in stack
    assert ("moran" in stack) == (players >= 5)
    assert ("clay" in stack) == (players >= 7)
    assert "milverton" not in stack and "woodley" not in stack


def test_it_gives_the_lowest_copies_the_set_up_numbers():
    stack = cards.deal_out_stack(4)

    assert [c for c in stack if c.startswith("hansom")] == ["hansom-1", "hansom-2", "hansom-3"]


@pytest.mark.parametrize(
    ("card", "current", "location", "expected"),
    [
        ("hansom-1", "afoot", "city", True),  # Any Travel
        ("london-1", "afoot", "city", False),
        ("london-1", "hansom-1", "city", True),  # Any Similar Location
        ("dartmoor-1", "hansom-1", "city", False),
        ("dartmoor-1", "train-1", "city", True),  # Any Dissimilar Location
        ("fog-1", "train-1", "city", True),  # named by title
        ("clue-1", "bakerst-1", "city", True),  # Any Information
        ("arrest-1", "yard-1", "city", True),  # Any Action
        ("detective-1", "bakerst-1", "city", True),
        ("alibi-1", "afoot", "city", False),  # Interrupts never follow
        ("moriarty", "afoot", "city", False),  # nor Villains
        ("sherlock", "london-1", "city", False),  # nor I Say cards
    ],
)
def test_it_knows_which_card_follows(card, current, location, expected):
    assert cards.follows(card, current, location) is expected


@pytest.mark.parametrize(
    ("card", "current", "expected"),
    [
        ("sherlock", "london-1", True),
        ("sherlock", "hansom-1", False),
        ("irene", "hansom-1", True),
        ("irene", "london-1", False),
        ("mycroft", "london-1", True),
        ("mycroft", "dartmoor-1", False),
        ("pm", "yard-1", True),
        ("lestrade-1", "clue-1", True),
    ],
)
def test_it_judges_i_say_conditions_on_the_current_card(card, current, expected):
    assert cards.permissible(card, current) is expected
