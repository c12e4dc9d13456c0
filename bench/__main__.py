"""Run the benchmarks and print their figures.

`python -m bench` runs them all; `python -m bench engine answers` runs only those named.
Helper modules of this package (settings, URLs, the harness) are not benchmarks.
"""

import importlib
import sys
import time

# The order runs the quick, in-process figures first and the server benchmarks last.
BENCHMARKS = ["engine", "games", "answers", "casebook", "api", "load", "peers"]


def main(argv: list[str]) -> int:
    names = argv or BENCHMARKS
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
