"""Tables say what they are called (`summary["title"]`) and, once finished, how they
ended (`outcome`), as the game's site records it: figures no longer read engine states.

The migration carries its own copy of what it needs of the games (their titles, and how a
finished state's outcome was recorded when it was written), frozen here: live game code
may be renamed, moved or changed, and a migration must give the same result whenever it
runs.
"""

from django.db import migrations

TITLES = {
    "watson_holmes": "Watson & Holmes",
    "sherlock_mycroft": "Sherlock & Mycroft",
    "i_say_holmes": "I Say, Holmes!",
    "holmes_elementary": "The Elementary deck",
}


def watson_holmes_outcome(state: dict) -> dict | None:
    if state["phase"] != "over":
        return None
    return {
        "winners": list(state["result"]["winners"]),
        "solved": state["result"]["kind"] == "solved",
        "rounds": state["round"],
    }


def sherlock_mycroft_outcome(state: dict) -> dict | None:
    result = state["result"]
    if result is None:
        return None
    scores = {str(seat): result["scores"][seat] for seat in (0, 1)}
    return {"winners": list(result["winners"]), "scores": scores}


def card_game_outcome(state: dict) -> dict | None:
    result = state["result"]
    if result is None:
        return None
    return {"winners": list(result["winners"]), "scores": dict(result["scores"])}


# What a finished table of each game kept (the site's `outcome_record` of the rules'
# `outcome`), or None while the state is not finished.
OUTCOMES = {
    "watson_holmes": watson_holmes_outcome,
    "sherlock_mycroft": sherlock_mycroft_outcome,
    "i_say_holmes": card_game_outcome,
    "holmes_elementary": card_game_outcome,
}


def forwards(apps, schema_editor):
    Table = apps.get_model("play", "Table")
    for table in Table.objects.all().iterator():
        summary = dict(table.summary or {})
        fields = []
        if "title" not in summary:
            case = summary.get("case") or {}
            summary["title"] = case.get("title") or TITLES[table.engine]
            table.summary = summary
            fields.append("summary")
        state = table.state
        if table.status == "finished" and table.outcome is None and isinstance(state, dict):
            fixed = table.fixed_state or {}
            outcome = OUTCOMES[table.engine]({**state, **fixed})
            if outcome is not None:
                table.outcome = outcome
                fields.append("outcome")
        if fields:
            table.save(update_fields=fields)


class Migration(migrations.Migration):
    dependencies = [("play", "0011_games_seam")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
