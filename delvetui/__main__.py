"""``python -m delvetui`` runs the same program as the ``delvetui`` command."""

import sys

from delvetui.cli import main

sys.exit(main())
