from django.db import migrations, models


def computers_are_normal(apps, schema_editor):
    # Every computer player seated before strengths existed played as the normal one.
    Seat = apps.get_model("play", "Seat")
    Seat.objects.filter(user__isnull=True, held_by__isnull=True, left_at__isnull=True).exclude(
        bot_name=""
    ).update(bot_level="normal")


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0021_table_socket_wants_views"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_level",
            field=models.CharField(
                blank=True,
                default="",
                help_text="A computer player's strength (BOT_LEVELS); empty for a person.",
                max_length=10,
            ),
        ),
        migrations.RunPython(computers_are_normal, migrations.RunPython.noop),
    ]
