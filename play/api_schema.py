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
from games.sites import get_site

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
        game_actions = []
        for action_type, schema in sorted(action_schemas.items()):
            action_name = f"{_camel(name)}{_camel(action_type)}Action"
            schemas[action_name] = {**schema, "description": _action_description(game, action_type)}
            game_actions.append({"$ref": f"#/components/schemas/{action_name}"})
        view_schema = _with_legal_actions(view_schema, game_actions)
        view_schema = annotated(view_schema, _view_notes(name))
        schemas[view_name] = {**view_schema, "description": f"What a seat sees of {game.title}."}
        views.append({"$ref": f"#/components/schemas/{view_name}"})
        actions += game_actions
    table_view = schemas.get("TableView")
    if table_view:
        table_view["properties"]["game"] = {
            "oneOf": views,
            "nullable": True,
            "description": "The rules' view for you: the schema of the table's game (engine).",
        }
    if table_view and "solution" in table_view["properties"]:
        table_view["properties"]["solution"] = SOLUTION_SCHEMA
    action_input = schemas.get("ActionInput")
    if action_input:
        action_input["properties"]["action"] = {
            "oneOf": actions,
            "description": "One of the moves your view's legal_actions lists.",
        }
    return result


MARKDOWN_NOTE = (
    "Markdown, sanitised when rendered. A card reference is written [[n]]: the location "
    "card numbered n (a page links it to that card)."
)
SOLUTION_SCHEMA = {
    "type": "object",
    "nullable": True,
    "description": "Case games, once you may read it: the correct answers and the "
    "solution. Eliminated players and, at the end, everyone.",
    "properties": {
        "answers": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "ask": {"type": "string"},
                    "answer": {"type": "string"},
                },
                "required": ["id", "ask", "answer"],
            },
        },
        "text": {"type": "string", "description": f"The solution. {MARKDOWN_NOTE}"},
    },
    "required": ["answers", "text"],
}


def _action_description(game, action_type: str) -> str:
    documented = getattr(game.rules, "ACTIONS", {}).get(action_type, {})
    return f"{game.title}: {documented.get('description') or action_type}"


def _with_legal_actions(view_schema: dict, game_actions: list[dict]) -> dict:
    """The view's legal_actions, typed as the game's own action components."""
    if "legal_actions" not in view_schema.get("properties", {}) or not game_actions:
        return view_schema
    properties = {
        **view_schema["properties"],
        "legal_actions": {
            "type": "array",
            "items": {"oneOf": game_actions},
            "description": "What you may do now, one entry per move (present for a seat, "
            "not for a spectator). Free-text fields are listed empty: fill them in. POST one "
            "to /api/tables/{table_id}/actions/.",
        },
    }
    return {**view_schema, "properties": properties}


def _view_notes(name: str) -> dict[str, dict]:
    """What a game's site says of its view beyond the shapes a playout shows."""
    notes = getattr(get_site(name), "view_schema_notes", None)
    return notes() if notes else {}


def annotated(schema: dict, notes: dict[str, dict]) -> dict:
    """``schema`` with each note merged into the node at its path: dotted property names,
    ``[]`` for an array's items (``you.reading[].text``). A note carrying ``properties``,
    ``additionalProperties`` or ``type`` replaces the shape seen in playouts, for the
    places a playout cannot show in full (maps keyed by question id, values it never met).
    """
    result = json_copy(schema)
    for path, note in notes.items():
        node = result
        for step in _path_steps(path):
            node = _child(node, step)
            if node is None:
                raise KeyError(f"no {path!r} in the view's schema")
        if {"properties", "additionalProperties", "type"} & set(note):
            for key in ("properties", "additionalProperties", "required", "items", "type"):
                node.pop(key, None)
        node.update(json_copy(note))
    return result


def _path_steps(path: str) -> list[str]:
    steps = []
    for part in path.split("."):
        steps.append(part.replace("[]", ""))
        steps += ["[]"] * (part.count("[]"))
    return steps


def _child(node: dict, step: str) -> dict | None:
    if step == "[]":
        return node.get("items")
    return node.get("properties", {}).get(step)


def json_copy(value):
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


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
