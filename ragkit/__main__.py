"""``python -m ragkit ...``: the ``ragkit`` command, for when the environment's scripts folder is not on PATH."""

import sys

from ragkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
