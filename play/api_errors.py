"""What a table's own errors become in the API's one error shape (holmes_site.api_errors):
a stale version is a 409 with the current version, a reused idempotency key a 422, any
other table error a 400. Everything else goes to the site's handler.
"""

from rest_framework import status

from holmes_site.api_errors import api_exception_handler, error_response

from .services import IdempotencyKeyReused, StaleVersion, TableError


def holmes_exception_handler(exc, context):
    if isinstance(exc, StaleVersion):
        return error_response(
            exc.code, str(exc), status.HTTP_409_CONFLICT, {"version": exc.current}
        )
    if isinstance(exc, IdempotencyKeyReused):
        return error_response(exc.code, str(exc), status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, TableError):
        return error_response(exc.code, str(exc), status.HTTP_400_BAD_REQUEST)
    return api_exception_handler(exc, context)
