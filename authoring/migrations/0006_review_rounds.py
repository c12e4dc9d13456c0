"""Every decision of a review kept as a round of the case's review history. The rounds
that the reviews still remember are written from them: the last request for changes,
and the approval of a published version."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def remembered_rounds(apps, schema_editor):
    Review = apps.get_model("authoring", "Review")
    ReviewRound = apps.get_model("authoring", "ReviewRound")
    rounds = []
    for review in Review.objects.select_related("version"):
        if review.reviewed_at is not None:
            rounds.append(
                ReviewRound(
                    review=review,
                    version_id=review.version_id,
                    moderator_id=review.reviewed_by_id,
                    decision="changes_requested",
                    submitted_at=min(review.submitted_at, review.reviewed_at),
                    claimed_at=review.claimed_at,
                    decided_at=review.reviewed_at,
                )
            )
        if review.version.status in ("published", "archived") and review.decided_at:
            rounds.append(
                ReviewRound(
                    review=review,
                    version_id=review.version_id,
                    moderator_id=review.moderator_id,
                    decision="approved",
                    submitted_at=review.submitted_at,
                    claimed_at=review.claimed_at,
                    decided_at=review.decided_at,
                )
            )
    ReviewRound.objects.bulk_create(rounds)


class Migration(migrations.Migration):

    dependencies = [
        ('authoring', '0005_playtest_tester'),
        ('cases', '0004_private_tables'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ReviewRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('decision', models.CharField(choices=[('changes_requested', 'Changes requested'), ('approved', 'Approved and published')], max_length=20)),
                ('submitted_at', models.DateTimeField()),
                ('claimed_at', models.DateTimeField(blank=True, null=True)),
                ('decided_at', models.DateTimeField(db_index=True)),
                ('moderator', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('review', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='authoring.review')),
                ('version', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='cases.caseversion')),
            ],
            options={
                'ordering': ['decided_at', 'pk'],
            },
        ),
        migrations.RunPython(remembered_rounds, migrations.RunPython.noop),
    ]
