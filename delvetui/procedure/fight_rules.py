"""The loader's checks of the ``[encounter]`` section: the dice a fight rolls, the abilities
it reads, the actions that take its time on the clock, and what a flight needs.

Each names something that must exist for a fight to be played by it: a die that parses, an
ability the party has, an action of kind ``fight`` (taken by the fight alone). A name that
cannot come about is reported with the names that can.
"""

from __future__ import annotations

from delvetui.procedure.effect_kinds import Checks
from delvetui.text import suggest


def check_encounter(checks: Checks) -> None:
    """Every key of ``[encounter]`` that names something, each problem by its key path."""
    p = checks.procedure
    rules = p.encounter
    for key in ("initiative_dice", "hit_die", "morale_dice"):
        given = getattr(rules, key)
        if given:
            checks.dice(f"encounter.{key}", given)
    # A retainer's morale score need not be one of the abilities: any member may be given it
    # (``pc add Bo hp=4 ML=7``), as the built-in scores are.
    reads = {
        "initiative_ability": rules.initiative_ability,
        "first_round_save": rules.first_round_save,
        "flight_ability": rules.flight_ability,
    }
    listed = [ability.upper() for ability in p.party.abilities]
    for key, ability in reads.items():
        if ability and listed and ability.upper() not in listed:
            checks.problem(
                f"encounter.{key}",
                f"'{ability}' is not one of the party's abilities ({', '.join(listed)})."
                + suggest(ability.upper(), listed),
            )
    if rules.initiative in ("each", "save", "score") and not rules.initiative_ability:
        checks.problem(
            "encounter.initiative_ability",
            f"initiative '{rules.initiative}' reads each member's ability: name it "
            '(initiative_ability = "DEX").',
        )
    if rules.initiative in ("sides", "each", "odd-even") and not rules.initiative_dice:
        checks.problem("encounter.initiative_dice", "names no die for initiative to roll.")
    if rules.flight == "save" and not rules.flight_ability:
        checks.problem(
            "encounter.flight_ability",
            'flight "save" has each character save under an ability: name it '
            '(flight_ability = "DEX").',
        )
    if rules.flight == "faster" and not p.movement.base_speed:
        checks.problem(
            "encounter.flight",
            "flight \"faster\" compares the party's speed with the pursuers', but [movement] "
            "gives the party none: give base_speed (and member_speed for each member's own).",
        )
    if rules.flight_action and rules.flight_action not in p.actions:
        checks.problem(
            "encounter.flight_action",
            f"names the action '{rules.flight_action}', which does not exist."
            + suggest(rules.flight_action, list(p.actions)),
        )
    if rules.morale_when and not rules.morale_dice:
        checks.problem(
            "encounter.morale_when",
            "says when morale is checked, but morale_dice names no dice to check it with.",
        )
    for key in ("round_action", "end_action"):
        name = getattr(rules, key)
        if not name:
            continue
        action = p.actions.get(name)
        path = f"encounter.{key}"
        if action is None:
            fights = [n for n, a in p.actions.items() if a.kind == "fight"]
            known = ", ".join(fights) or "the procedure has no action of kind fight"
            checks.problem(path, f"names the action '{name}', which does not exist ({known}).")
        elif action.kind != "fight":
            checks.problem(
                path,
                f"names '{name}', an action of kind {action.kind}: a fight's turn is an action "
                'of kind "fight", which only the fight takes.',
            )
    if rules.round_action and rules.end_action:
        checks.problem(
            "encounter.end_action",
            "the rounds already take their turns (round_action): a fight's end charges no "
            "more; give one of round_action and end_action.",
        )
    for name, action in p.actions.items():
        taken = (rules.round_action, rules.end_action, rules.flight_action)
        if action.kind == "fight" and name not in taken:
            checks.problem(
                f"actions.{name}.kind",
                "is fight, but [encounter] takes no turn of it (round_action, end_action, "
                "flight_action).",
            )
