from django.urls import path, re_path

from holmes_site import converters  # noqa: F401 (<id:...>)

from .consumers import NoSuchSocketConsumer, TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
    # Last: whatever matched nothing above is refused, not raised.
    re_path(r"", NoSuchSocketConsumer.as_asgi()),
]
