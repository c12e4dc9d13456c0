"""Two players at one table never share a name (issue 22): the table's pages, its log and
its notifications name players by their public names.

The profile refuses a new name that someone at one of your tables has (tests/web), and
joining refuses one that someone seated has.
"""

import pytest

from play import services
from play.selectors import name_taken_at_table


@pytest.mark.parametrize("name", ["Alice", "ALICE", "Ａｌｉｃｅ", "bob"])
def test_joining_a_table_where_someone_has_your_name_is_refused(lobby, make_user, name):
    newcomer = make_user("newcomer", display_name=name)

    with pytest.raises(services.TableError) as refused:
        services.table_join(invite_code=lobby.invite_code, user=newcomer)

    assert refused.value.code == "name_taken"
    assert not lobby.seats.filter(user=newcomer).exists()


def test_the_selector_finds_the_seated_player_of_the_same_name(lobby, make_user, alice):
    assert name_taken_at_table(table_id=lobby.pk, user=make_user("x", display_name=" alice")) == (
        "Alice"
    )
    assert name_taken_at_table(table_id=lobby.pk, user=make_user("y", display_name="Irene")) is None
    assert name_taken_at_table(table_id=lobby.pk, user=alice) is None  # herself
