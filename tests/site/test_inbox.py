"""The channel layer's queue for each consumer (holmes_site/channel_layer.py Inbox): what
asyncio.Queue gave the layer and uvicorn's protocol, holding nothing while empty."""

import asyncio

import pytest

from holmes_site.channel_layer import Inbox


def test_messages_come_out_in_the_order_they_went_in():
    async def main():
        inbox = Inbox()
        for number in range(3):
            inbox.put_nowait(number)
        assert (inbox.qsize(), inbox.empty()) == (3, False)
        got = [await inbox.get() for _ in range(3)]
        assert (inbox.qsize(), inbox.empty()) == (0, True)
        return got

    assert asyncio.run(main()) == [0, 1, 2]


def test_a_reader_waits_for_the_next_message():
    async def main():
        inbox = Inbox()
        reading = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        assert not reading.done()
        inbox.put_nowait("news")
        return await asyncio.wait_for(reading, timeout=5)

    assert asyncio.run(main()) == "news"


def test_a_message_that_comes_as_the_reader_is_cancelled_waits_for_the_next():
    async def main():
        inbox = Inbox()
        reading = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        inbox.put_nowait("kept")
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading
        return await asyncio.wait_for(inbox.get(), timeout=5)

    assert asyncio.run(main()) == "kept"


def test_a_second_reader_at_once_is_refused():
    async def main():
        inbox = Inbox()
        first = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        with pytest.raises(RuntimeError, match="one reader"):
            await inbox.get()
        first.cancel()

    asyncio.run(main())
