"""Uploaded files are bounded: a case package's zip is the only upload, and one larger than
a package may be (`cases.package.reader.MAX_ZIP_BYTES`) is cut short as it arrives, so that
it never fills the server's memory or disk. The bytes passed on are one more than the
limit: the reader then refuses the zip with a problem that names the limit."""

from django.core.files.uploadhandler import FileUploadHandler

from .package.reader import MAX_ZIP_BYTES


class UploadSizeLimitHandler(FileUploadHandler):
    """First of FILE_UPLOAD_HANDLERS: passes on each file's first MAX_ZIP_BYTES + 1 bytes
    to the handlers after it (which store them), and drops the rest."""

    limit = MAX_ZIP_BYTES + 1

    def new_file(self, *args, **kwargs):
        super().new_file(*args, **kwargs)
        self.passed = 0

    def receive_data_chunk(self, raw_data, start):
        room = self.limit - self.passed
        if room <= 0:
            return None  # dropped: the handlers after this one never see it
        kept = raw_data[:room]
        self.passed += len(kept)
        return kept

    def file_complete(self, file_size):
        return None  # the next handler makes the file
