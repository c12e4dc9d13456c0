"""The table websocket: members subscribe and hear "version N exists", nothing more."""

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.http import Http404

from . import selectors
from .live import table_group
from .presence import (
    presence_arrive,
    presence_leave,
    presence_refresh,
    watching_refresh,
    watching_start,
    watching_stop,
)

# Close codes in the application range (4000-4999): the client shows why and stops retrying.
CLOSE_NOT_A_MEMBER = 4403


class TableConsumer(AsyncJsonWebsocketConsumer):
    seat: int | None = None  # a player's seat number; None for a spectator

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        membership = await self._membership()
        if membership is None:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.seat = membership.player
        self.group = table_group(self.table_id)
        # Counted before joining the group: a move that commits from now on pushes to it.
        await self._marks(watching_start, presence_arrive)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # The version now, so a client that reconnects knows at once whether to catch up.
        await self.send_json({"type": "version", "version": membership.table.version})

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._marks(watching_stop, presence_leave)

    async def receive_json(self, content, **kwargs):
        # Moves go through the HTTP API (one write path); the socket only answers pings,
        # which also say the player is still at the table.
        if content.get("type") == "ping":
            await self._marks(watching_refresh, presence_refresh)
            await self.send_json({"type": "pong"})

    async def table_version(self, message):
        await self.send_json({"type": "version", "version": message["version"]})

    async def _marks(self, watching, presence) -> None:
        """Count this socket as watching the table and, for a player, as their presence
        (spectators are not waited for), in one hop to a thread."""
        await sync_to_async(self._marks_sync)(watching, presence)

    def _marks_sync(self, watching, presence) -> None:
        watching(table_id=self.table_id)
        if self.seat is not None:
            presence(table_id=self.table_id, seat=self.seat)

    @database_sync_to_async
    def _membership(self) -> selectors.Membership | None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return None
        try:
            return selectors.api_membership_for(table_id=self.table_id, user=user, state=False)
        except Http404:
            return None
