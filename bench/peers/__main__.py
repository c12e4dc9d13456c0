"""`python -m bench.peers [--tables 50,200,1000] [--seconds S] [--rounds N] [--sides ...]`:
the comparison in this process, with options (`python -m bench peers` runs it in a child,
bounded in time, with the options of the HOLMES_PEERS_* variables)."""

import sys

from bench.peers.run import Options, run

if __name__ == "__main__":
    sys.exit(run(Options.from_flags(sys.argv[1:])))
