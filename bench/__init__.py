"""Benchmarks printed by `make bench`.

Every module in this package that defines `main()` is run in turn by `python -m bench`.
"""
