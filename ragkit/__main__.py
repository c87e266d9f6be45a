"""``python -m ragkit ...``: the ``ragkit`` command, for when the environment's scripts folder is not on PATH."""

import sys

from ragkit.cli import main

sys.exit(main())
