"""The table websocket: members subscribe and hear "version N exists"; a player who
connects with `?views=1` is sent their own view when the socket opens and after each
move instead (play/live.py).

A socket answers `{"type": "ping"}` and, from a player, `{"type": "move", ...}`: the API's
move by the socket (play/socket_moves.py). Anything else a client sends is answered, never
raised: text that is not a JSON object, or that the site's guard refuses (nested too deep,
say: holmes_site/safe_input.py), gets an error message (the socket stays open), a
binary frame closes the socket as unsupported data (1003). A member may hold at most
MAX_SOCKETS_PER_MEMBER sockets on a table (play/presence.py): one more closes with
CLOSE_TOO_MANY_SOCKETS. When the database does not answer, a socket that opens is closed
with CLOSE_TRY_AGAIN_LATER (each refusal accepts the socket first, so the code reaches
the client), a ping is answered all the same and a move is refused with a
sentence: never a server error (1011).
"""

import contextlib
import logging
import time
from urllib.parse import parse_qs

import orjson
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer
from django.db import DatabaseError
from django.http import Http404

from holmes_site.safe_input import json_refusal

from . import presence, selectors
from .live import HeldPushes, send_pushes, table_group, view_group, viewers_group
from .pushed_views import table_body
from .socket_moves import refused_reply, socket_move
from .socket_thread import in_socket_thread

logger = logging.getLogger(__name__)

# Close codes in the application range (4000-4999): the client shows why and stops retrying.
# Each is sent after the handshake is accepted (`refuse`): a close before it reaches the
# client as a failed handshake (HTTP 403), without its code.
CLOSE_NOT_A_MEMBER = 4403
CLOSE_NO_SUCH_SOCKET = 4404
CLOSE_TOO_MANY_SOCKETS = 4429
CLOSE_UNSUPPORTED_DATA = 1003  # RFC 6455: a binary frame where only text is read
CLOSE_TRY_AGAIN_LATER = 1013  # RFC 6455 (IANA registry): the database did not answer
# A move is a few hundred characters; anything this long is not one of ours.
MAX_FRAME_CHARACTERS = 8000
NOT_AN_OBJECT = 'Send a JSON object, such as {"type": "ping"}.'
SPECTATORS_DO_NOT_MOVE = "Spectators cannot make moves."
NO_DATABASE = "The table cannot be reached just now: try again in a moment."


class TableConsumer(AsyncJsonWebsocketConsumer):
    socket_id: int | None = None  # this socket's row (play/presence.py), once counted
    seat_id: int | None = None  # a player's seat; None for a spectator
    user_id: int | None = None
    groups_joined: tuple[str, ...] = ()
    version_sent = -1  # the newest version this socket has told of
    wants_views = False  # a player's socket that asked for its own views
    counted_until = 0.0  # when its row stops counting, as this socket last wrote it

    async def dispatch(self, message):
        """Channels' dispatch, without its hop to a thread to close old database
        connections before every message: each frame, view and hint paid for one. This
        consumer touches the database only through in_socket_thread, which closes them in
        the thread where they are used, before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message):
        """Channels' own, without its hop to a thread to close old database connections
        after `disconnect`, as `dispatch` skips the one before each message: this
        consumer's database work closes them in its own thread (in_socket_thread)."""
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def connect(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        # Counted before joining the group: a move that commits from now on pushes to it.
        try:
            membership = await self._arrive()
        except presence.TooManySockets:
            await refuse(self, CLOSE_TOO_MANY_SOCKETS)
            return
        except DatabaseError:  # down, or every connection busy for too long
            await refuse(self, CLOSE_TRY_AGAIN_LATER)
            return
        if membership is None:
            await refuse(self, CLOSE_NOT_A_MEMBER)
            return
        if self.wants_views:
            self.groups_joined = (
                viewers_group(self.table_id),
                view_group(self.table_id, self.user_id),
            )
        else:
            self.groups_joined = (table_group(self.table_id),)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if self.wants_views:
            await self._send_first_view(membership.table.version)
        else:
            # The version now, so a client that reconnects knows at once whether to catch up.
            await self._tell_version(membership.table.version)

    async def _send_first_view(self, version: int) -> None:
        """A socket that asked for its views gets its own view first, the body the API's
        GET would answer: a program needs no fetch to start, or after reconnecting (at a
        thousand tables arriving at once, that fetch was the larger half of an arrival's
        cost). Built after joining the groups: a move that commits from now on reaches
        this socket too, and one that committed before is in this view."""
        try:
            body = await in_socket_thread(self._own_view)
        except DatabaseError:
            await self._tell_version(version)  # the client fetches its view instead
            return
        if body is None:  # the seat was left in the meantime
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.version_sent = max(self.version_sent, body["version"])
        await self.send_json({"type": "view", "version": body["version"], "view": body})

    def _asks_for_views(self) -> bool:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        return query.get("views") == ["1"]

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.socket_id is not None:
            socket_id, self.socket_id = self.socket_id, None
            try:
                await in_socket_thread(presence.socket_close, socket_id=socket_id)
            except DatabaseError:
                logger.warning("Could not forget socket %s: it lapses by itself", socket_id)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if text_data is None:
            await self.close(code=CLOSE_UNSUPPORTED_DATA)
            return
        content = None
        if len(text_data) <= MAX_FRAME_CHARACTERS:
            with contextlib.suppress(orjson.JSONDecodeError):
                content = orjson.loads(text_data)
        if not isinstance(content, dict):
            await self.send_json({"type": "error", "message": NOT_AN_OBJECT})
            return
        # The site's guard (holmes_site/safe_input.py), as for the API's bodies: a move
        # nested a thousand deep (orjson reads 1024) raised RecursionError in the move's
        # fingerprint, and the socket died without a close frame, its row left counting.
        refusal = json_refusal(content, what="The message")
        if refusal:
            await self.send_json({"type": "error", "message": refusal})
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content, **kwargs):
        if content.get("type") == "move":
            await self._move(content)
            return
        # A ping also says the player is still at the table.
        if content.get("type") == "ping":
            if self._counted_for_a_while():
                await self.send_json({"type": "pong"})
                return
            renewed_at = time.monotonic()
            try:
                socket_id = await in_socket_thread(
                    presence.socket_refresh,
                    socket_id=self.socket_id,
                    table_id=self.table_id,
                    seat_id=self.seat_id,
                    user_id=self.user_id,
                    wants_views=self.wants_views,
                )
            except DatabaseError:
                # Not renewed: the next ping tries again (the row counts 90 s meanwhile).
                await self.send_json({"type": "pong"})
                return
            self.socket_id = socket_id
            if self.socket_id is None:  # their seat or the table is gone
                await self.close(code=CLOSE_NOT_A_MEMBER)
                return
            self.counted_until = renewed_at + presence.PRESENCE_SECONDS
            await self.send_json({"type": "pong"})

    def _counted_for_a_while(self) -> bool:
        """Whether the socket's row counts long enough yet that this ping need not renew
        it (presence.RENEW_WITHIN_SECONDS). A ping that does not renew checks nothing
        either: a player who left their seat is closed out by a later one."""
        return self.counted_until - time.monotonic() > presence.RENEW_WITHIN_SECONDS

    async def _move(self, content: dict) -> None:
        pushes = HeldPushes()
        if self.seat_id is None:
            reply = refused_reply("not_a_player", SPECTATORS_DO_NOT_MOVE, content)
        else:
            try:
                reply, pushes = await in_socket_thread(
                    socket_move, table_id=self.table_id, user=self.scope["user"], content=content
                )
            except DatabaseError:
                reply = refused_reply("unavailable", NO_DATABASE, content)
        if reply["type"] == "moved":
            # The answer holds the new view: the hint of this version is news to no one.
            self.version_sent = max(self.version_sent, reply["version"])
        await self.send_json(reply)
        # The move's pushes, from this loop, whose connection to the layer is open already.
        await send_pushes(self.channel_layer, pushes.sends, pushes.single)

    @classmethod
    async def encode_json(cls, content):
        return orjson.dumps(content).decode()

    async def table_version(self, message):
        await self._tell_version(message["version"])

    async def table_view(self, message):
        """This player's own view (sent to their group only): it also tells the version.
        The frame comes as JSON text, built once by the move (play/live.py)."""
        if message["version"] > self.version_sent:
            self.version_sent = message["version"]
            await self.send(text_data=message["frame"])

    async def _tell_version(self, version: int) -> None:
        # A view of this version (or a newer one) already told it: the hint is news to no one.
        if version > self.version_sent:
            self.version_sent = version
            await self.send_json({"type": "version", "version": version})

    async def _arrive(self) -> selectors.Membership | None:
        return await in_socket_thread(self._arrive_here)

    def _own_view(self) -> dict | None:
        try:
            membership = selectors.api_membership_for(
                table_id=self.table_id, user=self.scope["user"]
            )
        except Http404:
            return None
        if membership.seat is None:
            return None
        return table_body(membership)

    def _arrive_here(self) -> selectors.Membership | None:
        """The user's membership of the table, with this socket counted there (as their
        presence, for a player); None, and nothing counted, for anyone else.
        TooManySockets when they hold as many as a member may."""
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
        self.user_id = user.pk
        self.wants_views = self.seat_id is not None and self._asks_for_views()
        self.counted_until = time.monotonic() + presence.PRESENCE_SECONDS
        self.socket_id = presence.socket_open(
            table_id=self.table_id,
            seat_id=self.seat_id,
            user_id=user.pk,
            wants_views=self.wants_views,
        )
        return membership if self.socket_id is not None else None


class NoSuchSocketConsumer(AsyncWebsocketConsumer):
    """Every other websocket path (a table id beyond any id, say): refused with a close
    code, where Channels' router would raise (a traceback in the server's log)."""

    async def connect(self):
        await refuse(self, CLOSE_NO_SUCH_SOCKET)


async def refuse(consumer: AsyncWebsocketConsumer, code: int) -> None:
    """Accept the handshake, then close with `code`: closed before the accept, the socket
    fails its handshake (the ASGI servers answer HTTP 403) and neither a browser nor a
    program ever reads the code."""
    await consumer.accept()
    await consumer.close(code=code)
