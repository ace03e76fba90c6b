"""``python -m delvetui.core.commands docs/commands.md`` writes the reference part anew."""

import sys

from delvetui.core.commands.reference import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
