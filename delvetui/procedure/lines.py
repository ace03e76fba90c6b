"""Where each key path of a procedure's TOML text is defined, for the loader's problems.

TOML parsers keep no positions, so a light scan of the lines finds each table header and
each key (``tables.hazard.rows[2].roll``); a problem names the line of its key, or of the
nearest enclosing key.
"""

from __future__ import annotations

import re


class LineMap:
    """Where each key path is defined in the text, found by a light scan of the lines."""

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
    _KEY = re.compile(r"^\s*([A-Za-z0-9_.\"'-]+)\s*=")

    def __init__(self, text: str) -> None:
        self.lines: dict[str, int] = {}
        arrays: dict[str, int] = {}
        prefix = ""
        for number, line in enumerate(text.splitlines(), start=1):
            header = self._HEADER.match(line)
            if header is not None:
                name = _unquote(header.group(2))
                if header.group(1) == "[[":
                    arrays[name] = arrays.get(name, -1) + 1
                prefix = _indexed(name, arrays)
                self.lines.setdefault(prefix, number)
                continue
            key = self._KEY.match(line)
            if key is not None:
                path = f"{prefix}.{_unquote(key.group(1))}" if prefix else _unquote(key.group(1))
                self.lines.setdefault(path, number)

    def line(self, path: str) -> int | None:
        """The line of the key path or of its nearest enclosing key."""
        while path:
            if path in self.lines:
                return self.lines[path]
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return None


def _unquote(name: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in name.split("."))


def _indexed(name: str, arrays: dict[str, int]) -> str:
    """Turn ``tables.hazard.rows`` into ``tables.hazard.rows[2]`` for arrays of tables."""
    out: list[str] = []
    plain: list[str] = []
    for part in name.split("."):
        plain.append(part)
        key = ".".join(plain)
        out.append(f"{part}[{arrays[key]}]" if key in arrays else part)
    return ".".join(out)
