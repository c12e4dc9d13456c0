"""URL converters. `<id:table_id>` is a database id: up to 18 digits, so always within a
64-bit integer. Django's `<int:...>` takes any number of digits, and an id above 2**63
made SQLite raise OverflowError (a 500) before the query could find nothing; now such a
URL matches no pattern and answers 404."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
