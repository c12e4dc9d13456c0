"""Structured logs: every record carries the request id (and the table id when the request
concerns a table), and production writes one JSON object per line.

The ids live in context variables set by `holmes_site.middleware.RequestLogMiddleware`, so
a log line written anywhere while a request is served (a service, a broker warning) says
which request it belongs to. Development keeps a readable console unless
HOLMES_LOG_FORMAT=json.
"""

import contextvars
import json
import logging
from datetime import UTC, datetime

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "holmes_request_id", default=None
)
table_id_var: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "holmes_table_id", default=None
)

# Attributes every LogRecord has: anything else was passed with `extra=` and is logged.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "request_id",
    "table_id",
    "request_tag",
}


class RequestContextFilter(logging.Filter):
    """Copy the current request and table ids onto the record (None outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get()
        if getattr(record, "table_id", None) is None:
            record.table_id = table_id_var.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, ids, and any extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ("request_id", "table_id"):
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        for name, value in vars(record).items():
            if name not in _STANDARD and not name.startswith("_"):
                entry[name] = value if _is_json(value) else str(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class ConsoleFormatter(logging.Formatter):
    """Development: a readable line, with the request id when there is one."""

    def __init__(self):
        super().__init__("%(levelname)s %(name)s%(request_tag)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        request_id = getattr(record, "request_id", None)
        record.request_tag = f" [{request_id}]" if request_id else ""
        return super().format(record)


def _is_json(value) -> bool:
    return value is None or isinstance(value, str | int | float | bool | list | dict)
