"""`manage.py export_case SLUG DEST [--version N]`"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from cases.package.writer import PackageWriteError, write_folder, write_zip
from cases.selectors import case_export_package, latest_version_for_slug


class Command(BaseCommand):
    help = (
        "Write a case as a package: into the folder DEST, or a zip when DEST ends in .zip. "
        "The newest version unless --version is given."
    )

    def create_parser(self, prog_name, subcommand, **kwargs):
        # Our --version chooses a case version; it replaces Django's "print Django's version".
        return super().create_parser(prog_name, subcommand, conflict_handler="resolve", **kwargs)

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("dest", help="a folder, or a path ending in .zip")
        parser.add_argument("--version", type=int, dest="number", help="the version number")

    def handle(self, *args, slug, dest, number, **options):
        version = latest_version_for_slug(slug, number=number)
        if version is None:
            which = f"version {number} of " if number is not None else ""
            raise CommandError(f"there is no {which}case {slug}")
        files = case_export_package(version=version)
        dest = Path(dest)
        try:
            if dest.suffix.lower() == ".zip":
                write_zip(files, dest, folder=slug)
            else:
                write_folder(files, dest)
        except (PackageWriteError, OSError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Exported {slug} version {version.number} to {dest}.")
