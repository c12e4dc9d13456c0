"""A tiny seeded generator (splitmix64) whose whole state is one JSON-able string.

The engine never touches global ``random``: the generator's state is stored in the game
state as a hex string (a string, so no JSON reader rounds it to a float), and every draw
returns the next state along with the value.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def seeded(seed: int) -> str:
    """The generator state for ``seed``."""
    return format(seed & _MASK, "016x")


def next_u64(rng: str) -> tuple[int, str]:
    """A 64-bit draw and the next state (splitmix64, Steele, Lea and Flood 2014)."""
    counter = (int(rng, 16) + _GOLDEN_GAMMA) & _MASK
    z = counter
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), format(counter, "016x")


def below(rng: str, bound: int) -> tuple[int, str]:
    """A draw in ``range(bound)``; the modulo bias is negligible for our tiny bounds."""
    value, rng = next_u64(rng)
    return value % bound, rng


def shuffled(items: list, rng: str) -> tuple[list, str]:
    """A Fisher-Yates shuffled copy of ``items`` and the next state."""
    result = list(items)
    for index in range(len(result) - 1, 0, -1):
        other, rng = below(rng, index + 1)
        result[index], result[other] = result[other], result[index]
    return result, rng
