"""The shape of a command form, and the one routine that reads it from text and writes it back.

A ``Verb`` has forms; a ``Form`` is its words in order, the command class it makes and the
constants it sets; a ``Word`` names the command's field (or fields) it fills and the kind of
value it holds, whose type (``kinds.py``) reads the typed word and writes the value back.
From that one declaration ``Verb.read`` makes the command out of typed words and
``Form.write`` gives the words a game master would type for a command; the command line
completes each word by its kind and the palette, the help and docs/commands.md list the
forms (``grammar.py`` holds the table itself).

A form the declaration cannot say is read and written by hand (``Form.reader`` and
``Form.writer``), each saying why.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from delvetui.core.commands import kinds
from delvetui.core.commands import readers as read
from delvetui.core.commands import types as cmd
from delvetui.text import quoted as _short


def _known(word: Word, field: attrs.Attribute[str], kind: str) -> None:
    """A word names a kind of ``kinds.KINDS``: a misspelt one fails as the grammar loads."""
    if kind not in kinds.KINDS:
        raise ValueError(f"{word.shown}: no kind of word is called {kind!r} (kinds.KINDS)")


@attrs.frozen
class Word:
    """One word of a form, as the usage shows it, the kind of value it holds and its field.

    ``keys`` names the keys of a KEY=VALUE word (``turns``, ``minutes``); a KEY=VALUE word
    without keys is a family (``ROLL=N``) whose keys come from the procedure. ``brief`` is
    how the one-line usage of an error message shows the word: '' as in the reference,
    None when it leaves it out (a word seldom typed).

    ``fields`` names the command's fields the word fills: one for a value (two when its
    type reads a pair, as HH:MM is an hour and a minute), one a key for a KEY=VALUE word.
    ``type`` reads and writes the value (by default the usual one of its kind);
    ``missing`` is the sentence when a word that must be given is not; ``default_from``
    names the field a key left out takes its value from (and is not written when equal to).
    ``at_table`` marks a value the table may type into a built command: a die rolled at
    the table, or a result the players give (``parser.with_value`` adds one, ``decide``
    reads those a family gathers as the command's inputs).
    """

    shown: str
    kind: str = attrs.field(validator=_known)
    keys: tuple[str, ...] = ()
    value: str = attrs.field(default="text", validator=_known)
    optional: bool = False
    many: bool = False
    brief: str | None = ""
    fields: tuple[str, ...] = ()
    type: kinds.Type | None = None
    missing: str = ""
    default_from: str = ""
    at_table: bool = False

    @property
    def is_key(self) -> bool:
        """True for a KEY=VALUE word."""
        return "=" in self.shown

    @property
    def is_flag(self) -> bool:
        """True for a word that may stand anywhere after the fixed ones (lit, +poisoned)."""
        return self.kind in ("flag", "gain", "lose")

    @property
    def is_fixed(self) -> bool:
        """True for a word read by its place: a sub-command or a value."""
        return not self.is_key and not self.is_flag

    @property
    def reads(self) -> kinds.Type:
        """The type that reads and writes the word's value."""
        if self.type is not None:
            return self.type
        kind = kinds.KINDS[self.value if self.is_key and self.keys else self.kind]
        if kind.type is None:
            raise LookupError(f"{self.shown}: a word of kind {kind.name!r} is read by its form")
        return kind.type

    @property
    def collects(self) -> bool:
        """True for a word that gathers KEY=VALUE pairs as typed (a family, ``burn=N``)."""
        return self.is_key and isinstance(self.reads, kinds.Typed)

    def usage(self, *, brief: bool = False) -> str | None:
        """The word as a usage line shows it, in brackets when it may be left out."""
        shown = self.shown
        if brief:
            if self.brief is None:
                return None
            shown = self.brief or shown
        if self.many:
            shown = f"{shown} ..."
        return f"[{shown}]" if self.optional else shown


@attrs.frozen
class Form:
    """One way to write a verb (``light on ID|KIND [carrier=NAME]``) and the command it makes.

    ``sets`` are the fields the form gives without a word (``session start`` sets start to
    True); ``wrong`` is the sentence when the words do not fit it ({word} the first word
    left over, {words} all its plain words, {FIELD} a field read); ``least`` the sentence
    when none of its words that may be left out is given. ``reader`` and ``writer`` read
    and write a form the declaration cannot say, by hand.
    """

    words: tuple[Word, ...]
    command: type[cmd.Command]
    help: str
    example: str
    aside: str = ""
    sets: tuple[tuple[str, Any], ...] = ()
    wrong: str = ""
    least: str = ""
    reader: read.Reader | None = None
    writer: read.Writer | None = None

    @property
    def sub(self) -> str | None:
        """The sub-command the form begins with (``add``), if any."""
        first = self.words[0] if self.words else None
        return first.shown if first is not None and first.kind == "word" else None

    def usage(self, verb: str, *, brief: bool = False) -> str:
        """The form as a usage line: the verb, then each word."""
        shown = [verb, *(w for w in (word.usage(brief=brief) for word in self.words) if w)]
        line = " ".join(shown)
        return f"{line} ({self.aside})" if self.aside else line

    def read(self, words: list[str], text: str, *, pairs: bool = True) -> cmd.Command:
        """The command the words after the verb (and its sub-command) make.

        KEY=VALUE words are told apart from the others unless ``pairs`` is False (a verb
        without KEY=VALUE words reads every word by its place: a path may hold an =).
        Raises ``Misfit`` when they do not fit the form, ``UsageProblem`` when a value is
        wrong.
        """
        if self.reader is not None:
            return self.reader(words, text)
        plain, keyed = read.split_pairs(words) if pairs else (words, [])
        got: dict[str, Any] = dict(self.sets)
        everything = list(plain)
        own = [word for word in self.words if word.kind != "word"]
        for flag in (word for word in own if word.kind == "flag"):
            got[flag.fields[0]] = any(given.lower() == flag.shown for given in plain)
            plain = [given for given in plain if given.lower() != flag.shown]
        for word in (word for word in own if word.is_fixed):
            if word.many or word.reads.rest:
                taken, plain = plain, []
                if not taken and not word.optional:
                    raise self._misfit(word.missing, got, everything, plain)
                if taken:
                    _fill(got, word.fields, word.reads.gather(word.shown, taken))
            elif plain and (not word.optional or word.reads.looks(plain[0])):
                _fill(got, word.fields, word.reads.read(word.shown, plain.pop(0)))
            elif not word.optional:
                raise self._misfit(word.missing, got, everything, plain)
        if plain:
            raise self._misfit("", got, everything, plain)
        self._read_keys(own, keyed, got, everything)
        return self.command(**got)

    def _read_keys(
        self, own: list[Word], pairs: list[tuple[str, str]], got: dict[str, Any], plain: list[str]
    ) -> None:
        keyed = [word for word in own if word.is_key and word.keys and not word.collects]
        families = [word for word in own if word.collects]
        known = {key for word in keyed for key in word.keys}
        given: dict[str, str] = {}
        gathered: dict[str, tuple[Word, list[tuple[str, str]]]] = {}
        unknown: list[str] = []
        for key, value in pairs:
            if key in known:
                given[key] = value
                continue
            owner = next((w for w in families if key.lower() in w.keys), None)
            owner = owner or next((w for w in families if not w.keys), None)
            if owner is None:
                unknown.append(key)
            else:
                gathered.setdefault(owner.fields[0], (owner, []))[1].append((key, value))
        if unknown:
            raise kinds.Misfit(f"'{_short(unknown[0])}=' does not belong here.")
        for word in keyed:
            typed = [
                (key, field)
                for key, field in zip(word.keys, word.fields, strict=True)
                if key in given
            ]
            if len(typed) > 1 or (not typed and not word.optional):
                raise self._misfit(word.missing, got, plain, [])
            if typed:
                key, field = typed[0]
                got[field] = word.reads.read(key, given[key])
            elif word.default_from:
                got[word.fields[0]] = got[word.default_from]
        for field, (owner, taken) in gathered.items():
            gatherer = owner.reads
            assert isinstance(gatherer, kinds.Typed)  # what ``collects`` says
            got[field] = gatherer.collect(taken)
        loose = [f for word in own if word.optional and not word.is_fixed for f in word.fields]
        if self.least and not any(got.get(field) for field in loose):
            raise kinds.Misfit(self.least)

    def _misfit(
        self, sentence: str, got: dict[str, Any], plain: list[str], left: list[str]
    ) -> kinds.Misfit:
        said = {
            **{key: value for key, value in got.items() if isinstance(value, str)},
            "word": _short(left[0]) if left else "",
            "words": _short(" ".join(plain)),
        }
        return kinds.Misfit((sentence or self.wrong).format_map(_Said(said)))

    def at_table(self, key: str) -> Word | None:
        """The word a value typed at the table under ``key`` goes to, if the form takes one:
        a key of its own (``burn=``, ``result=``), else a family that takes any key."""
        own = [word for word in self.words if word.at_table and word.is_key]
        named = (w for w in own if (key.lower() if w.collects else key) in w.keys)
        return next(named, None) or next((w for w in own if w.collects and not w.keys), None)

    def table_fields(self) -> list[str]:
        """The command's fields that gather what the table typed (``values``), once each."""
        fields = (word.fields[0] for word in self.words if word.at_table and word.collects)
        return list(dict.fromkeys(fields))

    def fits(self, command: cmd.Command) -> bool:
        """Whether the command is one this form says: its class, its constants, its keys."""
        if type(command) is not self.command:
            return False
        if any(getattr(command, field) != value for field, value in self.sets):
            return False
        return all(
            any(getattr(command, field) is not None for field in word.fields)
            for word in self.words
            if word.is_key and word.keys and not word.optional and not word.collects
        )

    def write(self, command: cmd.Command) -> list[str]:
        """The words after the verb a game master would type for the command."""
        if self.writer is not None:
            return self.writer(command)
        words: list[str] = []
        written: set[str] = set()
        defaults = attrs.fields_dict(type(command))
        for word in self.words:
            if word.kind == "word":
                words.append(word.shown)
            elif word.kind == "flag":
                words.extend([word.shown] if getattr(command, word.fields[0]) else [])
            elif word.collects:
                if word.fields[0] not in written:
                    written.add(word.fields[0])
                    words.extend(word.reads.write(getattr(command, word.fields[0])))
            elif word.is_key:
                for key, field in zip(word.keys, word.fields, strict=True):
                    value = getattr(command, field)
                    same = word.default_from and value == getattr(command, word.default_from)
                    if value is not None and not same:
                        words.append(f"{key}={' '.join(word.reads.write(value))}")
            else:
                value = _value(command, word.fields)
                default = _value_of(defaults, word.fields)
                if not (word.optional and value == default):
                    words.extend(word.reads.write(value))
        return words


class _Said(dict[str, str]):
    """The words a sentence names; a name not read yet is left out."""

    def __missing__(self, key: str) -> str:
        return ""


def _fill(got: dict[str, Any], fields: tuple[str, ...], value: Any) -> None:
    if len(fields) == 1:
        got[fields[0]] = value
    else:
        got.update(zip(fields, value, strict=True))


def _value(command: cmd.Command, fields: tuple[str, ...]) -> Any:
    if len(fields) == 1:
        return getattr(command, fields[0])
    return tuple(getattr(command, field) for field in fields)


def _value_of(defaults: dict[str, Any], fields: tuple[str, ...]) -> Any:
    values = tuple(defaults[field].default for field in fields)
    return values[0] if len(values) == 1 else values


@attrs.frozen
class Verb:
    """A verb of the command language and its forms.

    ``wrong`` is the sentence when the words fit none of its forms ({word}: the first),
    ``empty`` the one when nothing follows the verb (else ``wrong``).
    """

    name: str
    help: str
    forms: tuple[Form, ...]
    wrong: str = ""
    empty: str = ""

    def usage(self, *, brief: bool = True) -> str:
        """Every form, one after another (the line error messages end with)."""
        return " | ".join(form.usage(self.name, brief=brief) for form in self.forms)

    def read(self, words: list[str], text: str) -> cmd.Command:
        """The command the words after the verb make, by the form they fit."""
        try:
            return self._read(words, text)
        except read.UsageProblem as problem:
            problem.verb = problem.verb or self.name
            raise

    def _read(self, words: list[str], text: str) -> cmd.Command:
        first = words[0].lower() if words else None
        chosen = [form for form in self.forms if form.sub is not None and form.sub == first]
        chosen = chosen or [form for form in self.forms if form.sub is None]
        if not chosen:
            if not words:
                raise read.UsageProblem(self.empty or self.wrong, self.name)
            said = _Said(word=_short(words[0]))
            raise read.UsageProblem(self.wrong.format_map(said), self.name)
        misfits: list[str] = []
        pairs = any(word.is_key for form in self.forms for word in form.words)
        for form in chosen:
            try:
                return form.read(words[1:] if form.sub else words, text, pairs=pairs)
            except kinds.Misfit as misfit:
                misfits.append(misfit.sentence or form.wrong or self.wrong)
        sentence = misfits[0] if len(chosen) == 1 else chosen[0].wrong
        raise read.UsageProblem(sentence or self.wrong, self.name)


def sub(text: str) -> Word:
    """A sub-command: the word itself (add, on, start)."""
    return Word(text, "word")


def value(
    shown: str,
    kind: str,
    *fields: str,
    optional: bool = False,
    many: bool = False,
    type: kinds.Type | None = None,
    missing: str = "",
) -> Word:
    """A value read by its place, filling ``fields``."""
    return Word(
        shown,
        kind,
        optional=optional,
        many=many,
        fields=fields,
        type=type,
        missing=missing,
    )


def key(
    keys: str,
    shown: str,
    kind: str,
    *fields: str,
    optional: bool = True,
    brief: str | None = "",
    type: kinds.Type | None = None,
    missing: str = "",
    default_from: str = "",
    at_table: bool = False,
) -> Word:
    """A KEY=VALUE word (``turns|minutes`` for one of two keys), each key filling its field
    (the key's own name unless ``fields`` names them); ``at_table`` when the table may type
    it into a built command (a die rolled at the table)."""
    names = tuple(keys.split("|"))
    usage = "|".join(f"{name}={shown}" for name in names)
    return Word(
        usage,
        "text",
        keys=names,
        value=kind,
        optional=optional,
        brief=brief,
        fields=fields or names,
        type=type,
        missing=missing,
        default_from=default_from,
        at_table=at_table,
    )


def family(
    shown: str, kind: str, field: str = "", *, brief: str | None = "", at_table: bool = False
) -> Word:
    """KEY=VALUE words whose keys come from the procedure (``ROLL=N``), gathered in ``field``;
    ``at_table`` when the table may type one into a built command (a die, a player's result)."""
    return Word(
        shown,
        kind,
        value="faces" if kind == "roll" else "text",
        optional=True,
        many=True,
        brief=brief,
        fields=(field,) if field else (),
        at_table=at_table,
    )


def flag(shown: str, field: str) -> Word:
    """A word that switches a field on where it stands (``lit``)."""
    return Word(shown, "flag", optional=True, fields=(field,))


def forms_of(grammar: tuple[Verb, ...]) -> Iterator[tuple[Verb, Form]]:
    """Every form of every verb, in the table's order."""
    for verb in grammar:
        for form in verb.forms:
            yield verb, form
