"""Each game's actions and view as typed components of the OpenAPI schema.

A game declares no schema: it is read off the game itself. A seeded playout of every
registered game (random legal moves, a few hundred at most) gathers the views its seats
see and the actions they may take; their shapes, merged, become ``<Game>View`` and one
``<Game><Action>Action`` component per action type. A new game is documented on the day
it is registered, and the schema cannot drift from what the rules really send.
"""

from __future__ import annotations

import random
from functools import cache

from games import GAMES
from games.base import SYSTEM, Refusal

PLAYOUT_STEPS = 400
PLAYOUT_SEEDS = (1, 2, 3)


def document_games(result: dict, generator, request, public) -> dict:
    """drf-spectacular post-processing hook: add the games' components, and type the
    table view's ``game`` as one of the games' views."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    views, actions = [], []
    for name, game in sorted(GAMES.items()):
        view_schema, action_schemas = game_schemas(name)
        view_name = f"{_camel(name)}View"
        schemas[view_name] = {**view_schema, "description": f"What a seat sees of {game.title}."}
        views.append({"$ref": f"#/components/schemas/{view_name}"})
        for action_type, schema in sorted(action_schemas.items()):
            action_name = f"{_camel(name)}{_camel(action_type)}Action"
            schemas[action_name] = {**schema, "description": f"{game.title}: {action_type}."}
            actions.append({"$ref": f"#/components/schemas/{action_name}"})
    table_view = schemas.get("TableView")
    if table_view:
        table_view["properties"]["game"] = {
            "oneOf": views,
            "nullable": True,
            "description": "The rules' view for you: the schema of the table's game (engine).",
        }
    action_input = schemas.get("ActionInput")
    if action_input:
        action_input["properties"]["action"] = {
            "oneOf": actions,
            "description": "One of the moves your view's legal_actions lists.",
        }
    return result


@cache
def game_schemas(name: str) -> tuple[dict, dict[str, dict]]:
    """The merged shape of the views, and of each action type, seen in a playout."""
    game = GAMES[name]
    views, actions = _playout_samples(game)
    by_type: dict[str, list] = {}
    for action in actions:
        by_type.setdefault(str(action.get("type")), []).append(action)
    action_schemas = {}
    for action_type, samples in by_type.items():
        schema = _merged(samples)
        schema["properties"]["type"] = {"type": "string", "enum": [action_type]}
        action_schemas[action_type] = schema
    return _merged(views), action_schemas


@cache
def example_actions(name: str) -> dict[str, dict]:
    """The first action of each type seen in the game's playout."""
    examples: dict[str, dict] = {}
    for action in _playout_samples(GAMES[name])[1]:
        examples.setdefault(str(action.get("type")), action)
    return examples


@cache
def _playout_samples(game) -> tuple[list[dict], list[dict]]:
    views, actions = [], []
    for seed in PLAYOUT_SEEDS:
        more_views, more_actions = _playout(game, seed)
        views += more_views
        actions += more_actions
    return views, actions


def _playout(game, seed: int) -> tuple[list[dict], list[dict]]:
    rules = game.rules
    players = max(game.min_players, min(3, game.max_players))
    state = rules.setup(game.example_config(players), [f"p{n}" for n in range(players)], seed)
    rng = random.Random(seed)
    views, actions = [], []
    for _ in range(PLAYOUT_STEPS):
        for seat in range(players):
            view = rules.view(state, seat)
            view["legal_actions"] = rules.legal_actions(state, seat)
            views.append(view)
            actions += view["legal_actions"]
        if rules.is_over(state):
            break
        moves = [
            (actor, action)
            for actor in [*range(players), SYSTEM]
            for action in rules.legal_actions(state, actor)
        ]
        actor, action = rng.choice(moves)
        applied = rules.apply(state, actor, action)
        if isinstance(applied, Refusal):
            break
        state = applied[0]
    return views, [a for a in actions if isinstance(a, dict)]


def _merged(samples: list) -> dict:
    """One JSON schema that every sample fits."""
    kinds = {_kind(sample) for sample in samples}
    nullable = "null" in kinds
    kinds.discard("null")
    if not kinds:
        return {"nullable": True}
    if len(kinds) > 1:
        if kinds == {"integer", "number"}:
            schema = {"type": "number"}
        else:
            schema = {"oneOf": [{"type": kind} for kind in sorted(kinds)]}
    else:
        kind = kinds.pop()
        present = [sample for sample in samples if sample is not None]
        if kind == "object":
            schema = _merged_object(present)
        elif kind == "array":
            items = [item for sample in present for item in sample]
            schema = {"type": "array", "items": _merged(items) if items else {}}
        else:
            schema = {"type": kind}
    if nullable:
        schema["nullable"] = True
    return schema


def _merged_object(samples: list[dict]) -> dict:
    keys = sorted({key for sample in samples for key in sample})
    # Keys that look like numbers (seats, card numbers) are a map, not fixed properties.
    if keys and all(key.lstrip("-").isdigit() for key in keys):
        values = [value for sample in samples for value in sample.values()]
        return {"type": "object", "additionalProperties": _merged(values)}
    required = [key for key in keys if all(key in sample for sample in samples)]
    schema = {
        "type": "object",
        "properties": {
            key: _merged([sample[key] for sample in samples if key in sample]) for key in keys
        },
    }
    if required:
        schema["required"] = required
    return schema


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return "object"


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.replace("-", "_").split("_"))
