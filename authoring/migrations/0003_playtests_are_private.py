"""Play-test tables made before tables could be private become private, and their answer
attempts leave the figures."""

from django.db import migrations


def make_private(apps, schema_editor):
    playtests = apps.get_model("authoring", "Playtest").objects.values("table_id")
    apps.get_model("play", "Table").objects.filter(pk__in=playtests).update(is_private=True)
    apps.get_model("cases", "AnswerAttempt").objects.filter(
        table_attempt__table_id__in=playtests
    ).update(private=True)


class Migration(migrations.Migration):
    dependencies = [
        ("authoring", "0002_author_and_moderator_groups"),
        ("play", "0009_private_tables"),
        ("cases", "0004_private_tables"),
    ]

    operations = [migrations.RunPython(make_private, migrations.RunPython.noop)]
