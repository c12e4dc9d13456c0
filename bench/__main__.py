"""Run the benchmarks and print their figures.

`python -m bench` runs them all (but ON_REQUEST); `python -m bench engine answers` runs those named.
A benchmark that takes options is named alone, first, with its options after it:
`python -m bench bots --game sherlock_mycroft --games 100`.
Those in ON_REQUEST run only when named (`python -m bench nodes`): they need what a
plain machine may lack (HAProxy, root to install it).
Helper modules of this package (settings, URLs, the harness) are not benchmarks.
"""

import importlib
import sys
import time

# The order runs the quick, in-process figures first and the server benchmarks last.
BENCHMARKS = [
    *("engine", "games", "bots", "answers", "casebook", "api", "load", "journey", "peers"),
    "nodes",
]
ON_REQUEST = {"nodes"}
# Those whose main() takes its command line's options.
TAKE_OPTIONS = {"bots"}


USAGE = f"""usage: python -m bench [{" ".join(BENCHMARKS)}]
       python -m bench bots [--help | options]

Runs the benchmarks named (all but {", ".join(sorted(ON_REQUEST))}, in this order, when none
is), each with the settings of its HOLMES_* variables; `python -m bench.peers --help` and
`python -m bench.nodes --help` list those ones' options."""


def main(argv: list[str]) -> int:
    if argv and argv[0] in TAKE_OPTIONS:
        return run([argv[0]], options=argv[1:])
    if any(name in ("-h", "--help") for name in argv):
        print(USAGE)
        return 0
    unknown = [name for name in argv if name not in BENCHMARKS]
    if unknown:
        # Checked before anything runs: a flag meant for one benchmark (`peers --tables`)
        # would otherwise fail only after the benchmarks named before it had run.
        print(f"bench: no benchmark named {unknown[0]!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    return run(argv or [name for name in BENCHMARKS if name not in ON_REQUEST])


def run(names: list[str], options: list[str] | None = None) -> int:
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        if options is None:
            module.main()
        else:
            module.main(options)
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
