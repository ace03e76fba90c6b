"""Dice notation: parse expressions like 2d20kh1+3, d6! or 2-in-6, roll them, or record
typed results.

Pure and bounded: every input string either parses or raises ``DiceError`` quickly, and all
randomness comes from an injected ``random.Random`` so rolls are reproducible.
"""

from __future__ import annotations

import itertools
import re
import string
from typing import TYPE_CHECKING

import attrs

from delvetui.errors import DiceError
from delvetui.text import quote

if TYPE_CHECKING:
    import random
    from fractions import Fraction

__all__ = [
    "MAX_DICE",
    "MAX_EXPLOSIONS",
    "MAX_EXPRESSION_LENGTH",
    "MAX_MODIFIER",
    "MAX_SIDES",
    "MAX_TERMS",
    "MAX_VALUE_LENGTH",
    "MIN_SIDES",
    "DiceExpr",
    "DiceTerm",
    "Roll",
    "chances",
    "entered",
    "from_faces",
    "parse",
    "roll",
    "scaled",
    "time_dice",
    "with_mode",
    "with_modifier",
]

MAX_EXPRESSION_LENGTH = 64  # characters
MAX_DICE = 100  # total dice in one expression
MAX_SIDES = 1000  # largest die
MAX_TERMS = 8
MAX_MODIFIER = 10_000
#: The most times one exploding die (d6!) rolls again in a roll: past that the last face
#: stands, so a roll throws at most MAX_DICE × (MAX_EXPLOSIONS + 1) dice and a d6! totals at
#: most 66. The chance of coming to it is 1 in 6**10 for a d6 (1 in 1,024 for a d2).
MAX_EXPLOSIONS = 10

MIN_SIDES = 2
MAX_VALUE_LENGTH = 64  # characters of a typed result
QUOTE_LENGTH = 40

_EXPECTED = "expected something like d6, 2d6+1, 2d20kh1, d6! or 2-in-6"
_ROLL_HINT = "give a number like 4, or faces like 3,4"

# ASCII only and explicit [0-9]: never \d, which also matches other scripts' digits.
_CHANCE = re.compile(r"([0-9]+)-?in-?([0-9]+)")
_DICE = re.compile(r"([0-9]*)d([0-9]+|%)(!?)(?:k([hl]?)([0-9]+))?")
_CONSTANT = re.compile(r"[0-9]+")
_SIGN_SPLIT = re.compile(r"([+-])")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_WHITESPACE = str.maketrans("", "", string.whitespace)


@attrs.frozen
class DiceTerm:
    """One group of identical dice in an expression, such as the 2d20kh1 of 2d20kh1+3."""

    count: int
    sides: int
    keep: int
    highest: bool
    sign: int
    #: Each die that shows its highest face rolls again and adds (d6!), at most
    #: MAX_EXPLOSIONS times; an exploding term keeps every die.
    explode: bool = False

    @property
    def most_per_die(self) -> int:
        """The most one die of this term adds: its sides, or each time it explodes too."""
        return self.sides * (MAX_EXPLOSIONS + 1) if self.explode else self.sides

    @property
    def minimum(self) -> int:
        """The smallest amount this term adds to a total."""
        return self.keep if self.sign > 0 else -self.keep * self.most_per_die

    @property
    def maximum(self) -> int:
        """The largest amount this term adds to a total."""
        return self.keep * self.most_per_die if self.sign > 0 else -self.keep

    @property
    def text(self) -> str:
        """The normalised notation of this term without its sign, e.g. d20, 4d6kh3 or d6!."""
        count = "" if self.count == 1 else str(self.count)
        keep = "" if self.keep == self.count else f"k{'h' if self.highest else 'l'}{self.keep}"
        return f"{count}d{self.sides}{'!' if self.explode else ''}{keep}"


@attrs.frozen
class DiceExpr:
    """A parsed dice expression: dice terms plus a constant modifier, or an X-in-N chance."""

    text: str
    terms: tuple[DiceTerm, ...]
    modifier: int
    chance: tuple[int, int] | None = None

    @property
    def minimum(self) -> int:
        """The lowest total this expression can roll."""
        return sum(term.minimum for term in self.terms) + self.modifier

    @property
    def maximum(self) -> int:
        """The highest total this expression can roll."""
        return sum(term.maximum for term in self.terms) + self.modifier

    @property
    def dice(self) -> int:
        """How many dice one roll of this expression throws (before any explodes)."""
        return sum(term.count for term in self.terms)

    @property
    def explodes(self) -> bool:
        """True when a die of it rolls again on its highest face (d6!)."""
        return any(term.explode for term in self.terms)

    def with_advantage(self) -> DiceExpr:
        """Roll a single die twice and keep the higher (d20+2 -> 2d20kh1+2); others unchanged."""
        return self._doubled(highest=True)

    def with_disadvantage(self) -> DiceExpr:
        """Roll a single die twice and keep the lower (d20+2 -> 2d20kl1+2); others unchanged."""
        return self._doubled(highest=False)

    def _doubled(self, *, highest: bool) -> DiceExpr:
        if self.chance is not None or len(self.terms) != 1:
            return self
        term = self.terms[0]
        if term.count != 1 or term.sign != 1 or term.explode:
            return self
        doubled = DiceTerm(count=2, sides=term.sides, keep=1, highest=highest, sign=1)
        return DiceExpr(
            text=_expression_text((doubled,), self.modifier),
            terms=(doubled,),
            modifier=self.modifier,
        )


@attrs.frozen
class Roll:
    """The result of rolling an expression, or of a result the game master typed in."""

    expression: str
    faces: tuple[int, ...]
    kept: tuple[int, ...]
    modifier: int
    total: int
    hit: bool | None
    entered: bool


def _quote(text: str) -> str:
    """Quote user text for an error message: made visible, at most QUOTE_LENGTH characters."""
    return quote(text, QUOTE_LENGTH)


def _expression_text(terms: tuple[DiceTerm, ...], modifier: int) -> str:
    parts: list[str] = []
    for index, term in enumerate(terms):
        if term.sign < 0:
            parts.append("-")
        elif index > 0:
            parts.append("+")
        parts.append(term.text)
    if modifier > 0:
        parts.append(f"+{modifier}")
    elif modifier < 0:
        parts.append(str(modifier))
    return "".join(parts)


def _check_sides(quoted: str, sides: int) -> None:
    if sides < MIN_SIDES:
        noun = "side" if sides == 1 else "sides"
        raise DiceError(f"{quoted} has {sides} {noun}; the smallest die is d{MIN_SIDES}.")
    if sides > MAX_SIDES:
        raise DiceError(f"{quoted} has {sides} sides; the largest die is d{MAX_SIDES}.")


def _check_modifier(quoted: str, modifier: int) -> None:
    if abs(modifier) > MAX_MODIFIER:
        raise DiceError(
            f"{quoted} has a modifier of {modifier}; "
            f"modifiers must be between -{MAX_MODIFIER} and {MAX_MODIFIER}."
        )


def _parse_chance(quoted: str, times: str, sides_text: str) -> DiceExpr:
    # Both strings are bounded by MAX_EXPRESSION_LENGTH, so int() is cheap.
    times_value, sides = int(times), int(sides_text)
    _check_sides(quoted, sides)
    if not 1 <= times_value <= sides:
        raise DiceError(
            f"{quoted} asks for {times_value} in {sides}; "
            f"the first number must be from 1 to {sides}, as in 2-in-{sides}."
        )
    term = DiceTerm(count=1, sides=sides, keep=1, highest=True, sign=1)
    return DiceExpr(
        text=f"{times_value}-in-{sides}",
        terms=(term,),
        modifier=0,
        chance=(times_value, sides),
    )


def _parse_dice(quoted: str, match: re.Match[str], sign: int) -> DiceTerm:
    count_text, sides_text, bang, keep_kind, keep_text = match.groups()
    count = int(count_text) if count_text else 1
    sides = 100 if sides_text == "%" else int(sides_text)
    if count < 1:
        raise DiceError(f"{quoted} rolls no dice; roll at least one, as in 1d6.")
    _check_sides(quoted, sides)
    keep = count
    highest = True
    if bang and keep_text is not None:
        raise DiceError(
            f"{quoted} keeps some of its exploding dice; an exploding die (d6!) is always "
            "kept, so write it without k."
        )
    if keep_text is not None:
        keep = int(keep_text)
        highest = keep_kind != "l"
        if keep < 1:
            raise DiceError(f"{quoted} keeps no dice; keep at least one, as in 2d20kh1.")
        if keep > count:
            raise DiceError(
                f"{quoted} keeps {keep} of {count} dice; keep at most {count}, as in "
                f"{count}d{sides}kh{count}."
            )
    if keep == count:
        highest = True  # keeping every die: the direction is irrelevant, so make it canonical
    return DiceTerm(
        count=count, sides=sides, keep=keep, highest=highest, sign=sign, explode=bool(bang)
    )


def parse(text: str) -> DiceExpr:
    """Parse dice notation such as d6, 2d6+1, 2d20kh1, 4d6k3, d%, d6! or 2-in-6.

    Raises ``DiceError`` with a sentence for a person on any bad, empty or oversized input.
    """
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceError(
            f"The dice expression is {len(text)} characters long; "
            f"the limit is {MAX_EXPRESSION_LENGTH}."
        )
    compact = text.translate(_WHITESPACE)
    if not compact:
        raise DiceError("A dice expression is empty; write something like 2d6+1.")
    quoted = _quote(text.strip())
    syntax = f"{quoted} is not a dice expression: {_EXPECTED}."
    if not compact.isascii():
        raise DiceError(syntax)
    compact = compact.lower()

    chance = _CHANCE.fullmatch(compact)
    if chance is not None:
        return _parse_chance(quoted, chance.group(1), chance.group(2))

    pieces = _SIGN_SPLIT.split(compact)
    # pieces alternates chunk, sign, chunk, ...; a leading sign leaves an empty first chunk.
    signed = [("+", pieces[0])] if pieces[0] else []
    signed += [(pieces[i], pieces[i + 1]) for i in range(1, len(pieces), 2)]

    terms: list[DiceTerm] = []
    constants: list[int] = []
    for sign_text, chunk in signed:
        sign = -1 if sign_text == "-" else 1
        if not chunk:
            raise DiceError(
                f"{quoted} is not a dice expression (nothing follows a '{sign_text}'): {_EXPECTED}."
            )
        dice = _DICE.fullmatch(chunk)
        if dice is not None:
            terms.append(_parse_dice(quoted, dice, sign))
        elif _CONSTANT.fullmatch(chunk):
            constant = sign * int(chunk)
            _check_modifier(quoted, constant)
            constants.append(constant)
        elif chunk == compact:
            raise DiceError(syntax)
        else:
            raise DiceError(
                f"{quoted} is not a dice expression (cannot read {_quote(chunk)}): {_EXPECTED}."
            )

    if not terms:
        example = f"d6{sum(constants):+d}" if sum(constants) else "d6"
        raise DiceError(f"{quoted} needs at least one die; write something like {example}.")
    if len(signed) > MAX_TERMS:
        raise DiceError(
            f"{quoted} has {len(signed)} terms; at most {MAX_TERMS} dice and numbers "
            "can be added together."
        )
    dice_count = sum(term.count for term in terms)
    if dice_count > MAX_DICE:
        raise DiceError(
            f"{quoted} rolls {dice_count} dice; at most {MAX_DICE} dice can be rolled at once."
        )
    modifier = sum(constants)
    _check_modifier(quoted, modifier)
    frozen_terms = tuple(terms)
    return DiceExpr(
        text=_expression_text(frozen_terms, modifier),
        terms=frozen_terms,
        modifier=modifier,
    )


def _as_expr(expr: DiceExpr | str) -> DiceExpr:
    return parse(expr) if isinstance(expr, str) else expr


def _kept(faces: list[int], term: DiceTerm) -> list[int]:
    """The faces a term keeps, in the order they were rolled (ties go to the earlier die)."""
    if term.keep >= len(faces):
        return list(faces)
    direction = -1 if term.highest else 1
    order = sorted(range(len(faces)), key=lambda i: (direction * faces[i], i))
    chosen = set(order[: term.keep])
    return [face for i, face in enumerate(faces) if i in chosen]


def chain(faces: list[int], start: int, sides: int) -> int:
    """Where the faces of one exploding die end: past each highest face, and the one after
    it (at most MAX_EXPLOSIONS times); the faces from ``start`` up to it are the die's."""
    end = start
    for _ in range(MAX_EXPLOSIONS):
        if end >= len(faces) or faces[end] != sides:
            break
        end += 1
    return end + 1


def groups(expr: DiceExpr, faces: list[int]) -> list[list[int]] | None:
    """The faces of each term, in term order: ``count`` faces, or for an exploding term
    each die's chain of faces; None when the faces are too few or too many for the dice."""
    found: list[list[int]] = []
    start = 0
    for term in expr.terms:
        if not term.explode:
            found.append(faces[start : start + term.count])
            start += term.count
            continue
        taken: list[int] = []
        for _ in range(term.count):
            end = chain(faces, start, term.sides)
            taken += faces[start:end]
            start = end
        found.append(taken)
    if start != len(faces) or any(len(g) < t.count for g, t in zip(found, expr.terms, strict=True)):
        return None
    return found


def _result(expr: DiceExpr, faces: list[int], *, typed: bool) -> Roll:
    """Build a Roll from one face per die (each exploding die's chain of them), in order."""
    kept: list[int] = []
    total = expr.modifier
    grouped = groups(expr, faces)
    if grouped is None:
        raise DiceError(f"{len(faces)} faces are not a roll of {expr.text}.")
    for term, term_faces in zip(expr.terms, grouped, strict=True):
        term_kept = term_faces if term.explode else _kept(term_faces, term)
        kept.extend(term_kept)
        total += term.sign * sum(term_kept)
    hit = None if expr.chance is None else faces[0] <= expr.chance[0]
    return Roll(
        expression=expr.text,
        faces=tuple(faces),
        kept=tuple(kept),
        modifier=expr.modifier,
        total=total,
        hit=hit,
        entered=typed,
    )


def from_faces(expr: DiceExpr | str, faces: list[int], *, entered: bool) -> Roll:
    """The roll one face per die (in term order) makes: what replay and imports check against."""
    return _result(_as_expr(expr), faces, typed=entered)


def roll(expr: DiceExpr | str, rng: random.Random) -> Roll:
    """Roll an expression with the given random source, one ``rng.randint`` per die."""
    parsed = _as_expr(expr)
    faces: list[int] = []
    for term in parsed.terms:
        for _ in range(term.count):
            faces.append(rng.randint(1, term.sides))
            for _ in range(MAX_EXPLOSIONS if term.explode else 0):
                if faces[-1] != term.sides:
                    break
                faces.append(rng.randint(1, term.sides))
    return _result(parsed, faces, typed=False)


def _die_range_error(sides: int, face: int) -> DiceError:
    return DiceError(f"A d{sides} shows 1 to {sides}, not {face}.")


def entered(expr: DiceExpr | str, value: str) -> Roll:
    """Record a physical roll the game master typed: a number, or the faces as "3,4".

    A number typed is always what the dice show, never the modifier: for a single die
    its face; for a die rolled twice keeping one (advantage, setback) the face kept; for
    several dice their faces added up. The modifier is added to make the total, and the
    log shows face, modifier and total.
    """
    parsed = _as_expr(expr)
    if len(value) > MAX_VALUE_LENGTH:
        raise DiceError(
            f"The typed roll is {len(value)} characters long; the limit is {MAX_VALUE_LENGTH}."
        )
    stripped = value.strip()
    if not stripped:
        raise DiceError(f"The typed roll is empty; {_ROLL_HINT}.")
    not_a_roll = f"{_quote(stripped)} is not a roll: {_ROLL_HINT}."
    parts = [part.strip() for part in stripped.split(",")]
    if not all(_INTEGER.fullmatch(part) for part in parts):
        raise DiceError(not_a_roll)
    numbers = [int(part) for part in parts]  # each part is under 64 characters

    dice_count = parsed.dice
    if len(parts) > 1 and parsed.explodes:
        return _entered_chains(parsed, numbers)
    if len(parts) > 1:
        if len(numbers) != dice_count:
            noun = "die" if dice_count == 1 else "dice"
            raise DiceError(
                f"{parsed.text} rolls {dice_count} {noun}, so give {dice_count} "
                f"{'face' if dice_count == 1 else 'faces'}, not {len(numbers)}."
            )
        sides = [term.sides for term in parsed.terms for _ in range(term.count)]
        for face, die in zip(numbers, sides, strict=True):
            if not 1 <= face <= die:
                raise _die_range_error(die, face)
        return _result(parsed, numbers, typed=True)

    number = numbers[0]
    if dice_count == 1 and parsed.explodes:
        return _result(parsed, _exploded(parsed.terms[0], number), typed=True)
    if dice_count == 1:
        die = parsed.terms[0].sides
        if not 1 <= number <= die:
            raise _die_range_error(die, number)
        return _result(parsed, [number], typed=True)

    low, high = parsed.minimum - parsed.modifier, parsed.maximum - parsed.modifier
    if not low <= number <= high:
        shown = "its faces added up" if low == parsed.dice else "the face kept"
        raise DiceError(f"{parsed.text} shows {low} to {high} ({shown}), not {number}.")
    return Roll(
        expression=parsed.text,
        faces=(number,),
        kept=(number,),
        modifier=parsed.modifier,
        total=number + parsed.modifier,
        hit=None,
        entered=True,
    )


def _entered_chains(parsed: DiceExpr, numbers: list[int]) -> Roll:
    """Every face of a roll with exploding dice, typed: each highest face of an exploding
    die followed by the one it rolled again (d6!+d4 as 6,3,2)."""
    grouped = groups(parsed, numbers)
    if grouped is None:
        raise DiceError(
            f"{','.join(map(str, numbers))} is not a roll of {parsed.text}: give each die's "
            "face, and after each highest face of an exploding die the face it rolled again "
            f"(d6! as 6,6,2), or type the total."
        )
    for term, faces in zip(parsed.terms, grouped, strict=True):
        for face in faces:
            if not 1 <= face <= term.sides:
                raise _die_range_error(term.sides, face)
    return _result(parsed, numbers, typed=True)


def _exploded(term: DiceTerm, total: int) -> list[int]:
    """The faces of one exploding die that add up to a typed total (14 on a d6! is 6, 6, 2):
    a highest face for each whole time the die's sides go into it, then the rest."""
    whole, rest = divmod(total, term.sides)
    if total >= 1 and rest and whole <= MAX_EXPLOSIONS:
        return [term.sides] * whole + [rest]
    if total == term.most_per_die:
        return [term.sides] * (MAX_EXPLOSIONS + 1)  # it stopped exploding at the most
    if not 1 <= total <= term.most_per_die:
        raise DiceError(f"A d{term.sides}! totals 1 to {term.most_per_die}, not {total}.")
    raise DiceError(
        f"A d{term.sides}! never totals {total}: each {term.sides} rolls again and adds, so "
        f"type what it came to ({total + 1} to {total + term.sides - 1}), or every face."
    )


def face_words(expr: DiceExpr | str) -> str:
    """What a typed number means for these dice: "the d20's face", "the faces of 2d6 added up"."""
    parsed = _as_expr(expr)
    terms = parsed.terms
    if len(terms) == 1 and terms[0].sign > 0:
        term = terms[0]
        if term.count == 1 and term.explode:
            return f"the d{term.sides}!'s faces added up (each {term.sides} rolled again)"
        if term.count == 1:
            return f"the d{term.sides}'s face"
        if term.keep == 1:
            which = "higher" if term.highest else "lower"
            if term.count > 2:
                which = "highest" if term.highest else "lowest"
            return f"the face of the d{term.sides} you keep (the {which})"
    dice_text = "".join(f"{'-' if t.sign < 0 else '+'}{t.text}" for t in terms).lstrip("+")
    again = " (each highest face of a die with ! rolled again)" if parsed.explodes else ""
    return f"the faces of the {dice_text} added up{again}"


def spoken(expr: DiceExpr | str) -> str:
    """Dice as the game master reads them aloud: 2d20kh1+3 is "2d20, keep the higher
    (advantage), +3"; 4d6kh3 "4d6, keep the highest 3"; plain dice as written."""
    parsed = _as_expr(expr)
    if parsed.chance is not None or all(t.keep == t.count for t in parsed.terms):
        return parsed.text
    parts = []
    for term in parsed.terms:
        count = "" if term.count == 1 else str(term.count)
        text = f"{'-' if term.sign < 0 else ''}{count}d{term.sides}"
        if term.keep != term.count:
            if term.count == 2 and term.keep == 1:
                mode = "higher (advantage)" if term.highest else "lower (disadvantage)"
                text += f", keep the {mode}"
            else:
                end = "highest" if term.highest else "lowest"
                text += f", keep the {end} {term.keep}"
        parts.append(text)
    if parsed.modifier:
        parts.append(f"{parsed.modifier:+d}")
    return ", ".join(parts)


def mode_words(expr: DiceExpr | str) -> str:
    """A roll with advantage or disadvantage as a log line names it: 2d20kl1+1 is "d20+1
    with disadvantage"; any other expression as written."""
    parsed = _as_expr(expr)
    if len(parsed.terms) == 1 and parsed.chance is None:
        term = parsed.terms[0]
        if term.count == 2 and term.keep == 1 and term.sign > 0:
            mode = "advantage" if term.highest else "disadvantage"
            modifier = f"{parsed.modifier:+d}" if parsed.modifier else ""
            return f"d{term.sides}{modifier} with {mode}"
    return parsed.text


def face_hint(expr: DiceExpr | str) -> str:
    """How to type a roll of these dice at the table, in a sentence."""
    parsed = _as_expr(expr)
    hint = f"Type {face_words(parsed)}"
    if parsed.dice > 1 or parsed.explodes:
        hint += ", or each face as 6,3" if parsed.explodes else ", or each face as 3,4"
    if parsed.modifier:
        hint += f"; the {parsed.modifier:+d} is added for you"
    return hint + "."


def time_dice(hour: int) -> tuple[int, ...]:
    """The hour of day as d6 faces, one die per six-hour quarter, summing to the hour."""
    if not 0 <= hour <= 23:
        raise ValueError(f"hour must be 0 to 23, not {hour}")
    full, rest = divmod(hour, 6)
    return (6,) * full + ((rest,) if rest else ())


def with_modifier(expression: str, bonus: int) -> str:
    """The expression with a modifier added ('d20' and 2 give 'd20+2')."""
    if bonus == 0:
        return expression
    return f"{expression}{bonus:+d}"


def with_mode(expression: str, mode: str) -> str:
    """The expression rolled with "advantage" or "disadvantage" ('' leaves it as it is)."""
    if not mode:
        return expression
    parsed = parse(expression)
    changed = parsed.with_advantage() if mode == "advantage" else parsed.with_disadvantage()
    return changed.text


def scaled(expression: str, scale: int) -> str:
    """The expression rolled ``scale`` times over ('d6' by 3 gives '3d6')."""
    if scale == 1:
        return expression
    parsed = parse(expression)
    parts = [
        f"{'-' if t.sign < 0 else '+'}{t.count * scale}d{t.sides}{'!' if t.explode else ''}"
        for t in parsed.terms
    ]
    text = "".join(parts).lstrip("+")
    return with_modifier(text, parsed.modifier * scale)


def chances(expr: DiceExpr | str, *, most: int) -> dict[int, Fraction] | None:
    """The chance of each total an expression can roll, exactly.

    None when a keep-highest or keep-lowest term has more than ``most`` combinations of
    faces to list (3d20kh1 has 8,000).
    """
    # Imported here: only the odds count chances, and fractions brings decimal with it.
    from fractions import Fraction

    parsed = _as_expr(expr)
    totals: dict[int, Fraction] = {parsed.modifier: Fraction(1)}
    for term in parsed.terms:
        part = _term_chances(term, most)
        if part is None:
            return None
        combined: dict[int, Fraction] = {}
        for left, p in totals.items():
            for right, q in part.items():
                value = left + term.sign * right
                combined[value] = combined.get(value, Fraction(0)) + p * q
        totals = combined
    return totals


def _term_chances(term: DiceTerm, most: int) -> dict[int, Fraction] | None:
    from fractions import Fraction

    if term.keep == term.count:
        sums: dict[int, Fraction] = {0: Fraction(1)}
        die = _die_chances(term)
        for _ in range(term.count):
            rolled: dict[int, Fraction] = {}
            for total, p in sums.items():
                for face, q in die.items():
                    rolled[total + face] = rolled.get(total + face, Fraction(0)) + p * q
            sums = rolled
        return sums
    # Keep highest or lowest: every combination, when there are few enough to list.
    if term.sides**term.count > most:
        return None
    kept: dict[int, Fraction] = {}
    chance = Fraction(1, term.sides**term.count)
    for faces in itertools.product(range(1, term.sides + 1), repeat=term.count):
        ordered = sorted(faces, reverse=term.highest)
        value = sum(ordered[: term.keep])
        kept[value] = kept.get(value, Fraction(0)) + chance
    return kept


#: The most hit dice one creature may have (a great wyrm has some thirty).
MOST_HIT_DICE = 100
_HIT_DICE = re.compile(r"(\d{1,3})([+-]\d{1,3})?")


def hit_dice(text: str) -> tuple[int, int] | None:
    """A creature's hit dice as a game's stat block writes them ("2", "1+1", "1-1"): how
    many dice and what is added; None when the text is no such number (or past
    ``MOST_HIT_DICE``)."""
    found = _HIT_DICE.fullmatch(text.strip())
    if found is None:
        return None
    count = int(found.group(1))
    if not 1 <= count <= MOST_HIT_DICE:
        return None
    return count, int(found.group(2) or 0)


def hit_points_dice(text: str, die: str) -> str:
    """The dice a creature's hit points are rolled with: its hit dice of the game's die
    ("2+1" of d8 is 2d8+1); ValueError when the text is no hit dice."""
    found = hit_dice(text)
    if found is None:
        raise ValueError(text)
    count, plus = found
    size = parse(die).terms[0].sides
    return with_modifier(f"{count}d{size}", plus)


def _die_chances(term: DiceTerm) -> dict[int, Fraction]:
    """The chance of each amount one die of the term adds: each face alike, or for an
    exploding die its chain, exactly as ``roll`` throws it (stopping at MAX_EXPLOSIONS)."""
    from fractions import Fraction

    one = Fraction(1, term.sides)
    if not term.explode:
        return {face: one for face in range(1, term.sides + 1)}
    found: dict[int, Fraction] = {}
    for times in range(MAX_EXPLOSIONS):
        # ``times`` highest faces, then one that is not.
        for face in range(1, term.sides):
            found[times * term.sides + face] = one ** (times + 1)
    stops = term.sides * MAX_EXPLOSIONS
    for face in range(1, term.sides + 1):  # the last die, rolled again no more
        found[stops + face] = found.get(stops + face, Fraction(0)) + one ** (MAX_EXPLOSIONS + 1)
    return found


def under(total: int, score: int, expression: str, natural: bool) -> bool:
    """A roll under a score passes at most it; with ``natural``, a d20's 1 always passes and
    its 20 always fails (a save in games that say so), whatever the score."""
    if natural and total in (1, 20):
        parsed = parse(expression)
        terms = parsed.terms
        one_d20 = len(terms) == 1 and terms[0].sides == 20 and terms[0].keep == 1
        if one_d20 and not parsed.modifier and not terms[0].explode:
            return total == 1
    return total <= score
