"""Tables say what they are called (`summary["title"]`) and, once finished, how they
ended (`outcome`), as the game's site records it: figures no longer read engine states."""

from django.db import migrations


def forwards(apps, schema_editor):
    from games import GAMES
    from games.sites import get_site

    Table = apps.get_model("play", "Table")
    for table in Table.objects.all().iterator():
        summary = dict(table.summary or {})
        fields = []
        if "title" not in summary:
            case = summary.get("case") or {}
            summary["title"] = case.get("title") or GAMES.get(table.engine).title
            table.summary = summary
            fields.append("summary")
        state = table.state
        if table.status == "finished" and table.outcome is None and isinstance(state, dict):
            fixed = table.fixed_state or {}
            rules = GAMES[table.engine].rules
            outcome = rules.outcome({**state, **fixed})
            if outcome is not None:
                table.outcome = get_site(table.engine).outcome_record(outcome)
                fields.append("outcome")
        if fields:
            table.save(update_fields=fields)


class Migration(migrations.Migration):
    dependencies = [("play", "0011_games_seam")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
