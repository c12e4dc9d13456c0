"""Live updates: a websocket push says only "version N exists"; clients then fetch their
own view. A push is a hint, never the data, so it cannot leak anything, and a lost push
costs nothing: clients also poll with the version as an ETag."""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def push_table_version(*, table_id: int, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            table_group(table_id), {"type": "table.version", "version": version}
        )
    except Exception:  # noqa: BLE001 - Redis down: clients fall back to polling
        logger.warning("Could not push version %s of table %s", version, table_id, exc_info=True)
