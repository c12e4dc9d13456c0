"""CPU time and memory of one side of the comparison, read from /proc.

A side is its server's processes (each started in its own process group, with every
process it forks), Redis for Holmes (its channel layer and broker: part of its work,
though a machine-wide process), and the PostgreSQL backends serving its database, found
by name in pg_stat_activity. CPU is user + system time (utime + stime of
/proc/<pid>/stat), counted per process: one started meanwhile counts whole, one that
ended counts nothing (pooled backends live as long as the run).

Memory is the server's processes' RSS and their PSS (/proc/<pid>/smaps_rollup), on both
sides alike. Holmes's web workers are forked from a parent that loaded the site
(holmes_site/serve.py) and share those pages: RSS counts a shared page once in every
process that maps it, PSS divides it between them, so the sum of PSS is what the side
holds; a single process (the peer's Node server) has about the same figure either way.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class ProcStat:
    pid: int
    name: str
    parent: int
    cpu: float  # seconds, user + system
    rss: int  # bytes


def parse_stat(pid: int, text: str) -> ProcStat:
    """One line of /proc/<pid>/stat. The name is in parentheses and may hold spaces."""
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is the 3rd field of proc(5): state; ppid 4th, utime 14th, stime 15th, rss 24th
    cpu = (int(fields[11]) + int(fields[12])) / TICKS
    return ProcStat(pid, name, int(fields[1]), cpu, int(fields[21]) * PAGE)


def proportional_size(pid: int) -> int:
    """Bytes: the process's proportional set size (0 if it ended or cannot be read)."""
    with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/smaps_rollup") as rollup:
        for line in rollup:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


def run_time(pid: int) -> float | None:
    """Seconds on a CPU of the process's live threads, to the nanosecond (the first field of
    /proc/<pid>/task/<tid>/schedstat); None if the kernel keeps no such figure. The clock
    ticks of /proc/<pid>/stat are 10 ms: over a minute of a process that barely wakes, one
    tick more or less is 0.17 ms/s. A thread that ended takes its time with it, so this
    is for idle processes (`Meter.sample(precise=True)`)."""
    total = 0
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with (
                contextlib.suppress(FileNotFoundError),
                open(f"/proc/{pid}/task/{tid}/schedstat") as f,
            ):
                total += int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return total / 1e9


def all_processes() -> dict[int, ProcStat]:
    processes = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        # A process may end between listing and reading.
        with (
            contextlib.suppress(OSError, ValueError, IndexError),
            open(f"/proc/{entry}/stat") as stat,
        ):
            processes[int(entry)] = parse_stat(int(entry), stat.read())
    return processes


def tree(processes: dict[int, ProcStat], roots: list[int]) -> list[ProcStat]:
    """The roots and every process descended from them."""
    children: dict[int, list[int]] = {}
    for process in processes.values():
        children.setdefault(process.parent, []).append(process.pid)
    found, todo = [], [root for root in roots if root in processes]
    while todo:
        pid = todo.pop()
        found.append(processes[pid])
        todo.extend(children.get(pid, []))
    return found


def database_backends(admin_url: str, database: str) -> list[int]:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True, connect_timeout=5) as db:
        rows = db.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [database])
        return [pid for (pid,) in rows.fetchall()]


@dataclass
class Sample:
    cpu: dict[tuple[str, int], float] = field(default_factory=dict)  # (part, pid) -> seconds
    server_rss: int = 0  # bytes, the server's own processes
    server_pss: int = 0  # bytes, the same processes' proportional share (see above)


@dataclass
class Meter:
    """What one side uses: `sample()` before and after the measured window."""

    roots: list[int]  # the server's process groups (their leaders)
    admin_url: str
    database: str | None  # its PostgreSQL database, if it has one
    machine_wide: tuple[str, ...] = ()  # process names counted as their own part (redis)
    # Processes of the side's own outside its tree, each counted as a part: (part, pid)
    own: tuple[tuple[str, int], ...] = ()

    def sample(self, *, precise: bool = False) -> Sample:
        """CPU time and memory now; `precise`: CPU from the live threads' run time
        (`run_time`) where the kernel keeps it, for the idle figures."""
        processes = all_processes()
        if precise:
            for process in processes.values():
                process.cpu = run_time(process.pid) or process.cpu
        sample = Sample()
        for process in tree(processes, self.roots):
            sample.cpu["server", process.pid] = process.cpu
            sample.server_rss += process.rss
            sample.server_pss += proportional_size(process.pid)
        for process in processes.values():
            if process.name in self.machine_wide:
                sample.cpu[process.name, process.pid] = process.cpu
        for part, pid in self.own:
            if pid in processes:
                sample.cpu[part, pid] = processes[pid].cpu
        if self.database:
            for pid in database_backends(self.admin_url, self.database):
                if pid in processes:
                    sample.cpu["database", pid] = processes[pid].cpu
        return sample


def used(before: Sample, after: Sample) -> dict[str, float]:
    """CPU seconds each part used between two samples."""
    parts: dict[str, float] = {}
    for (part, pid), seconds in after.cpu.items():
        parts[part] = parts.get(part, 0.0) + seconds - before.cpu.get((part, pid), 0.0)
    return parts
