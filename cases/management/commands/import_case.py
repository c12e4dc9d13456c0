"""`manage.py import_case PATH_OR_ZIP [--publish] [--author USERNAME]`"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from cases.package.data import problem_report
from cases.package.reader import read_package_path
from cases.services import PackageInvalid, case_import_package


class Command(BaseCommand):
    help = (
        "Import a case package (a folder, or a .zip of it) as a new version of its case: "
        "a draft, or the published version with --publish. A package with errors changes "
        "nothing; every problem is listed."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the package folder or .zip")
        parser.add_argument("--publish", action="store_true", help="publish the new version")
        parser.add_argument("--author", help="username of the author of a new case")

    def handle(self, *args, path, publish, author, **options):
        user = None
        if author:
            user = get_user_model().objects.filter(username=author).first()
            if user is None:
                raise CommandError(f"there is no user {author}")
        try:
            result = case_import_package(
                files=read_package_path(path), author=user, publish=publish
            )
        except PackageInvalid as invalid:
            self.stdout.write(problem_report(invalid.problems))
            raise CommandError("the package has errors; nothing was imported") from None
        self.stdout.write(problem_report(result.problems))
        version = result.version
        self.stdout.write(
            f"Imported {version.case.slug} as version {version.number} ({version.status})."
        )
