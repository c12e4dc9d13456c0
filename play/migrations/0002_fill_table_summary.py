"""Fill Table.summary for tables made before it was kept: the case's slug and title, and
for started games the seats (number, name, colour), which views now read from it."""

from django.db import migrations


def fill(apps, schema_editor):
    Table = apps.get_model("play", "Table")
    Seat = apps.get_model("play", "Seat")
    tables = Table.objects.select_related("case_version__case").filter(summary={})
    for table in tables.iterator():
        summary = {
            "case": {"slug": table.case_version.case.slug, "title": table.case_version.title}
        }
        if table.status != "lobby":
            seats = Seat.objects.filter(table=table).select_related("user").order_by("number")
            summary["seats"] = [
                {
                    "number": seat.number,
                    "name": seat.user.display_name or seat.user.username,
                    "colour": seat.colour,
                }
                for seat in seats
            ]
        table.summary = summary
        table.save(update_fields=["summary"])


class Migration(migrations.Migration):
    dependencies = [("play", "0001_initial")]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
