"""The engine state's column becomes json on PostgreSQL (EngineStateField says why).

A database migrated before this has it as jsonb (0004 made it so); a new one already
gets json from 0004, and this changes nothing there. SQLite keeps text either way."""

from django.db import migrations


def column_type(type_name: str):
    def alter(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f"ALTER TABLE play_table ALTER COLUMN state TYPE {type_name} "
                f"USING state::{type_name}"
            )

    return alter


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0007_table_sockets"),
    ]

    operations = [
        migrations.RunPython(column_type("json"), column_type("jsonb")),
    ]
