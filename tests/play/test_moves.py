"""The one front door for a move (play/moves.py): whichever road a move takes, the same
outcome comes of it, with a sentence whenever it was not made."""

import pytest
from django.core.cache import cache

from play import moves, selectors
from play.models import Spectator
from play.moves import Outcome

REST = {"type": "carriage_stop"}


def make(user, table, action=REST, version=None, key=None, **fields):
    table.refresh_from_db()
    return moves.move_make(
        user=user,
        table_id=table.pk,
        action=action,
        expected_version=table.version if version is None else version,
        idempotency_key=key,
        **fields,
    )


def on_turn(table, seven):
    table.refresh_from_db()
    return seven[table.state["turn"]]


def test_it_applies_a_move_and_replays_it_under_the_same_key(started, alice, bob, charlie):
    mover = on_turn(started, [alice, bob, charlie])
    made = make(mover, started, key="k1")
    assert made.kind == Outcome.APPLIED and made.made
    assert made.membership.seat.user_id == mover.pk
    assert made.membership.table.version == started.version + 1

    again = make(mover, started, key="k1", version=started.version)
    assert again.kind == Outcome.REPLAYED and again.made


def test_it_says_why_the_rules_refuse_a_move(started, alice, bob, charlie):
    waiting = [alice, bob, charlie]
    mover = on_turn(started, waiting)
    other = next(user for user in waiting if user != mover)
    refused = make(other, started)
    assert refused.kind == Outcome.REFUSED and not refused.made
    assert refused.refusal is not None and refused.code == refused.refusal.code
    assert refused.sentence.endswith(".")
    assert refused.membership.seat.user_id == other.pk  # the table as the lock read it


def test_it_says_the_table_moved_on_with_its_version(started, alice, bob, charlie):
    mover = on_turn(started, [alice, bob, charlie])
    stale = make(mover, started, version=started.version - 1)
    assert stale.kind == Outcome.STALE
    assert stale.details == {"version": started.version}
    assert "moved on" in stale.sentence


def test_it_refuses_a_spectator_and_a_stranger_as_not_seated(started, dave, erin):
    Spectator.objects.create(table=started, user=dave)
    for user in (dave, erin):
        outcome = make(user, started)
        assert outcome.kind == Outcome.NOT_SEATED
        assert outcome.sentence == "You have no seat at this table."
    watching = selectors.membership_for(table_id=started.pk, user=dave)
    assert make(dave, started, membership=watching).kind == Outcome.NOT_SEATED


def test_it_moves_for_the_seat_the_page_read_with_its_case_and_host(started, alice, bob, charlie):
    mover = on_turn(started, [alice, bob, charlie])
    membership = selectors.membership_for(table_id=started.pk, user=mover, notebook=True)
    made = make(mover, started, membership=membership)
    assert made.kind == Outcome.APPLIED
    table = made.membership.table
    assert table.version == started.version + 1
    assert type(table).case_version.is_cached(table) and type(table).host.is_cached(table)


@pytest.fixture
def answers_counted(settings):
    cache.clear()
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "answers": "1/minute"},
    }
    yield
    cache.clear()


def test_it_counts_answers_per_person_whichever_road_they_take(started, alice, answers_counted):
    answer = {"type": "answer", "answers": {"thief": "x"}}
    first = make(alice, started, action=answer)
    assert first.kind != Outcome.THROTTLED
    second = make(alice, started, action=answer)
    assert second.kind == Outcome.THROTTLED and second.wait > 0
    assert "Too many answers" in second.sentence
    # Any other move goes through.
    assert make(alice, started).kind != Outcome.THROTTLED
