"""The table sockets' database work, on a thread of its own in each process.

Channels' `database_sync_to_async` cost about 0.22 ms of CPU a call on the benchmark
machine before the function even ran: asgiref's SyncToAsync copies the caller's context
variables into the thread and every one of them back afterwards. A socket calls the
database for every move and every other ping, so a thousand tables paid it a hundred times
a second. A plain executor's hop costs a fraction of that (`python -m bench peers`: the
figures are in the commit that brought this module).

What database_sync_to_async does besides, this does too: old connections are closed
before and after each call (with the scaled set-up's pool, the connection goes back to
it), and the work runs where no event loop runs, as Django's database layer requires.
One thread, as asgiref's: the sockets of a process take turns at the database, and a
process holds at most one connection for them. Context variables are not carried over:
the functions run here take what they need as arguments.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import close_old_connections

_executor: ThreadPoolExecutor | None = None
_executor_pid: int | None = None
_lock = threading.Lock()


async def in_socket_thread(function, /, **kwargs):
    """`function(**kwargs)` on the sockets' database thread; its result, or its error."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_the_executor(), functools.partial(_run, function, kwargs))


def _run(function, kwargs: dict):
    close_old_connections()
    try:
        return function(**kwargs)
    finally:
        close_old_connections()


def _the_executor() -> ThreadPoolExecutor:
    """This process's executor, made on first use (again in a forked child: threads do
    not survive a fork)."""
    global _executor, _executor_pid
    with _lock:
        if _executor is None or _executor_pid != os.getpid():
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="holmes-sockets")
            _executor_pid = os.getpid()
        return _executor
