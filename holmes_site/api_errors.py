"""One JSON shape for every API error: {"error": {"code", "message", "details"}}.

Refusals by the engine, stale versions, validation errors, 403, 404 and throttling all
come out alike, so clients have one thing to read. Messages never contain another
player's hidden information: they come from the engine's refusal sentences (written for
the acting player) or from the site's own fixed sentences.

This is plumbing: every app's API (accounts, play) answers in this shape, so it lives
below them all. What a table's own errors become (a stale version is a 409...) is play's
to say: `play.api_errors` maps those, then hands everything else to `api_exception_handler`.
"""

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(code: str, message: str, http_status: int, details: dict | None = None):
    return Response(error_body(code, message, details), status=http_status)


def first_message(detail) -> str:
    if isinstance(detail, dict):
        field, value = next(iter(detail.items()))
        return (
            f"{field}: {first_message(value)}"
            if field != "non_field_errors"
            else first_message(value)
        )
    if isinstance(detail, list) and detail:
        return first_message(detail[0])
    return str(detail)


def api_exception_handler(exc, context):
    """DRF's exception handler, answering in the one shape (Django's own errors too)."""
    if isinstance(exc, RequestDataTooBig):
        return error_response("too_large", too_large_message(), 413)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, DjangoValidationError):
        # A service's own check (a notebook's marks, say): the client's mistake, a 400.
        exc = exceptions.ValidationError(exc.messages)
    response = exception_handler(exc, context)
    if response is None:
        return None  # a server error: Django's 500 handling (and logging) takes over
    if isinstance(exc, exceptions.ValidationError):
        body = error_body("invalid", first_message(exc.detail), {"fields": exc.detail})
    elif isinstance(exc, exceptions.Throttled):
        wait = max(1, round(exc.wait or 60))
        message = f"Too many tries in a short time: wait {wait} seconds and try again."
        body = error_body("throttled", message, {"wait_seconds": wait})
    else:
        code = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
        message = first_message(exc.detail) if hasattr(exc, "detail") else str(exc)
        body = error_body(code if isinstance(code, str) else "error", message)
    response.data = body
    return response


def too_large_message() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return f"The request body is too large: the API reads at most {limit} bytes."


# --- The error responses in the OpenAPI schema -------------------------------------------
# Every operation documents the errors it can answer, each in the one shape above, so that
# clients (and the schemathesis fuzzing test) know every status they may get.

ERROR_COMPONENT = "Error"
ERROR_SCHEMA = {
    "type": "object",
    "description": "The one shape of every API error.",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "For machines: bad_invite, ..."},
                "message": {"type": "string", "description": "For people: one sentence."},
                "details": {"type": "object", "additionalProperties": True},
            },
            "required": ["code", "message", "details"],
        }
    },
    "required": ["error"],
}
ERROR_DESCRIPTIONS = {
    "400": "The request is invalid, or the rules refuse it (error.code, and a sentence).",
    "401": "The API token is not valid: expired (token_expired), revoked, or never issued.",
    "403": "Not logged in, or not allowed to do this.",
    "404": "No such object, or none you may see.",
    "413": "The body is over the size the API reads (DATA_UPLOAD_MAX_MEMORY_SIZE).",
    "415": "The body is not in a supported format: send JSON.",
    "409": "The table moved on since expected_version; details.version is the current one.",
    "422": "The idempotency key was already used for another move: send a new key.",
    "429": "Too many tries in a short time; details.wait_seconds says how long to wait.",
    "503": "The database cannot be reached for a moment; try again shortly.",
}
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def document_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: add the error responses each operation can
    give (from its method, parameters, permissions and throttles), in the one shape.

    A status only the view knows of (a move's 409 and 422) it names itself, without a
    body (`responses={409: None}`); the hook gives it the description and the shape."""
    from rest_framework.permissions import AllowAny

    result.setdefault("components", {}).setdefault("schemas", {})[ERROR_COMPONENT] = ERROR_SCHEMA
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path, _regex, method, view in generator.endpoints:
        operation = result["paths"].get(path, {}).get(method.lower())
        if operation is None:
            continue
        view_class = view.cls
        parameters = operation.get("parameters", [])
        responses = operation.setdefault("responses", {})
        codes = {"503"} | {code for code in responses if code in ERROR_DESCRIPTIONS}
        if method in WRITE_METHODS or any(p["in"] == "query" for p in parameters):
            codes.add("400")
        if "requestBody" in operation:
            codes.update(("413", "415"))
        # A path names an object; a write may name one in its body (a case, a table).
        if method in WRITE_METHODS or any(p["in"] == "path" for p in parameters):
            codes.add("404")
        if not all(issubclass(p, AllowAny) for p in view_class.permission_classes):
            codes.update(("401", "403"))
        if view_class.throttle_classes:
            codes.add("429")
        for code in sorted(codes):
            if responses.get(code, {}).get("content"):
                continue  # documented by the view itself
            responses[code] = {
                "description": ERROR_DESCRIPTIONS[code],
                "content": {"application/json": {"schema": reference}},
            }
    return result
