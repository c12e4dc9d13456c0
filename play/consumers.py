"""The table websocket: members subscribe and hear "version N exists", nothing more."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.http import Http404

from . import presence, selectors
from .live import table_group

# Close codes in the application range (4000-4999): the client shows why and stops retrying.
CLOSE_NOT_A_MEMBER = 4403


class TableConsumer(AsyncJsonWebsocketConsumer):
    socket_id: int | None = None  # this socket's row (play/presence.py), once counted
    seat_id: int | None = None  # a player's seat; None for a spectator

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        # Counted before joining the group: a move that commits from now on pushes to it.
        membership = await self._arrive()
        if membership is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.group = table_group(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # The version now, so a client that reconnects knows at once whether to catch up.
        await self.send_json({"type": "version", "version": membership.table.version})

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.socket_id is not None:
            await database_sync_to_async(presence.socket_close)(socket_id=self.socket_id)

    async def receive_json(self, content, **kwargs):
        # Moves go through the HTTP API (one write path); the socket only answers pings,
        # which also say the player is still at the table.
        if content.get("type") == "ping":
            self.socket_id = await database_sync_to_async(presence.socket_refresh)(
                socket_id=self.socket_id, table_id=self.table_id, seat_id=self.seat_id
            )
            if self.socket_id is None:  # their seat or the table is gone
                await self.close(code=CLOSE_NOT_A_MEMBER)
                return
            await self.send_json({"type": "pong"})

    async def table_version(self, message):
        await self.send_json({"type": "version", "version": message["version"]})

    @database_sync_to_async
    def _arrive(self) -> selectors.Membership | None:
        """The user's membership of the table, with this socket counted there (as their
        presence, for a player); None, and nothing counted, for anyone else."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        try:
            membership = selectors.api_membership_for(
                table_id=self.table_id, user=user, state=False
            )
        except Http404:
            return None
        self.seat_id = membership.seat.pk if membership.seat else None
        self.socket_id = presence.socket_open(table_id=self.table_id, seat_id=self.seat_id)
        return membership if self.socket_id is not None else None
