"""The headless layers never import the UI toolkit."""

from __future__ import annotations

import subprocess
import sys


def test_core_procedure_store_and_session_import_neither_textual_nor_rich() -> None:
    code = (
        "import sys\n"
        "import delvetui.core.decide, delvetui.core.log, delvetui.core.timeline\n"
        "import delvetui.procedure.registry, delvetui.procedure.writer\n"
        "import delvetui.store, delvetui.session\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
