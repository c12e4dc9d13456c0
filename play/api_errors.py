"""One JSON shape for every API error: {"error": {"code", "message", "details"}}.

Refusals by the engine, stale versions, validation errors, 403, 404 and throttling all
come out alike, so clients have one thing to read. Messages never contain another
player's hidden information: they come from the engine's refusal sentences (written for
the acting player) or from the site's own fixed sentences.
"""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from .services import StaleVersion, TableError


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(code: str, message: str, http_status: int, details: dict | None = None):
    return Response(error_body(code, message, details), status=http_status)


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()))
        return (
            f"{field}: {_first_message(value)}"
            if field != "non_field_errors"
            else _first_message(value)
        )
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


def holmes_exception_handler(exc, context):
    if isinstance(exc, StaleVersion):
        return error_response(
            exc.code, str(exc), status.HTTP_409_CONFLICT, {"version": exc.current}
        )
    if isinstance(exc, TableError):
        return error_response(exc.code, str(exc), status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = exception_handler(exc, context)
    if response is None:
        return None  # a server error: Django's 500 handling (and logging) takes over
    if isinstance(exc, exceptions.ValidationError):
        body = error_body("invalid", _first_message(exc.detail), {"fields": exc.detail})
    else:
        code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        message = _first_message(exc.detail) if hasattr(exc, "detail") else str(exc)
        body = error_body(code if isinstance(code, str) else "error", message)
    response.data = body
    return response
