"""`python -m service.verifier FILE|URL`: the verifier on its own, without the `meow` script."""
from __future__ import annotations

import sys

from service.verifier.cli import run

if __name__ == "__main__":
    sys.exit(run())
