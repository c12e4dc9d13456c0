"""Every registered game keeps the contract of games/base.py, checked by playing it.

In the spirit of OpenSpiel's games_sim_test: seeded random playouts (and playouts by the
game's bots, where it has them) through ``legal_actions`` until ``is_over``, checking at
every step that

- every listed action applies, and ``apply`` never changes its input;
- an action is refused (a Refusal with a code and a sentence, never an exception) when it
  is not listed for that actor: another actor's listed actions, unknown ones, junk;
- states survive JSON, and the keys a game declares fixed never change;
- no seat's view, nor the spectator's, nor the events a seat may see, holds another
  seat's private items;
- a bot of every strength the game offers chooses only a listed action, from its own
  view, without changing it, and the same action again from the same view and seed;
- where a game passes a leaver by (``Game.withdraw``), a seat whose person left is never
  waited for nor offered an action again, and the game still ends.

A new game is checked on the day it is registered. Needs no database.
"""

import itertools
import json
import random

import pytest

from games import GAMES
from games.base import DEFAULT_BOT_LEVEL, SYSTEM, Refusal, events_for

# Far above what a game takes (random seats at an eight-player I Say, Holmes! table, played
# until His Last Bow, take up to about 1,400 moves): reaching it means a game that never ends.
MAX_STEPS = 4000
CROSS_CHECKS = 12  # other actors' actions tried for each actor at each step
JUNK = [{"type": "no_such_action"}, {}, {"type": None}, "visit", None, {"type": "visit", "x": []}]


def seat_counts(game) -> list[int]:
    middle = (game.min_players + game.max_players) // 2
    return sorted({game.min_players, middle, game.max_players})


CASES = [
    pytest.param(game, players, seed, id=f"{name}-{players}p-seed{seed}")
    for name, game in sorted(GAMES.items())
    for players in seat_counts(game)
    for seed in (1, 2)
]


def dumped(value) -> str:
    return json.dumps(value, sort_keys=True)


def actors(state: dict, players: int) -> list:
    return [*range(players), SYSTEM]


def listed_actions(rules, state: dict, players: int) -> dict:
    return {actor: rules.legal_actions(state, actor) for actor in actors(state, players)}


# Games whose moves may deal the cards afresh (I Say, Holmes! deals the next case in the
# move that closes the last one), by the event that starts the new deal.
FRESH_DEALS = {"i_say_holmes": "case_started"}


def since_fresh_deal(game, events: list) -> list:
    """The events from the last fresh deal in ``events`` on (all of them without one).
    Those before it tell of the cards as they lay before the deal, and the deal hands
    every card out again: seen against the new hands they would look like leaks. They
    are searched in every move that deals nothing, where the same events come."""
    starts = [i for i, event in enumerate(events) if event.type == FRESH_DEALS.get(game.name)]
    return events[starts[-1] :] if starts else events


def assert_no_leak(game, state: dict, players: int, events: list) -> None:
    rules = game.rules
    private = {seat: game.private_items(state, seat) for seat in range(players)}
    spectator = dumped(rules.view(state, None))
    for owner, items in private.items():
        for item in items:
            assert item not in spectator, f"the spectator sees seat {owner}'s {item!r}"
    for seat in range(players):
        seen = dumped(rules.view(state, seat)) + dumped(
            [event.to_dict() for event in events_for(events, seat)]
        )
        for owner, items in private.items():
            if owner == seat:
                continue
            for item in items:
                assert item not in seen, f"seat {seat} sees seat {owner}'s {item!r}"


def assert_refused(rules, state: dict, actor, action, snapshot: dict) -> None:
    result = rules.apply(state, actor, action)
    assert isinstance(result, Refusal), f"{actor!r} may not {action!r}, yet it applied"
    assert result.code and result.message.endswith(".")
    # Compared with a copy taken once per step: dict equality runs in C, where dumping
    # the state for every refusal took most of a long game's time.
    assert state == snapshot, "a refused action changed the state"


def check_only_listed_actions_apply(rules, state, listed, rng: random.Random) -> None:
    snapshot = json.loads(dumped(state))
    for actor, actions in listed.items():
        others = [a for other, acts in listed.items() if other != actor for a in acts]
        others = [a for a in others if a not in actions]
        for action in rng.sample(others, min(CROSS_CHECKS, len(others))) + JUNK:
            assert_refused(rules, state, actor, action, snapshot)


def assert_waits_are_honest(rules, state: dict, listed: dict) -> None:
    """The server's bots and timers act on ``waiting_for``: it must name exactly the seats
    with something to do, and a wait must always be one the timer can end."""
    waiting = rules.waiting_for(state)
    assert waiting == sorted(set(waiting))
    for seat in waiting:
        assert listed[seat], f"seat {seat} is waited for but may do nothing"
    if waiting:
        assert {"type": "timeout"} in listed[SYSTEM], "a wait the timer cannot end"
    deadline = rules.deadline_seconds(state)
    assert deadline is None or (isinstance(deadline, int) and deadline > 0)
    for seat in [seat for seat in listed if seat != SYSTEM]:
        assert rules.may_write_notes(state, seat) in (True, False)


def step(game, state: dict, actor, action, fixed: dict) -> tuple[dict, list]:
    rules = game.rules
    before = dumped(state)
    result = rules.apply(state, actor, action)
    assert not isinstance(result, Refusal), f"listed for {actor!r} but refused: {result}"
    assert dumped(state) == before, "apply changed its input"
    new_state, events = result
    assert json.loads(dumped(new_state)) == new_state, "the state does not survive JSON"
    for key, value in fixed.items():
        assert dumped(new_state[key]) == value, f"the fixed key {key!r} changed"
    return new_state, events


def withdraw(game, state: dict, seat: int, fixed: dict) -> tuple[dict, list]:
    before = dumped(state)
    result = game.withdraw(state, seat)
    assert not isinstance(result, Refusal), f"seat {seat} may not leave: {result}"
    assert dumped(state) == before, "withdraw changed its input"
    new_state, events = result
    assert json.loads(dumped(new_state)) == new_state, "the state does not survive JSON"
    for key, value in fixed.items():
        assert dumped(new_state[key]) == value, f"the fixed key {key!r} changed"
    assert isinstance(game.withdraw(new_state, seat), Refusal), "a seat left twice"
    return new_state, events


def assert_left_seats_passed_by(rules, state: dict, listed: dict, left: set[int]) -> None:
    for seat in left:
        assert listed[seat] == [], f"seat {seat} has left, yet it is offered {listed[seat]}"
        assert seat not in rules.waiting_for(state), f"seat {seat} has left, yet is waited for"
        assert rules.turn(state) != seat
        assert rules.view(state, seat) is not None


def play_out(game, players: int, seed: int, choose, leave_chance: float = 0.0) -> dict:
    """Play to the end; with ``leave_chance``, before a move a seat's person may leave."""
    rules = game.rules
    state = rules.setup(game.example_config(players), [f"p{n}" for n in range(players)], seed)
    fixed = {key: dumped(state[key]) for key in getattr(rules, "FIXED_KEYS", ())}
    rng = random.Random(seed)
    left: set[int] = set()
    assert_no_leak(game, state, players, [])
    for _ in range(MAX_STEPS):
        if rules.is_over(state):
            assert rules.outcome(state) is not None
            return state
        seated = [seat for seat in range(players) if seat not in left]
        if seated and rng.random() < leave_chance:
            seat = rng.choice(seated)
            state, events = withdraw(game, state, seat, fixed)
            left.add(seat)
            assert_no_leak(game, state, players, since_fresh_deal(game, events))
            continue
        listed = listed_actions(rules, state, players)
        assert any(listed.values()), "nobody can move, yet the game is not over"
        assert_waits_are_honest(rules, state, listed)
        assert_left_seats_passed_by(rules, state, listed, left)
        check_only_listed_actions_apply(rules, state, listed, rng)
        actor, action = choose(state, listed, rng)
        state, events = step(game, state, actor, action, fixed)
        assert_no_leak(game, state, players, since_fresh_deal(game, events))
    raise AssertionError(f"the game did not end in {MAX_STEPS} steps")


def random_choice(state, listed, rng):
    moves = [(actor, action) for actor, actions in listed.items() for action in actions]
    return rng.choice(moves)


@pytest.mark.parametrize(("game", "players", "seed"), CASES)
def test_it_plays_random_games_to_their_end_within_the_contract(game, players, seed):
    state = play_out(game, players, seed, random_choice)

    assert game.rules.is_over(state)


def bots_or_system(game, level=DEFAULT_BOT_LEVEL):
    """Seats played by the game's bot of that strength; the server's timeout otherwise."""
    bot = game.bots[level]
    decisions = itertools.count()

    def choose(state, listed, rng):
        for seat, actions in listed.items():
            if seat != SYSTEM and actions:
                view = game.rules.view(state, seat)
                shown = dumped(view)
                seed = rng.randrange(2**31)
                action = bot(view, seat, list(actions), seed)
                assert action in actions, f"the {level} bot chose {action!r}, which is not listed"
                assert dumped(view) == shown, f"the {level} bot changed the view it was given"
                if next(decisions) % 10 == 0:
                    # As pure as the rules: the same view and seed give the same choice. A
                    # bot that also read the state, the clock or global randomness would not.
                    again = bot(json.loads(shown), seat, list(actions), seed)
                    assert again == action, f"the {level} bot chose {again!r}, then {action!r}"
                return seat, action
        return SYSTEM, rng.choice(listed[SYSTEM])

    return choose


# Every strength of every game with computer players.
BOT_CASES = [
    pytest.param(game, level, *case.values[1:], id=f"{level}-{case.id}")
    for case in CASES
    for game in case.values[:1]
    for level in game.bots
]


@pytest.mark.skipif(not BOT_CASES, reason="no registered game has a bot yet")
@pytest.mark.parametrize(("game", "level", "players", "seed"), BOT_CASES)
def test_it_plays_games_of_bots_only_to_their_end(game, level, players, seed):
    state = play_out(game, players, seed, bots_or_system(game, level))

    assert game.rules.is_over(state)


WITHDRAW_CASES = [
    pytest.param(*case.values, id=case.id) for case in CASES if case.values[0].withdraw is not None
]


@pytest.mark.skipif(not WITHDRAW_CASES, reason="no registered game passes a leaver by")
@pytest.mark.parametrize(("game", "players", "seed"), WITHDRAW_CASES)
def test_it_plays_random_games_where_people_leave_to_their_end(game, players, seed):
    state = play_out(game, players, seed, random_choice, leave_chance=0.04)

    assert game.rules.is_over(state)


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_it_describes_each_game_fully(game):
    assert game.name and game.title
    assert 1 <= game.min_players <= game.max_players <= 8
    assert len({colour.letter for colour in game.colours}) == len(game.colours)
    assert game.clean_options({}) == {o.name: o.default for o in game.options}
    state = game.rules.setup(game.example_config(game.min_players), ["a"] * game.min_players, 1)
    assert json.loads(dumped(state)) == state
    # A game passes a leaver by through a computer player, or its rules, or not at all.
    assert game.withdraw is None or game.bot is None
