"""Load the demo accounts and publish the sample cases (development only)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.services import demo_accounts_ensure
from cases.models import Case
from cases.package.reader import read_package_path
from cases.services import PackageInvalid, case_import_package

SAMPLE_CASES = Path(settings.BASE_DIR) / "fixtures" / "cases"


class Command(BaseCommand):
    help = "Create the demo accounts and publish the sample cases in fixtures/cases/."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "Demo accounts have known passwords: load_demo runs only with HOLMES_DEBUG=1."
            )
        accounts = demo_accounts_ensure()
        author = User.objects.get(username="author")
        for folder in sorted(
            path for path in SAMPLE_CASES.iterdir() if (path / "case.md").exists()
        ):
            self._load_case(folder, author)
        self.stdout.write("\nDemo accounts (development only):")
        for account in accounts:
            self.stdout.write(
                f"  {account.username:<10} password {account.password:<18} {account.role}"
            )
        self.stdout.write(
            "\nThe site: http://127.0.0.1:8000/   the editor: http://127.0.0.1:8000/admin/"
        )

    def _load_case(self, folder: Path, author: User) -> None:
        if Case.objects.filter(slug=folder.name).exists():
            self.stdout.write(f"Sample case {folder.name}: already loaded")
            return
        try:
            result = case_import_package(
                files=read_package_path(folder), author=author, publish=True
            )
        except PackageInvalid as invalid:
            problems = "\n".join(str(problem) for problem in invalid.problems)
            raise CommandError(f"Sample case {folder.name} does not import:\n{problems}") from None
        self.stdout.write(f"Sample case {folder.name}: published ({result.version.title})")
