"""The engine's own shuffle is ``games.rng.shuffled``, only quicker: the same order and
the same next generator state, for any list and any generator state."""

import pytest

from games import rng as rngs
from games.i_say_holmes.rules import cards
from games.i_say_holmes.rules.state import shuffled


@pytest.mark.parametrize("seed", [0, 1, 2, 17, 2**63 + 5, 2**64 - 1])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 20, 125])
def test_it_shuffles_exactly_as_the_shared_generator(seed, size):
    items = list(cards.LEDGER_ORDER[:size])
    state = rngs.seeded(seed)
    for _ in range(3):
        ours, our_state = shuffled(items, state)
        theirs, their_state = rngs.shuffled(items, state)
        assert (ours, our_state) == (theirs, their_state)
        assert items == list(cards.LEDGER_ORDER[:size]), "the input list is left alone"
        state = our_state
