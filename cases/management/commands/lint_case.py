"""`manage.py lint_case PATH_OR_SLUG`"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cases.lint import lint_package
from cases.package.data import problem_report
from cases.package.reader import read_package_path
from cases.selectors import case_lint_slug


class Command(BaseCommand):
    help = (
        "Check a case package (a folder or .zip), or the newest version of a case on this "
        "site (by slug, as its exported package). Fails when there are errors."
    )

    def add_arguments(self, parser):
        parser.add_argument("target", help="a package folder or .zip, or a case slug")

    def handle(self, *args, target, **options):
        # A folder or zip of that name wins over a case's slug.
        if Path(target).exists():
            _, problems = lint_package(read_package_path(target))
        else:
            problems = case_lint_slug(slug=target)
            if problems is None:
                raise CommandError(f"there is no folder, zip or case called {target}")
        self.stdout.write(problem_report(problems))
        if any(problem.is_error for problem in problems):
            raise CommandError("the case has errors")
