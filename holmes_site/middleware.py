"""Site-wide middleware: request ids and one structured log line per request; a clear 503
(never a 500) when the database cannot be reached; and the API's one JSON error shape even
for the errors Django answers itself (an unknown /api/ URL, a server error)."""

import logging
import re
import time
import uuid

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject

from .api_errors import error_body
from .logging import request_id_var, table_id_var

request_logger = logging.getLogger("holmes.request")
logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
REQUEST_ID_HEADER = "X-Request-ID"
# A proxy's request id is kept if it looks like one; anything else is replaced, so a
# client cannot write arbitrary text into the logs.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,100}")


class RequestLogMiddleware:
    """Give each request an id (the proxy's X-Request-ID, or a new one), make it and the
    table id available to every log line, answer it in X-Request-ID, and log one line
    when the request ends: method, path, status, duration, user and table."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        given = request.headers.get(REQUEST_ID_HEADER, "")
        request.request_id = given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
        request_token = request_id_var.set(request.request_id)
        table_token = table_id_var.set(None)
        started = time.monotonic()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request.request_id
            request_logger.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round((time.monotonic() - started) * 1000, 1),
                    "user_id": _user_id_if_known(request),
                    "table_id": getattr(request, "table_id", None),
                },
            )
            return response
        finally:
            table_id_var.reset(table_token)
            request_id_var.reset(request_token)

    def process_view(self, request, view_func, view_args, view_kwargs):
        table_id = view_kwargs.get("table_id")
        if table_id is not None:
            request.table_id = table_id  # for the request's own line, whatever the context
            table_id_var.set(table_id)  # for the lines written while it is served
        return None


def _user_id_if_known(request) -> int | None:
    """The user's id if the request already looked it up: logging must not query the
    database (it may be down, and the line would cost a query)."""
    user = getattr(request, "_cached_user", None)  # set by django.contrib.auth's lazy user
    if user is None:
        candidate = request.__dict__.get("user")  # DRF stores the user it authenticated
        if candidate is not None and not isinstance(candidate, SimpleLazyObject):
            user = candidate
    return getattr(user, "pk", None)


DATABASE_DOWN_MESSAGE = (
    "The casebook is closed for a moment: the database cannot be reached. Try again shortly."
)
RETRY_AFTER_SECONDS = 10


class DatabaseUnavailableMiddleware:
    """A view that cannot reach the database answers 503 with a sentence, in the API's one
    error shape on /api/ and as a small page elsewhere, instead of a 500.

    Whatever the view was writing is rolled back by its transaction (every service is
    atomic), so there is nothing half-written to clean up. The page is rendered without
    the request: context processors would query the database again.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error("The database cannot be reached: %s", exception, exc_info=exception)
        if request.path.startswith(API_PREFIX):
            response = JsonResponse(
                error_body("database_unavailable", DATABASE_DOWN_MESSAGE), status=503
            )
        else:
            page = render_to_string("503.html", {"message": DATABASE_DOWN_MESSAGE})
            response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response


DJANGO_ERRORS = {
    # Django's own 400: a request it could not read (a body over the size limit when the
    # API did not read it first, a host not allowed...).
    400: ("bad_request", "The request could not be read."),
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
    500: ("server_error", "Something went wrong on our side; it has been logged."),
}


class ApiJsonErrorsMiddleware:
    """An /api/ error that Django, not the API, answered (no URL matched, a server error)
    comes out in the one error shape too, never as an HTML page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            request.path.startswith(API_PREFIX)
            and response.status_code in DJANGO_ERRORS
            and not response.get("Content-Type", "").startswith("application/json")
            # In development the 500 page is the traceback: keep it.
            and not (response.status_code == 500 and settings.DEBUG)
        ):
            code, message = DJANGO_ERRORS[response.status_code]
            replaced = JsonResponse(error_body(code, message), status=response.status_code)
            if response.has_header("Allow"):
                replaced["Allow"] = response["Allow"]
            return replaced
        return response
