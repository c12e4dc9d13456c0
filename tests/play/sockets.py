"""A test's websocket to the real ASGI application, patient as a loaded machine needs.

Channels' communicator gives up after 1 s of waiting for a handshake or a message. On a
2-core CI machine running a Celery worker, PostgreSQL and the suite, a second is within
the normal spread; a test that waits longer loses nothing when all goes well, and only
`receive_nothing` (a test that expects silence) keeps its short wait."""

from channels.testing import WebsocketCommunicator

PATIENCE_SECONDS = 10


class PatientSocket(WebsocketCommunicator):
    async def connect(self, timeout=PATIENCE_SECONDS):
        return await super().connect(timeout)

    async def receive_from(self, timeout=PATIENCE_SECONDS):
        return await super().receive_from(timeout)

    async def receive_json_from(self, timeout=PATIENCE_SECONDS):
        return await super().receive_json_from(timeout)

    async def receive_output(self, timeout=PATIENCE_SECONDS):
        return await super().receive_output(timeout)

    async def disconnect(self, code=1000, timeout=PATIENCE_SECONDS):
        return await super().disconnect(code, timeout)

    async def refusal(self) -> tuple[bool, int | None]:
        """Open a socket the server refuses: (whether it accepted the handshake, the close
        code it then sent). A client reads the code only after an accepted handshake: to
        a browser or a program a close before the accept is a failed handshake (HTTP 403,
        no code). So a refusal the client can read is (True, code)."""
        connected, code = await self.connect()
        if connected:
            message = await self.receive_output()
            code = message.get("code") if message["type"] == "websocket.close" else None
        return connected, code
