"""A play-test's `moderator` is its `tester`: authors play-test their own drafts too."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("authoring", "0004_review_threads_and_snapshots"),
    ]

    operations = [
        migrations.RenameField(
            model_name="playtest",
            old_name="moderator",
            new_name="tester",
        ),
    ]
