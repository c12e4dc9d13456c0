"""Run the test suite on SQLite and, at the same time, on PostgreSQL.

`make test` calls this. The two passes are independent (each has its own database, its
own servers on free ports, and only the PostgreSQL pass talks to the shared Redis), and
each pass is one pytest process, which keeps one core busy at most: side by side on a
two-core CI machine they finish well before the two would one after the other. Each line
of output is printed as it comes, marked with its pass; each pass's last lines are printed
again at the end, so a failure is easy to find.

`python -m tests.both_databases -x tests/play` passes its arguments to both passes.
"""

import subprocess
import sys
import threading

PASSES = {
    "sqlite": [sys.executable, "-m", "pytest"],
    "postgres": [sys.executable, "-m", "tests.on_postgres"],
}
# The lines at the end of a pass's output worth reading again: pytest's short summary.
SUMMARY_LINES = 60


def _relay(name: str, process: subprocess.Popen, tail: list[str], lock: threading.Lock):
    width = max(map(len, PASSES))
    for line in process.stdout:
        with lock:
            sys.stdout.write(f"[{name:<{width}}] {line}")
            sys.stdout.flush()
        tail.append(line)
        del tail[:-SUMMARY_LINES]


def main(arguments: list[str]) -> int:
    lock = threading.Lock()
    runs = {}
    for name, command in PASSES.items():
        process = subprocess.Popen(
            [*command, *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        tail: list[str] = []
        relay = threading.Thread(target=_relay, args=(name, process, tail, lock), daemon=True)
        relay.start()
        runs[name] = (process, relay, tail)
    codes = {}
    for name, (process, relay, _) in runs.items():
        codes[name] = process.wait()
        relay.join()
    for name, (_, _, tail) in runs.items():
        verdict = "passed" if codes[name] == 0 else f"FAILED (exit code {codes[name]})"
        print(f"\n===== the {name} pass {verdict}; its last lines =====")
        print("".join(tail), end="")
    return 0 if all(code == 0 for code in codes.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
