"""A free TCP port for a server a test starts, chosen where no other process will take it.

A port the kernel hands out for `bind(port 0)` comes from its ephemeral range, the same
range it draws every outgoing connection's local port from. Between the test closing its
probe and the server binding, any process on the machine (the other database's test run,
a client connecting to PostgreSQL) could take it: the server then failed with "Address
already in use". Ports below the ephemeral range are never handed out by the kernel, so
only another test picking the same one at random could collide, and the probe bind rules
out any that is taken now.
"""

import random
import socket
from pathlib import Path

LOWEST = 10_000
EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def ephemeral_start() -> int:
    try:
        return int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default; other systems have no such file


def free_port(host: str = "127.0.0.1") -> int:
    """A port on `host` that binds now and that the kernel does not hand out itself."""
    highest = ephemeral_start() - 1
    for _ in range(200):
        port = random.randint(LOWEST, highest)
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
        return port
    raise OSError(f"no free port between {LOWEST} and {highest} on {host}")
