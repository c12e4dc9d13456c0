"""`manage.py new_case SLUG [DEST] [--title TITLE]`"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cases.lint import SLUG
from cases.package.scaffold import scaffold_files
from cases.package.writer import PackageWriteError, write_folder


class Command(BaseCommand):
    help = (
        "Start a new case package in the folder DEST (default: ./SLUG): case.md and three "
        "cards, with placeholders to replace. It lints clean."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="lowercase letters, digits and -")
        parser.add_argument("dest", nargs="?", help="the folder to write (default: ./SLUG)")
        parser.add_argument("--title", help="the case's title (default: from the slug)")

    def handle(self, *args, slug, dest, title, **options):
        if not SLUG.fullmatch(slug):
            raise CommandError(f'the slug "{slug}" may only hold lowercase letters, digits and -')
        title = title or slug.replace("-", " ").capitalize()
        folder = Path(dest or slug)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            # Never over a writer's work: a package folder would be overwritten.
            raise CommandError(f"{folder} already exists and is not empty; choose a new folder")
        try:
            write_folder(scaffold_files(slug=slug, title=title), folder)
        except (PackageWriteError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"Started {slug} in {folder}: replace the placeholders, then "
            f"`manage.py lint_case {folder}` and `manage.py import_case {folder}`."
        )
