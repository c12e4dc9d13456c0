"""Load the demo accounts, publish the sample cases, and give the demo author a case in
progress and one waiting for review (development only).

It is authoring's: it uses accounts, cases and the review workflow, and only the top app
may import all three."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from accounts.services import demo_accounts_ensure
from authoring import services as authoring
from cases.models import Case
from cases.package.reader import read_package_path
from cases.services import PackageInvalid, case_import_package

SAMPLE_CASES = Path(settings.BASE_DIR) / "fixtures" / "cases"
# The demo author's own work: a draft still being written, and a case submitted for
# review, so the editor and the moderator queue have something in them on the first run.
DEMO_DRAFT = Path(settings.BASE_DIR) / "fixtures" / "demo" / "the-lamplighters-ledger"
DEMO_SUBMITTED = Path(settings.BASE_DIR) / "fixtures" / "demo" / "the-thames-tide-table"


def _case_folders(root: Path) -> list[Path]:
    return sorted(path for path in root.iterdir() if (path / "case.md").exists())


class Command(BaseCommand):
    help = (
        "Create the demo accounts (each in its role), publish the sample cases in "
        "fixtures/cases/, and give the demo author a draft and a submitted case."
    )

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "Demo accounts have known passwords: load_demo runs only with HOLMES_DEBUG=1."
            )
        accounts = demo_accounts_ensure()
        author = User.objects.get(username="author")
        authoring.user_make_author(user=author)
        authoring.user_make_moderator(user=User.objects.get(username="moderator"))
        for folder in _case_folders(SAMPLE_CASES):
            self._load_case(folder, author, "published", publish=True)
        self._load_case(DEMO_DRAFT, author, "a draft of the demo author")
        self._load_case(DEMO_SUBMITTED, author, "submitted for review", submit=True)
        self.stdout.write("\nDemo accounts (development only):")
        for account in accounts:
            self.stdout.write(
                f"  {account.username:<10} password {account.password:<18} {account.role}"
            )
        self.stdout.write(
            "\nThe site: http://127.0.0.1:8000/   the editor: http://127.0.0.1:8000/admin/"
        )

    @transaction.atomic
    def _load_case(
        self, folder: Path, author: User, label: str, *, publish=False, submit=False
    ) -> None:
        if Case.objects.filter(slug=folder.name).exists():
            self.stdout.write(f"Case {folder.name}: already loaded")
            return
        try:
            result = case_import_package(
                files=read_package_path(folder), author=author, publish=publish
            )
        except PackageInvalid as invalid:
            problems = "\n".join(str(problem) for problem in invalid.problems)
            raise CommandError(f"Case {folder.name} does not import:\n{problems}") from None
        if submit:
            authoring.case_submit(version=result.version, user=author)
        self.stdout.write(f"Case {folder.name}: {label} ({result.version.title})")
