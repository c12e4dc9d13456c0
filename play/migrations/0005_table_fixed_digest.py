"""Tables name the fixed part of their state by its digest, so that a process reads each
case's once and moves leave the column out of their read (play/models.py)."""

import hashlib

import orjson
from django.db import migrations, models


def digest_for(fixed: dict | None) -> str:
    # play.models.fixed_digest_for as written with this migration: a migration does not
    # follow later changes to the code.
    if not fixed:
        return ""
    return hashlib.sha256(orjson.dumps(fixed, option=orjson.OPT_SORT_KEYS)).hexdigest()


def name_fixed_parts(apps, schema_editor):
    Table = apps.get_model("play", "Table")
    started = Table.objects.filter(fixed_state__isnull=False).only("fixed_state")
    for table in started.iterator():
        digest = digest_for(table.fixed_state)
        Table.objects.filter(pk=table.pk).update(fixed_digest=digest)


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0004_table_fixed_state"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="fixed_digest",
            field=models.CharField(
                blank=True,
                default="",
                editable=False,
                help_text="The SHA-256 of fixed_state (fixed_digest_for), which names it in "
                "caches.",
                max_length=64,
            ),
        ),
        # Reversed, the column goes, and the digests with it.
        migrations.RunPython(name_fixed_parts, migrations.RunPython.noop),
    ]
