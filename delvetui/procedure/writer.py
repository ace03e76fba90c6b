"""Write a procedure back as TOML (tomli-w), leaving out values that are the defaults.

Used by ``delvetui procedures show ID``; reading the output back gives the same procedure.
"""

from __future__ import annotations

from typing import Any

import attrs
import tomli_w

from delvetui.procedure.model import Calendar, Procedure


def to_data(value: Any) -> Any:
    """A model object as plain TOML data, with default values left out."""
    if attrs.has(type(value)):
        out: dict[str, Any] = {}
        for field in attrs.fields(type(value)):
            if isinstance(value, Procedure) and field.name == "text":
                continue
            item = getattr(value, field.name)
            default = field.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if item == default or item is None:
                continue
            out[field.name] = to_data(item)
        return out
    if isinstance(value, dict):
        return {key: to_data(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [to_data(item) for item in value]
    return value


def dump(procedure: Procedure) -> str:
    """The procedure as TOML text."""
    return tomli_w.dumps(to_data(procedure))


def calendar_text(calendar: Calendar) -> str:
    """A calendar as a calendar file's text (one ``[calendar]`` table): what ``CalendarSet``
    keeps when an expedition names its procedure's calendar as its own."""
    return tomli_w.dumps({"calendar": to_data(calendar)})
