"""Case Closed tokens, victory points, the winner and the end of the game."""

from games.i_say_holmes import rules
from games.i_say_holmes.rules import closing, tokens
from tests.games.i_say_holmes.helpers import allow, new_game, play, table


def guilty_table(**options) -> dict:
    return table(
        [["arrest-1", "clue-1"], ["london-2", "bakerst-1"], ["train-1", "moriarty"]],
        current="clue-3",
        **options,
    )


def test_it_gives_the_highest_case_closed_token_the_grand_total_reaches():
    state = guilty_table()
    state["pool"]["books"].remove("A Study in Scarlet")

    state = allow(play(state, 0, "arrest-1", target=2), 2)

    # 7 + 4 + 1 = 12 reaches 10, whose token is gone: His Last Bow (0) ends the game.
    assert state["holdings"][0]["books"] == ["His Last Bow"]
    assert state["phase"] == "over" and rules.is_over(state)
    assert rules.outcome(state)["reason"] == "his_last_bow"


def test_it_ends_the_game_after_the_tables_number_of_cases():
    state = guilty_table(max_cases=1)

    state = allow(play(state, 0, "arrest-1", target=2), 2)

    assert rules.outcome(state) == {
        "winners": [0],
        "scores": {"0": 2, "1": 0, "2": 0},
        "tie_break": {"0": [1, 0, 0], "1": [0, 0, 0], "2": [0, 0, 0]},
        "reason": "max_cases",
    }
    assert rules.legal_actions(state, 0) == [] and rules.waiting_for(state) == []
    assert rules.turn(state) is None


def test_it_scores_every_token_and_the_neighbours_telegrams():
    state = new_game(4)
    state["holdings"][0].update(books=["The Valley of Fear"], pipe="pipe-5", telegrams=["tg2"])
    state["holdings"][1].update(villains=["moriarty"], telegrams=["tg5", "tg6"])
    state["holdings"][2].update(telegrams=["tg8"])

    # Seat 0: 6 + 3 - 1, and +2 from seat 1's tg6 (for its right neighbour).
    # Seat 1: 5, +1 from seat 2's tg8. Seat 2: +2 from seat 1's tg5. Seat 3: +1 from tg8.
    assert tokens.scores(state) == [10, 6, 2, 1]


def test_it_breaks_ties_on_books_then_villains_then_i_say_tokens_and_shares_the_rest():
    state = new_game(3)
    state["holdings"][0].update(books=["A Study in Scarlet"])  # 2
    state["holdings"][1].update(pipe="pipe-1", hat="hat-1")  # 2
    state["holdings"][2].update(telegrams=["tg1"], glass="glass-3")  # 2

    closing.end_game(state, "max_cases")
    assert state["result"]["winners"] == [0]

    state = new_game(3)
    state["holdings"][1].update(pipe="pipe-3")
    state["holdings"][2].update(hat="hat-4")
    closing.end_game(state, "max_cases")
    assert state["result"]["winners"] == [1, 2]


def test_it_reveals_token_values_only_at_the_end():
    state = guilty_table(max_cases=2)
    state["holdings"][1]["telegrams"] = ["tg4"]
    state = allow(play(state, 0, "arrest-1", target=2), 2)
    assert rules.view(state, 1)["seats"][1]["vp"] is None
    assert "tg4" not in str(rules.view(state, 1))

    assert state["case"] == 2  # dealt by the rules
    state["pool"]["books"] = ["His Last Bow"]
    state = table(
        [["arrest-1", "clue-1"], ["london-2", "bakerst-1"], ["train-1", "moriarty"]],
        current="clue-3",
    ) | {
        "holdings": state["holdings"],
        "pool": state["pool"],
        "cases_closed": 1,
        "case": 2,
        "max_cases": 2,
    }
    state = allow(play(state, 0, "arrest-1", target=2), 2)

    final = rules.view(state, 2)
    assert final["seats"][1]["vp"] == -3
    assert final["result"]["tokens"][1]["telegrams"][0]["id"] == "tg4"
