"""How far a procedure's rolls can run: tables that roll themselves, and chains that fan out.

A table's row may roll another table (``do = "roll"``, in its effects or in a check's
branches), whose row may roll another. The chains are followed here, before an expedition
plays the procedure: a table that leads back to itself would roll for ever, and a chain in
which each table rolls the next twice doubles with every table (seventeen such tables wrote
327,684 events for one turn). The loader refuses both, naming the chain; the core refuses a
command that goes past ``core.work.MAX_COMMAND_EVENTS`` all the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import attrs

from delvetui.procedure.model import Effect, Procedure
from delvetui.procedure.tree import MAX_ROLL_DEPTH, nested_effects

#: The most rolls of tables one command may lead to, counted through every chain of
#: tables at its worst (each check failing and succeeding, every table rolled at its
#: longest row). The shipped procedures lead to at most a few.
MAX_COMMAND_ROLLS = 1_000
#: Counts past this are not followed further (a chain of doubling tables grows without end).
_CAP = 10**9
#: The most cycles named, when a file holds many.
_MAX_CYCLES = 10

#: A table's rows, each as the tables its effects roll, each with the key path of the roll.
Edges = dict[str, list[list[tuple[str, str]]]]


@attrs.frozen
class Reach:
    """What one roll on a table can lead to, at its worst."""

    #: Rolls of tables, this one included.
    rolls: int
    #: The tables of the longest chain of rolls from it, this one included.
    depth: int
    #: The chain that makes the most rolls, as (table, times its row rolls it).
    chain: tuple[tuple[str, int], ...]


def problems(procedure: Procedure) -> list[tuple[str, str]]:
    """Every way the procedure's rolls run away, as (key path, sentence)."""
    edges = roll_edges(procedure)
    found = [
        (
            f"{ref}.table",
            f"tables.{cycle[0]} rolls itself: {_joined(list(cycle))}; a table that leads back "
            "to itself would roll for ever.",
        )
        for cycle, ref in cycles(edges)
    ]
    if found:
        return found
    reach = reaches(edges)
    found = _too_far(edges, reach)
    if found:
        return found
    for group in ("actions", "activities"):
        for name, action in getattr(procedure, group).items():
            turns, per_turn = command_rolls(procedure, reach, name, action.effects)
            if turns * per_turn > MAX_COMMAND_ROLLS:
                found.append(
                    (
                        f"{group}.{name}",
                        f"can roll tables {turns * per_turn:,} times in one command "
                        f"({turns} turns of up to {per_turn:,} rolls each); a command may "
                        f"roll at most {MAX_COMMAND_ROLLS:,}.",
                    )
                )
    return found


def roll_edges(procedure: Procedure) -> Edges:
    """Each table's rows as the tables their effects roll (a check's branches included)."""
    edges: Edges = {}
    for name, table in procedure.tables.items():
        edges[name] = [
            [
                (effect.table, ref)
                for ref, effect in nested_effects(f"tables.{name}.rows[{i}].effects", row.effects)
                if effect.do == "roll" and effect.table in procedure.tables
            ]
            for i, row in enumerate(table.rows)
        ]
    return edges


def _targets(edges: Edges, table: str) -> Iterator[tuple[str, str]]:
    for row in edges[table]:
        yield from row


def cycles(edges: Edges) -> list[tuple[tuple[str, ...], str]]:
    """Chains of rolls that lead back to where they began (``('a', 'b', 'a')``), each with
    the key path of its first roll; found by one depth-first walk (no recursion)."""
    found: list[tuple[tuple[str, ...], str]] = []
    done: set[str] = set()
    for root in edges:
        if root in done:
            continue
        path = [root]
        via: list[str] = []  # via[i]: the roll that leads from path[i] to path[i + 1]
        walks = [_targets(edges, root)]
        on_path = {root}
        while walks and len(found) < _MAX_CYCLES:
            step = next(walks[-1], None)
            if step is None:
                walks.pop()
                node = path.pop()
                on_path.discard(node)
                done.add(node)
                if via:
                    via.pop()
                continue
            target, ref = step
            if target in on_path:
                start = path.index(target)
                refs = [*via[start:], ref]
                found.append(((*path[start:], target), refs[0]))
            elif target not in done:
                path.append(target)
                via.append(ref)
                on_path.add(target)
                walks.append(_targets(edges, target))
    return found


def reaches(edges: Edges) -> dict[str, Reach]:
    """What one roll on each table can lead to (the tables lead to no cycle)."""
    reach: dict[str, Reach] = {}
    for root in edges:
        if root in reach:
            continue
        pending = [root]
        while pending:
            table = pending[-1]
            waiting = [t for t, _ in _targets(edges, table) if t not in reach]
            if waiting:
                pending.extend(waiting)
                continue
            pending.pop()
            if table in reach:
                continue
            best = 0
            chain: tuple[tuple[str, int], ...] = ()
            for row in edges[table]:
                counts: dict[str, int] = {}
                for target, _ref in row:
                    counts[target] = counts.get(target, 0) + 1
                total = sum(reach[t].rolls * n for t, n in counts.items())
                if total > best:
                    heaviest = max(counts, key=lambda t: reach[t].rolls * counts[t])
                    best = total
                    first = ((table, counts[heaviest]),)
                    chain = (*first, *reach[heaviest].chain)
            depth = 1 + max((reach[t].depth for t, _ in _targets(edges, table)), default=0)
            reach[table] = Reach(min(_CAP, 1 + best), depth, chain or ((table, 1),))
    return reach


def list_rolls(reach: dict[str, Reach], effects: Sequence[Effect]) -> int:
    """The most rolls of tables a list of effects leads to (its checks' branches too)."""
    return min(
        _CAP,
        sum(
            reach[effect.table].rolls
            for _ref, effect in nested_effects("", effects)
            if effect.do == "roll" and effect.table in reach
        ),
    )


def command_rolls(
    procedure: Procedure, reach: dict[str, Reach], name: str, effects: Sequence[Effect]
) -> tuple[int, int]:
    """The turns one command of an action takes at most, and the most rolls of tables one
    of its turns leads to: every roll the procedure makes each turn, the action's effects,
    a track's ``over`` and a rest's ``on_skip`` (each as if it happened)."""
    per_turn = list_rolls(reach, effects)
    for rule in procedure.rolls.values():
        tables = {rule.table, *rule.tables.values()} - {""}
        per_turn += max((reach[t].rolls for t in tables if t in reach), default=0)
        per_turn += max(list_rolls(reach, rule.on_hit), list_rolls(reach, rule.on_miss))
    for track in procedure.tracks.values():
        per_turn += list_rolls(reach, track.over)
    if procedure.rest is not None:
        per_turn += list_rolls(reach, procedure.rest.on_skip)
    action = procedure.actions.get(name) or procedure.activities.get(name)
    turns = max(
        [1, action.turns if action is not None else 1]
        + [level.turns.get(name, 1) for level in procedure.light_levels.values()]
    )
    return turns, min(_CAP, per_turn)


def chain_text(chain: Sequence[tuple[str, int]]) -> str:
    """A chain of rolls in words: 't0 → t1 ×2 → t2 ×2' (×2: its row rolls it twice)."""
    steps = [chain[0][0]] + [
        f"{table} ×{times}" if times > 1 else table
        for (_before, times), (table, _next) in itertools.pairwise(chain)
    ]
    return _joined(steps)


def _joined(steps: list[str]) -> str:
    """Steps of a chain joined by arrows; a long one by its first and last few."""
    if len(steps) > 8:
        steps = [*steps[:5], "…", *steps[-2:]]
    return " → ".join(steps)


def _too_far(edges: Edges, reach: dict[str, Reach]) -> list[tuple[str, str]]:
    """The tables whose chains go too deep or roll too often, each named once: only those
    no other such table rolls (the top of the chain)."""
    over = {t for t, r in reach.items() if r.rolls > MAX_COMMAND_ROLLS or r.depth > MAX_ROLL_DEPTH}
    below = {target for table in over for target, _ in _targets(edges, table)}
    found: list[tuple[str, str]] = []
    for table in sorted(over - below, key=list(edges).index):
        r = reach[table]
        chain = chain_text(r.chain)
        shown = f"{r.rolls:,}" if r.rolls < _CAP else f"more than {_CAP:,}"
        if r.depth > MAX_ROLL_DEPTH:
            many = f", which can lead to {shown} rolls of tables" if r.rolls > r.depth else ""
            found.append(
                (
                    f"tables.{table}",
                    f"starts a chain of {r.depth} tables, each rolling the next ({chain}){many}; "
                    f"a chain may be at most {MAX_ROLL_DEPTH} tables long.",
                )
            )
        else:
            found.append(
                (
                    f"tables.{table}",
                    f"one roll on it can lead to {shown} rolls of tables ({chain}); one "
                    f"command may roll at most {MAX_COMMAND_ROLLS:,}.",
                )
            )
    return found
