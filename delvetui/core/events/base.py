"""The base of every event: its registry by type name and version, its payload, and the
upcasters that read an older version's payload.

Each family of events (``party``, ``lights``...) registers its classes here with
``@event(version)`` and its upcasters with ``@upcaster(TYPE, VERSION)``; the package
(``delvetui.core.events``) gives every class by its name.
"""

import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from delvetui.values import Value

if TYPE_CHECKING:
    pass

_T = TypeVar("_T")

#: Every event class by its stable type name.
EVENT_TYPES: dict[str, type["Event"]] = {}
#: The schema version written for each event type.
SCHEMA_VERSIONS: dict[str, int] = {}
#: An upcaster: a payload of one version as the next version writes it.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
#: How a payload of an older version is read: (type name, version) → the payload as the
#: next version writes it. ``from_payload`` runs them in order from the stored version up to
#: the one this program writes, so an event class only ever sees payloads of its own
#: version. Every version bump has its upcaster (tests/test_event_coverage.py), at the end of
#: its event's family module.
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def event(version: int = 1) -> Callable[[type[_T]], type[_T]]:
    """Register an event class under its name with a schema version."""

    def register(cls: type[_T]) -> type[_T]:
        EVENT_TYPES[cls.__name__] = cls  # type: ignore[assignment]
        SCHEMA_VERSIONS[cls.__name__] = version
        return cls

    return register


@attrs.frozen(repr=False, eq=False)
class Event(Value):
    """Base of every event."""

    @property
    def type(self) -> str:
        """The stable type name stored in the expedition file."""
        return type(self).__name__

    def to_payload(self) -> dict[str, Any]:
        """The event's fields as JSON-able data (name/value pairs as a JSON object)."""
        data = attrs.asdict(self)
        for field in attrs.fields(type(self)):
            if field.metadata.get("pairs"):
                data[field.name] = dict(getattr(self, field.name))
        return data

    @classmethod
    def from_payload(cls, type_name: str, version: int, payload: dict[str, Any]) -> "Event":
        """Rebuild an event from the file; unknown types or versions raise ValueError.

        Every field is checked against its declared type first (TypeError otherwise):
        checksums catch damage, not a file made by hand, and a field of the wrong type
        would otherwise pass here and break the replay far away.
        """
        event_type = EVENT_TYPES.get(type_name)
        if event_type is None:
            raise ValueError(f"unknown event type {type_name!r}")
        if version > SCHEMA_VERSIONS[type_name]:
            raise ValueError(f"{type_name} version {version} is newer than this program")
        payload = upcast(type_name, version, payload)
        wrong = wrong_field(type_name, payload)
        if wrong is not None:
            held = type(payload[wrong]).__name__
            raise TypeError(f"{type_name}.{wrong} holds {held}, not what the field takes")
        return event_type(**payload)


def upcast(type_name: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """A payload stored at ``version`` as the version this program writes gives it."""
    for older in range(version, SCHEMA_VERSIONS[type_name]):
        step = UPCASTERS.get((type_name, older))
        if step is not None:
            payload = step(payload)
    return payload


def upcaster(type_name: str, version: int) -> Callable[[Upcaster], Upcaster]:
    """Register the decorated function as the upcaster of ``type_name`` payloads at ``version``."""

    def register(step: Upcaster) -> Upcaster:
        UPCASTERS[(type_name, version)] = step
        return step

    return register


_FIELD_TYPES: dict[str, dict[str, Any]] = {}


def wrong_field(type_name: str, payload: dict[str, Any]) -> str | None:
    """The first field of the payload whose value is not of the field's type, if any."""
    if type_name not in _FIELD_TYPES:
        _FIELD_TYPES[type_name] = typing.get_type_hints(EVENT_TYPES[type_name])
    hints = _FIELD_TYPES[type_name]
    for name, value in payload.items():
        if name in hints and not _fits(hints[name], value):
            return name
    return None


def _fits(hint: Any, value: object) -> bool:
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_fits(arg, value) for arg in args)
    if origin is tuple:
        if isinstance(value, dict) and args and typing.get_origin(args[0]) is tuple:
            # Name/value pairs are kept in the file as a JSON object (see name_pairs).
            key, item = typing.get_args(args[0])[:2]
            return all(_fits(key, k) and _fits(item, v) for k, v in value.items())
        return isinstance(value, list | tuple) and all(_fits(args[0], item) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            _fits(args[0], key) and _fits(args[1], item) for key, item in value.items()
        )
    return True  # a kind of field this check does not know is left to the class itself


def name_pairs(value: Any) -> tuple[tuple[str, int], ...]:
    """Name/value pairs, sorted and frozen: an event can hold no dict, which could be changed."""
    items = value.items() if isinstance(value, dict) else value
    return tuple(sorted((str(name), int(number)) for name, number in items))


#: The reason an event carries when the game master changed something by hand (``pc``,
#: ``party``, ``counter set``): the log says "The game master ..." for it.
GAME_MASTER = "game master"

#: A field of name/value pairs: a sorted tuple in the event, a JSON object in the file.
PAIRS: dict[str, Any] = {"pairs": True}


def ints(value: Any) -> tuple[int, ...]:
    return tuple(int(item) for item in value)


def strings(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in value)
