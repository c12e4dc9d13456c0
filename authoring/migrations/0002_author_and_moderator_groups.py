"""The "Authors" and "Moderators" groups and their permissions.

Permissions are normally created after all migrations ran (post_migrate); a fresh
database has none yet, so they are created here first.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

AUTHORS = "Authors"
MODERATORS = "Moderators"
CONTENT_MODELS = ("case", "caseversion", "question", "location", "zone")

GROUP_PERMISSIONS = {
    AUTHORS: [
        *(f"cases.{action}_{model}" for model in CONTENT_MODELS
          for action in ("view", "add", "change", "delete")),
        "cases.view_nearmiss",
        "authoring.submit_case",
        "authoring.view_reviewcomment",
    ],
    MODERATORS: [
        *(f"cases.view_{model}" for model in CONTENT_MODELS),
        "authoring.review_case",
        "authoring.view_review",
        "authoring.view_reviewcomment",
        "authoring.add_reviewcomment",
    ],
}  # fmt: skip


def create_groups(apps, schema_editor):
    for label in ("cases", "authoring"):
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    group_model = apps.get_model("auth", "Group")
    permission_model = apps.get_model("auth", "Permission")
    for name, codes in GROUP_PERMISSIONS.items():
        group, _ = group_model.objects.get_or_create(name=name)
        for code in codes:
            app_label, codename = code.split(".")
            group.permissions.add(
                permission_model.objects.get(
                    content_type__app_label=app_label, codename=codename
                )
            )


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=[AUTHORS, MODERATORS]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("authoring", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("cases", "0002_answer_attempts"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
