"""Every example in the README's "From the shell" runs, in the order written, on a fresh
data folder, as a game master would type it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


def shell_examples() -> list[str]:
    """The command lines of the "From the shell" section, comments taken off."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## From the shell", 1)[1].split("\n## ", 1)[0]
    block = [line[4:] for line in section.splitlines() if line.startswith("    ") and line.strip()]
    return [re.sub(r"\s+# .*$", "", example).strip() for example in block]


@pytest.mark.long
def test_every_shell_example_runs_in_order(tmp_path: Path) -> None:
    examples = shell_examples()
    assert len(examples) >= 15
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "delvetui").exists()
    env = {
        **os.environ,
        "DELVETUI_HOME": str(home),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    for example in examples:
        done = subprocess.run(
            example, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, f"{example!r} failed: {done.stderr}"
    assert (work / "crypt.md").exists()
    assert any(home.glob("crypt-copy*.delve"))
