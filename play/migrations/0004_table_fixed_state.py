"""Tables keep the part of the engine state that no move changes (the case) in a column of
its own, written once, so that each move writes only the rest (play/models.py)."""

from django.db import migrations, models

import play.models

# The engines' FIXED_KEYS when this migration was written: a migration does not follow
# later changes to the code.
FIXED_KEYS = {"watson_holmes": ("case",)}


def split_states(apps, schema_editor):
    # Safe to meet a row twice while iterating the table it updates (SQLite may): a split
    # state has no fixed key left, and a joined one no fixed part.
    Table = apps.get_model("play", "Table")
    for table in Table.objects.filter(state__isnull=False).only("engine", "state").iterator():
        keys = [key for key in FIXED_KEYS.get(table.engine, ()) if key in table.state]
        if keys:
            fixed = {key: table.state[key] for key in keys}
            rest = {key: value for key, value in table.state.items() if key not in fixed}
            Table.objects.filter(pk=table.pk).update(state=rest, fixed_state=fixed)


def join_states(apps, schema_editor):
    Table = apps.get_model("play", "Table")
    for table in Table.objects.filter(fixed_state__isnull=False).only("state", "fixed_state").iterator():
        state = {**(table.state or {}), **table.fixed_state}
        Table.objects.filter(pk=table.pk).update(state=state, fixed_state=None)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0003_seat_event_ordering_by_column"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="fixed_state",
            field=models.JSONField(
                blank=True,
                editable=False,
                help_text="The part of the state that no move changes, written when the game "
                "starts.",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="state",
            field=play.models.EngineStateField(blank=True, null=True),
        ),
        migrations.RunPython(split_states, join_states),
    ]
