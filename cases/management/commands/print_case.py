"""`manage.py print_case SLUG OUT.pdf [--version N] [--no-solution]`"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cases.printing import case_pdf
from cases.selectors import latest_version_for_slug


class Command(BaseCommand):
    help = (
        "Write a case as a print-and-play PDF: booklet, location cards, answer sheet and "
        "the sealed solution. The newest version unless --version is given."
    )

    def create_parser(self, prog_name, subcommand, **kwargs):
        # Our --version chooses a case version; it replaces Django's "print Django's version".
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("out", help="the PDF file to write")
        parser.add_argument("--version", type=int, dest="number", help="the version number")
        parser.add_argument(
            "--no-solution", action="store_true", help="leave out the sealed solution pages"
        )

    def handle(self, *args, slug, out, number, no_solution, **options):
        version = latest_version_for_slug(slug, number=number)
        if version is None:
            which = f"version {number} of " if number is not None else ""
            raise CommandError(f"there is no {which}case {slug}")
        pdf = case_pdf(version=version, with_solution=not no_solution)
        try:
            Path(out).write_bytes(pdf)
        except OSError as exc:
            raise CommandError(f"cannot write {out}: {exc.strerror}") from None
        self.stdout.write(
            f"Printed {slug} version {version.number} to {out} ({len(pdf) // 1024} KiB)."
        )
