"""Hypothesis strategies for commands a game master might type (good and bad)."""

from __future__ import annotations

from hypothesis import strategies as st

from delvetui.procedure.model import Calendar, Procedure

NAMES = ["Ash", "Bryn", "Old Tom", "[red]Cora[/]"]


def commands(procedure: Procedure) -> st.SearchStrategy[str]:
    """Commands of the command language for this procedure, mostly valid."""
    actions = sorted(procedure.actions)
    lights = sorted(procedure.lights)
    name = st.sampled_from(NAMES).map(lambda n: f"'{n}'")
    hazard = st.one_of(st.just(""), st.integers(1, 20).map(lambda n: f" hazard={n}"))
    turn = st.builds(
        lambda action, roll: f"turn {action}{roll}".strip(),
        st.sampled_from(["", *actions]),
        hazard,
    )
    return st.one_of(
        turn,
        turn,
        turn,
        st.builds(
            lambda n, hp: f"pc add {n} hp={hp} CON=12 STR=13 MOD=2", name, st.integers(1, 12)
        ),
        st.builds(lambda n, d: f"pc {n} hp={d:+d}", name, st.integers(-5, 5)),
        st.permutations(NAMES).map(lambda ns: "party order " + " ".join(f"'{n}'" for n in ns[:2])),
        st.builds(
            lambda kind, count: f"light add {kind} count={count}",
            st.sampled_from(lights or ["torch"]),
            st.integers(1, 3),
        ),
        st.sampled_from(lights or ["torch"]).map(lambda kind: f"light on {kind}"),
        st.sampled_from(lights or ["torch"]).map(lambda kind: f"light off {kind}"),
        st.just("undo"),
        st.just("redo"),
        st.just("note a [b]note[/b] <i>"),
        st.builds(lambda h, m: f"time set {h:02d}:{m:02d}", st.integers(0, 23), st.integers(0, 59)),
        st.just("roll 2d6 reaction"),
        st.just("encounter creature='giant rats' distance=40ft"),
        st.just("session start"),
        st.just("session end"),
        st.builds(
            lambda name, n, unit: f"timer add {name} {n}{unit}",
            st.sampled_from(["bless", "fuse"]),
            st.integers(1, 4),
            st.sampled_from(["t", "m", "h"]),
        ),
        st.builds(lambda n: f"timer set bless {n}t", st.integers(1, 3)),
        st.just("timer cancel fuse"),
        st.text(max_size=20),
    )


#: Text a hostile file may hold: terminal escapes (clear, retitle, OSC 52 clipboard), C1,
#: bidirectional and line separators, NUL, and lone surrogates.
HOSTILE_TEXT = [
    "\x1b[2J",
    "\x1b]0;owned\x07",
    "\x1b]52;c;aGk=\x07",
    "\u202e",
    "\x9b31m",
    "\u2028",
    "\x00",
    "\ud800",
    "\udfff and more",
]


def hostile_values() -> st.SearchStrategy[object]:
    """Values to put where a file had another: other types, extreme numbers, hostile text."""
    return st.one_of(
        st.sampled_from([None, True, False, 0, 1, -1, -5, 1.5, "", "x", [], {}, [1], {"a": 1}]),
        st.sampled_from([10**18, -(10**18), 10**300, 2**63, 999_999, 1_000_000]),
        st.integers(-1000, 1000),
        st.sampled_from(HOSTILE_TEXT),
        st.sampled_from(["a" * 20_000, "word " * 5_000, "é" * 3_000]),
        st.text(max_size=12),
    )


@st.composite
def calendars(draw: st.DrawFn) -> Calendar:
    """Sound calendars: 1 to 13 months of 1 to 40 days (one length for all, or one each),
    a week of none to 10 days, and any start the months and the week allow."""
    count = draw(st.integers(1, 13))
    months = tuple(f"Month{n}" for n in range(count))
    days: int | tuple[int, ...] = draw(
        st.one_of(st.integers(1, 40), st.tuples(*[st.integers(1, 40)] * count))
    )
    week = tuple(f"Day{n}" for n in range(draw(st.integers(0, 10))))
    lengths = Calendar(months=months, days=days).lengths()
    month = draw(st.integers(0, count - 1))
    return Calendar(
        months=months,
        days=days,
        week=week,
        # The first month is day 1's whether it is named or not.
        start_month=months[month] if month else draw(st.sampled_from(["", months[0]])),
        start_day=draw(st.integers(1, lengths[month])),
        start_year=draw(st.one_of(st.none(), st.integers(-5000, 5000))),
        start_weekday=draw(st.sampled_from(["", *week])),
    )
