"""Run every benchmark module of this package and print its figures.

`python -m bench` runs them all; `python -m bench engine answers` runs only those named.
"""

import importlib
import pkgutil
import sys
import time

import bench


def benchmark_names() -> list[str]:
    return sorted(
        module.name
        for module in pkgutil.iter_modules(bench.__path__)
        if not module.name.startswith("_")
    )


def main(argv: list[str]) -> int:
    names = argv or benchmark_names()
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
