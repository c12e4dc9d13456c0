"""The table errors every write may raise: `code` for machines, the sentence for people.
The API, the page and the socket each show them (play/moves.py says which is which)."""

__all__ = [
    "TableError",
    "StaleVersion",
    "NotSeated",
    "MAX_IDEMPOTENCY_KEY_CHARACTERS",
    "KEY_TOO_LONG",
    "IdempotencyKeyTooLong",
    "IdempotencyKeyReused",
]


class TableError(Exception):
    """A table write the rules of the site refuse; `code` for machines, str for people."""

    code = "table_error"

    def __init__(self, message: str, code: str | None = None):
        super().__init__(message)
        if code:
            self.code = code


class StaleVersion(TableError):
    """The client's move was based on an older version. `table`: the table as the write
    path's lock read it, so that a page can show it as it is now without reading it again
    (nothing was written)."""

    code = "stale_version"

    def __init__(self, *, expected: int, current: int, table=None):
        super().__init__(
            f"The table has moved on (version {current}, you sent {expected}): "
            "reload it and try again."
        )
        self.current = current
        self.table = table


class NotSeated(TableError):
    """The user has no seat at this table (or there is no such table)."""

    code = "not_seated"

    def __init__(self):
        super().__init__("You have no seat at this table.")


# The longest idempotency key a client may send, however it sends it (the API's body or
# Idempotency-Key header, the page's form, a socket's move). A longer one is refused, never
# cut short: two keys cut to the same start would be taken for one request.
MAX_IDEMPOTENCY_KEY_CHARACTERS = 80


KEY_TOO_LONG = (
    f"The idempotency key is too long: at most {MAX_IDEMPOTENCY_KEY_CHARACTERS} characters."
)


class IdempotencyKeyTooLong(TableError):
    """An idempotency key over MAX_IDEMPOTENCY_KEY_CHARACTERS (400)."""

    code = "idempotency_key_too_long"

    def __init__(self):
        super().__init__(KEY_TOO_LONG)


class IdempotencyKeyReused(TableError):
    """An idempotency key sent again with another move than its first request's (422)."""

    code = "idempotency_key_reused"

    def __init__(self):
        super().__init__(
            "This idempotency key was already used for another move: "
            "send a new key with each new move."
        )
