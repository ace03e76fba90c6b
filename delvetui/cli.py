"""The ``delvetui`` command: the full-screen table and the scriptable subcommands.

The contract (names, arguments, ``status --json`` keys, exit status 2 for bad input) is
the one in docs/design.md; other tools script against it. Every change goes through the app
service in :mod:`delvetui.session`.
"""

from __future__ import annotations

import argparse
import os
import sys
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from delvetui import __version__

if TYPE_CHECKING:
    from delvetui.core.state import State
    from delvetui.procedure.model import Procedure
    from delvetui.session import Expedition

# Each subcommand imports what it uses when it runs: the core, the store and the procedure
# loader are most of a process's start, and --help, a mistyped argument or `list` need
# only part of them (every script pays the start on every call).

EXIT_BAD_INPUT = 2

_EPILOG = """\
examples:
  delvetui                                 resume the last expedition (or the start screen)
  delvetui new crypt --procedure delving   create an expedition
  delvetui act crypt pc add Ash hp=6       add a party member
  delvetui act crypt turn crawl hazard=3   take a turn, typing in the hazard die
  delvetui status crypt --json             the state, for scripts
  delvetui export crypt -o crypt.html      the session log as a page (md, txt, json too)
  delvetui campaign                        every campaign: its expeditions in calendar order
"""


_SALVAGE = "a damaged expedition: read-only, every command before the damage"


class _Parser(argparse.ArgumentParser):
    """argparse, with what it quotes from the command line made visible in its errors."""

    def error(self, message: str) -> typing.NoReturn:
        """Say the problem in one line, where to read what the command takes, and exit with
        status 2 (no usage dump: the help says it whole)."""
        import re

        from delvetui.text import visible

        number = re.fullmatch(r"argument (\S+): invalid int value: '(.*)'", message, re.S)
        if number is not None:
            option = number.group(1).split("/")[-1]
            message = f"{option} '{number.group(2)}' is not a whole number; write it in digits"
        said = visible(message.rstrip("."), lines=False)
        self.exit(
            EXIT_BAD_INPUT, f"{self.prog}: {said}. `{self.prog} --help` says what it takes.\n"
        )


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter for text laid out by hand, sized without importing shutil.

    argparse makes a formatter for every argument it adds (to check its metavar) and each
    one asks ``shutil.get_terminal_size`` for the width, so every command paid for
    importing shutil (and zlib, bz2, lzma, fnmatch with it). The width is the same one:
    ``COLUMNS`` when it is a positive number, else the terminal's, else 80, less 2.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
        **more: Any,
    ) -> None:
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width, **more)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size().columns`` gives it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80
    return size.columns or 80


def _say(text: str, *, end: str = "\n") -> None:
    """Print to standard output, every control character made visible."""
    from delvetui.text import visible

    sys.stdout.write(visible(text, lines=True) + end)


def _warn(text: str) -> None:
    """Print to standard error, every control character made visible."""
    from delvetui.text import visible

    print(visible(text, lines=True), file=sys.stderr)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser for every subcommand, with examples in each --help.

    With ``command``, the name of a subcommand, only that one is added: a command line
    that starts with it is parsed the same way (the top level's usage names no
    subcommand), and each subcommand's parser costs argparse a look-up of its translations.
    """
    parser = _Parser(
        prog="delvetui",
        description="The referee's table for dungeon turns.",
        epilog=_EPILOG,
        formatter_class=_Formatter,
    )
    parser.add_argument("--version", action="version", version=f"delvetui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help_text: str, *examples: str) -> argparse.ArgumentParser:
        label = "examples" if len(examples) > 1 else "example"
        return sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=f"{label}:\n" + "\n".join(f"  {example}" for example in examples),
            formatter_class=_Formatter,
        )

    for name, arguments in _ARGUMENTS.items():
        if command is None or command == name:
            arguments(add)
    return parser


#: Adds a subcommand (its name, its help, its examples) and gives its parser.
_Add = Callable[..., argparse.ArgumentParser]


class _Arguments:
    """Each subcommand and its arguments, a method each (named for the subcommand, with a
    trailing _ where the name is Python's), in the order ``delvetui --help`` lists them;
    ``add(name, help, *examples)`` adds the subcommand and gives its parser."""

    @staticmethod
    def open_(add: _Add) -> None:
        opened = add(
            "open",
            "Open the full-screen table on an expedition.",
            "delvetui open crypt --screenshot crypt.svg --size 120x40",
        )
        opened.add_argument(
            "expedition", metavar="EXPEDITION", help="a saved name or a .delve path"
        )
        opened.add_argument("--screenshot", metavar="FILE.svg", help="render headless, save, exit")
        opened.add_argument("--size", metavar="COLSxROWS", default="120x40", help="screenshot size")
        opened.add_argument("--salvage", action="store_true", help=_SALVAGE)

    @staticmethod
    def players(add: _Add) -> None:
        players = add(
            "players",
            "Open the players' screen: a read-only view that follows the game master's table.",
            "delvetui players crypt",
            "delvetui players crypt --screenshot players.svg --size 160x45",
        )
        players.add_argument(
            "expedition", metavar="EXPEDITION", help="a saved name or a .delve path"
        )
        players.add_argument(
            "--served-by",
            type=int,
            metavar="PID",
            help="end when process PID, which started this screen, ends (delvetui serve "
            "passes its own)",
        )
        players.add_argument("--screenshot", metavar="FILE.svg", help="render headless, save, exit")
        players.add_argument(
            "--size", metavar="COLSxROWS", default="160x45", help="screenshot size (default 160x45)"
        )

    @staticmethod
    def serve(add: _Add) -> None:
        served = add(
            "serve",
            "Serve the players' screen to a browser on this computer, at the address it "
            "prints (http://127.0.0.1:PORT/KEY/, the key made afresh each run).",
            "delvetui serve crypt --port 8000 --max-screens 2",
        )
        served.add_argument(
            "expedition", metavar="EXPEDITION", help="a saved name or a .delve path"
        )
        served.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
        served.add_argument(
            "--max-screens",
            type=int,
            default=4,
            metavar="N",
            help="players' screens open at once, each a process (default 4)",
        )

    @staticmethod
    def new(add: _Add) -> None:
        new = add(
            "new",
            "Create an expedition and print its path (with --after, the next one of a "
            "campaign: the party carried over; a line for each thing left behind).",
            "delvetui new crypt --procedure delving --seed 7 --start 08:00",
            "delvetui new crypt-2 --after crypt --downtime 7d",
        )
        new.add_argument(
            "name", nargs="?", metavar="NAME", help="a name, or a path ending in .delve"
        )
        new.add_argument(
            "--file", metavar="PATH.delve", help="create the file there (NAME is then its title)"
        )
        new.add_argument("--procedure", metavar="ID|FILE", help="procedure id or file")
        new.add_argument("--seed", type=int, help="seed for the dice (random when left out)")
        new.add_argument("--start", metavar="HH:MM", help="in-world start time")
        new.add_argument(
            "--tables",
            metavar="FILE",
            help="the adventure's own tables (TOML, or as printed: text, Markdown, CSV)",
        )
        new.add_argument(
            "--calendar", metavar="FILE", help="the world's calendar (a [calendar] table, TOML)"
        )
        new.add_argument("--after", metavar="PRED", help="continue this ended expedition")
        new.add_argument("--downtime", metavar="7d|36h", help="time in town after PRED ended")
        new.add_argument(
            "--leave", nargs="+", action="extend", default=[], metavar="NAME", help="stays behind"
        )
        new.add_argument(
            "--restock", metavar="X-in-N", help="the chance each cleared room restocks meanwhile"
        )
        new.add_argument("--campaign", metavar="C", help="the campaign (a chain inherits it)")
        new.add_argument(
            "--day", type=int, metavar="N", help="the day it starts (default 1; or after PRED)"
        )

    @staticmethod
    def act(add: _Add) -> None:
        act = add(
            "act",
            "Apply one command of the command language (or - to read them from standard input).",
            "delvetui act crypt turn walk hazard=2",
            "printf 'turn\\nturn\\n' | delvetui act crypt -",
        )
        act.add_argument("expedition", metavar="EXPEDITION")
        act.add_argument("words", nargs=argparse.REMAINDER, metavar="COMMAND...")

    @staticmethod
    def upgrade(add: _Add) -> None:
        upgrade = add(
            "upgrade",
            "Move an expedition to a newer version of its procedure (or another procedure); "
            "recorded as an event, so undo goes back.",
            "delvetui upgrade crypt --procedure delving",
        )
        upgrade.add_argument("expedition", metavar="EXPEDITION")
        upgrade.add_argument(
            "--procedure", metavar="ID|FILE", help="the procedure to follow (default: its own id)"
        )

    @staticmethod
    def verify(add: _Add) -> None:
        verify = add(
            "verify",
            "Check every row of an expedition file and that replaying it gives the saved state.",
            "delvetui verify crypt",
        )
        verify.add_argument("expedition", metavar="EXPEDITION")

    @staticmethod
    def status(add: _Add) -> None:
        status = add(
            "status", "Show the current state of an expedition.", "delvetui status crypt --json"
        )
        status.add_argument("expedition", metavar="EXPEDITION")
        status.add_argument("--json", action="store_true", help="print JSON for scripts")
        status.add_argument("--salvage", action="store_true", help=_SALVAGE)

    @staticmethod
    def list_(add: _Add) -> None:
        listed = add("list", "List saved expeditions.", "delvetui list --json")
        listed.add_argument("--json", action="store_true", help="print JSON for scripts")

    @staticmethod
    def campaign(add: _Add) -> None:
        campaign = add(
            "campaign",
            "List the campaigns in the data folder: each chain of expeditions in calendar order.",
            "delvetui campaign",
            "delvetui campaign barrow --json",
        )
        campaign.add_argument(
            "name", nargs="?", metavar="NAME", help="a campaign, or any expedition in it"
        )
        campaign.add_argument("--json", action="store_true", help="print JSON for scripts")

    @staticmethod
    def procedures(add: _Add) -> None:
        procs = add(
            "procedures",
            "List the shipped and user procedures, check a procedure file, show one, or copy "
            "one to change it.",
            "delvetui procedures check my-game.toml",
            "delvetui procedures copy delving my-delving",
        )
        procs.add_argument(
            "action",
            nargs="?",
            choices=["check", "show", "copy"],
            help="check FILE | show ID | copy ID NEW-ID",
        )
        procs.add_argument("target", nargs="?", metavar="FILE|ID")
        procs.add_argument("new_id", nargs="?", metavar="NEW-ID", help="copy: the copy's id")
        procs.add_argument("--json", action="store_true", help="print JSON for scripts")

    @staticmethod
    def tables(add: _Add) -> None:
        tables = add(
            "tables",
            "Convert a wandering-monster table as printed (plain text, Markdown or CSV) to "
            "the adventure's tables file (TOML), to keep and edit; every problem by its line.",
            "delvetui tables convert monsters.txt -o crypt.toml",
        )
        tables.add_argument("action", choices=["convert"], help="convert FILE")
        tables.add_argument("file", metavar="FILE", help="the table as printed")
        tables.add_argument(
            "-o", "--output", metavar="OUT", help="write a new OUT (default, or -: print)"
        )
        tables.add_argument("--force", action="store_true", help="replace OUT when it exists")

    @staticmethod
    def export(add: _Add) -> None:
        exported = add(
            "export",
            "Write the session log as Markdown, HTML or text, or the whole expedition as JSON.",
            "delvetui export crypt --format html --session 2 -o session-2.html",
            "delvetui export --campaign barrow --format html -o chronicle.html",
        )
        exported.add_argument("expedition", nargs="?", metavar="EXPEDITION")
        exported.add_argument(
            "--campaign",
            metavar="NAME",
            help="the chronicle of a whole campaign (md, html, json or svg) instead",
        )
        exported.add_argument(
            "--format",
            choices=["md", "html", "json", "txt", "svg"],
            help="md, html, txt, svg (the timeline), or json to move it with 'import' "
            "(default: from -o's suffix, or md)",
        )
        exported.add_argument("--session", type=int, metavar="N", help="only session N (not json)")
        exported.add_argument("--salvage", action="store_true", help=_SALVAGE)
        exported.add_argument(
            "-o", "--output", metavar="FILE", help="write a new FILE (default, or -: print)"
        )
        exported.add_argument(
            "--force", action="store_true", help="replace FILE when it exists (never an expedition)"
        )

    @staticmethod
    def import_(add: _Add) -> None:
        imported = add(
            "import",
            "Create an expedition from a JSON export and print its path.",
            "delvetui import crypt.json crypt-copy",
        )
        imported.add_argument("file", metavar="FILE.json", help="written by export --format json")
        imported.add_argument("name", nargs="?", metavar="NAME", help="default: the exported name")


#: Each subcommand's arguments by its name, in the order they are listed.
_ARGUMENTS: dict[str, Callable[[_Add], None]] = {
    name.rstrip("_"): method.__func__
    for name, method in vars(_Arguments).items()
    if isinstance(method, staticmethod)
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    words = sys.argv[1:] if argv is None else list(argv)
    named = words[0] if words and words[0] in _HANDLERS else None
    parser = build_parser(named)
    args = parser.parse_args(words if named == "act" else dashed_values(words))
    # Reading the state from a snapshot needs no event (the odds of --json do).
    _import_core(
        events=not (args.command == "list" or (args.command == "status" and not args.json))
    )
    from delvetui.errors import DamagedFile, DelveError

    try:
        if args.command is None:
            return _resume()
        handler = _HANDLERS[args.command]
        return handler(args)
    except DelveError as error:
        _warn(f"delvetui: {error}")
        if isinstance(error, DamagedFile) and getattr(args, "expedition", None):
            _warn(
                "delvetui: to read what can be saved, read-only: "
                f"delvetui open|status|export {args.expedition} --salvage"
            )
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (status | head): not an error worth a traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def dashed_values(words: Sequence[str]) -> list[str]:
    """The words with a long option's value that starts with a dash and a digit joined to
    it (``--downtime -7d`` as ``--downtime=-7d``): argparse takes such a value for an option
    and prints its usage, where the option's own check says in a sentence what is wrong.
    No option's name starts with a dash and a digit, so nothing else is changed."""
    joined: list[str] = []
    for word in words:
        if (
            joined
            and joined[-1].startswith("--")
            and "=" not in joined[-1]
            and len(word) > 1
            and word[0] == "-"
            and word[1].isdigit()
        ):
            joined[-1] = f"{joined[-1]}={word}"
        else:
            joined.append(word)
    return joined


def _import_core(*, events: bool = True) -> None:
    """Import the app service (the core, the store, the procedure loader) out of the
    garbage collector's way; with ``events``, the events and their fold too (the app
    service imports them when it first reads one).

    Importing it makes tens of thousands of objects that live as long as the process (the
    attrs classes of the events, the state and the procedure, with their methods) and no
    garbage, yet the collector ran some forty times while they were made, each time walking
    them again: about a twentieth of a command's time. They are made with the collector off
    and then set aside (``gc.freeze``, as the table does after its imports); what the
    command makes afterwards is collected as usual.
    """
    if "delvetui.session" in sys.modules:
        return
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        import delvetui.session

        if events:
            import delvetui.core.evolve  # noqa: F401
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def _resume() -> int:
    from delvetui import paths
    from delvetui.errors import StoreError
    from delvetui.ui.app import run_app

    try:
        saved = paths.saved_expeditions()
    except StoreError:
        saved = []  # the start screen says why the data folder cannot be read
    return run_app(saved[0] if saved else None, resumed=True)


def _players(args: argparse.Namespace) -> int:
    from pathlib import Path

    from delvetui import paths
    from delvetui.ui.players.app import PlayersApp, screenshot

    path = paths.find_expedition(args.expedition)
    if args.screenshot:
        screenshot(path, Path(args.screenshot), _size(args.size))
        _say(args.screenshot)
        return 0
    PlayersApp(path, server=args.served_by).run()
    return 0


def _serve(args: argparse.Namespace) -> int:
    from delvetui import paths
    from delvetui.serve import check_port, check_screens, serve

    port = check_port(args.port)
    screens = check_screens(args.max_screens)
    serve(paths.find_expedition(args.expedition), port, screens)
    return 0


def _open(args: argparse.Namespace) -> int:
    from pathlib import Path

    from delvetui import paths
    from delvetui.ui.app import run_app, screenshot

    path = paths.find_expedition(args.expedition)
    if args.screenshot:
        size = _size(args.size)
        screenshot(path, Path(args.screenshot), size, salvage=args.salvage)
        _say(args.screenshot)
        return 0
    return run_app(path, salvage=args.salvage)


def _reader(args: argparse.Namespace) -> Expedition:
    """The expedition opened for reading; with --salvage, what a damaged one still holds."""
    from delvetui import paths
    from delvetui.session import Expedition

    path = paths.find_expedition(args.expedition)
    if args.salvage:
        expedition = Expedition.open_salvage(path)
        reason = expedition.readonly_reason
        if reason:
            _warn(f"delvetui: {reason}")
        return expedition
    return Expedition.open(path, write=False, snapshot=True)


def _size(text: str) -> tuple[int, int]:
    from delvetui.errors import DelveError

    parts = text.lower().split("x")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        raise DelveError(f"--size {text} is not COLSxROWS, e.g. 120x40.")
    cols, rows = int(parts[0]), int(parts[1])
    if not (40 <= cols <= 500 and 12 <= rows <= 200):
        raise DelveError(f"--size {text} is out of range (40-500 columns, 12-200 rows).")
    return cols, rows


def _new(args: argparse.Namespace) -> int:
    from pathlib import Path

    from delvetui import paths
    from delvetui.core import commands as cmd
    from delvetui.errors import DelveError
    from delvetui.procedure import registry
    from delvetui.session import Expedition

    if args.name is None and args.file is None:
        if args.leave:
            raise DelveError(
                "Give the expedition a name, or a file with --file PATH.delve. --leave takes "
                f"every word after it as a member who stays behind ({', '.join(args.leave)}): "
                "put the name first, as in `delvetui new barrow-2 --after barrow --leave Bryn`."
            )
        raise DelveError("Give the expedition a name, or a file with --file PATH.delve.")
    if args.procedure is None and args.after is None:
        raise DelveError("Give a procedure with --procedure ID|FILE, or --after PRED.")
    procedure = None if args.procedure is None else registry.find(args.procedure)
    for refused in registry.shadowing(args.procedure) if args.procedure else ():
        assert refused.error is not None
        _warn(f"delvetui: {refused.path} is not used: its id {refused.error.problems[0].message}")
    path = paths.new_expedition_path(args.name or "", file=args.file)
    name = args.name if args.name and not paths.is_path(args.name) else path.stem
    # The tables are checked before anything is made: a bad file leaves no expedition.
    commands = []
    if args.tables:
        from delvetui.procedure import tables_file  # the adventure tables' reader

        contents = tables_file.read(Path(args.tables))
        commands.append(cmd.said(cmd.AddTables(path=args.tables, contents=contents)))
    calendar = _calendar_file(args.calendar) if args.calendar else ""
    if args.after is not None or args.campaign is not None or args.day is not None:
        from delvetui.application import campaign

        made, notes = campaign.new_in_campaign(
            name, path, procedure, commands, after=args.after, downtime=args.downtime,
            start=args.start, leave=args.leave, campaign=args.campaign, day=args.day,
            seed=args.seed, calendar=calendar, restock=args.restock,
        )  # fmt: skip
        _say("\n".join((str(made), *notes)))
        return 0
    if args.downtime is not None or args.leave or args.restock is not None:
        raise DelveError(
            "--downtime, --leave and --restock go with --after PRED (the one continued)."
        )
    assert procedure is not None
    with Expedition.create(
        path, procedure, name=name, seed=args.seed, start=args.start, calendar=calendar
    ) as expedition:
        for command in commands:
            expedition.run(command)
    _say(str(path))
    return 0


def _calendar_file(name: str) -> str:
    """A calendar file's text, read as hostile input and checked before anything is made."""
    from pathlib import Path

    from delvetui.procedure import calendar
    from delvetui.procedure.reading import read_text

    text = read_text(Path(name), calendar.LIMIT)
    calendar.load_text(text, source=name)
    return text


def _act(args: argparse.Namespace) -> int:
    from delvetui import paths
    from delvetui.core.log import batch_lines
    from delvetui.errors import DelveError
    from delvetui.session import Expedition

    words: list[str] = args.words
    if not words:
        raise DelveError("Give a command (e.g. turn crawl) or - to read commands from input.")
    with Expedition.open_for_command(paths.find_expedition(args.expedition)) as expedition:
        if words == ["-"]:
            return _stream(expedition, sys.stdin, sys.stdout)
        text = command_text(words)
        state = expedition.state
        batch = expedition.execute(text)
        for line in batch_lines(batch, expedition.procedure, state):
            _say(line.text)
    return 0


def command_text(words: Sequence[str]) -> str:
    """One command from the shell's words, as the game master meant it.

    The shell has already taken the quotes away. A note is free text, so its words are
    joined as they are (``note "Ash's torch is out"`` keeps the apostrophe); the other
    commands are split again like a shell's, so their words are quoted back.
    """
    import shlex

    if len(words) == 1:
        return words[0]
    if words[0].lower() == "note":
        return " ".join(words)
    return shlex.join(words)


def _stream(expedition: Expedition, source: TextIO, out: TextIO) -> int:
    """Apply commands line by line; acknowledge each only after it is committed."""
    from delvetui.errors import DelveError
    from delvetui.text import visible

    for number, raw in enumerate(source, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            batch = expedition.execute(text)
        except DelveError as error:
            _warn(f"delvetui: line {number}: {error}")
            return EXIT_BAD_INPUT
        out.write(f"ok {batch.seq} {visible(text)}\n")
        out.flush()
    return 0


def _upgrade(args: argparse.Namespace) -> int:
    from delvetui.procedure import registry
    from delvetui.session import Expedition

    with Expedition.open_named(args.expedition) as expedition:
        procedure = registry.find(args.procedure or expedition.procedure.id)
        expedition.change_procedure(procedure)
        _say(f"{expedition.state.name} now follows {procedure.name} ({procedure.id}).")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from delvetui import paths
    from delvetui.session import Expedition

    with Expedition.open(paths.find_expedition(args.expedition), write=False, snapshot=True) as x:
        x.verify()
        _say(f"{x.path}: {x.batch_count} commands, {x.event_count} events, all sound.")
    return 0


def _status(args: argparse.Namespace) -> int:
    from delvetui.text import dumps

    with _reader(args) as expedition:
        # The text shows no odds: they are counted only for --json.
        data = status_data(expedition, odds=args.json)
        if args.json:
            _say(dumps(data))
        else:
            _say(_status_text(expedition.state, expedition.procedure, data))
    return 0


def status_data(expedition: Expedition, *, odds: bool = True) -> dict[str, Any]:
    """The state as the JSON of ``delvetui status --json`` (keys are a contract).

    With ``odds=False`` the "odds" key is left out: counting them plays the next hour out
    every way the dice can fall, most of the time ``status`` takes.
    """
    from delvetui.core import areas, conditions, fights, rooms, table_rows, timers
    from delvetui.core.calendar import date_for
    from delvetui.core.member_light import member_levels, party_level, per_member
    from delvetui.core.party import stocks

    state = expedition.state
    procedure = expedition.procedure
    per_turn = procedure.turn_minutes(state.turn_type)
    last = state.last_hazard
    data: dict[str, Any] = {
        "name": state.name,
        "procedure": procedure.id,
        "turn": state.turn,
        "minutes": state.minutes,
        "clock": state.clock_text,
        "day": state.day,
        "date": date_for(state, procedure),
        "quarter": procedure.time.quarters[state.hour // 6],
        "time_dice": list(state.time_dice),
        "turn_type": state.turn_type,
        "action": state.action,
        "light_level": party_level(state, procedure),
        "party": [
            {
                "name": m.name,
                "hp": m.hp,
                "max_hp": m.max_hp,
                "fatigue": m.fatigue,
                "fatigue_label": procedure.party.fatigue_label(m.fatigue),
                "conditions": list(m.conditions),
                "abilities": dict(m.abilities),
                "tracks": dict(m.tracks),
                **({"died_turn": m.died_at[0]} if m.died_at is not None else {}),
            }
            for m in state.party
        ],
        "lights": [
            {
                "id": light.id,
                "kind": light.kind,
                "carrier": light.carrier,
                "lit": light.lit,
                "state": light.state,
                "remaining_turns": None if light.minutes is None else -(-light.minutes // per_turn),
                "remaining_minutes": light.minutes,
                "count": light.count,
                "spent": light.spent,
                "usage_die": light.usage_die,
                "strikes": light.strikes,
            }
            for light in state.lights
        ],
        "counters": {name: state.counter(name) for name in procedure.counters}
        | dict(state.counters),
        "last_hazard": None if last is None else {"roll": last.roll, "result": last.result},
        # The sign in play: the creature one foretells, or the words of this turn's.
        "sign": state.sign or state.sign_found or None,
        "encounter": _encounter(state),
        "pending": [p.label for p in state.pending],
        "rest_due": bool(procedure.rest and state.turns_since_rest >= procedure.rest.every),
        "session": state.session,
        "in_session": state.in_session,
        "events": expedition.event_count,
        "readonly": expedition.readonly,
        "ended": state.ended,
        # An expedition never given a campaign is in its chain's first's (its own name).
        "campaign": state.campaign or state.name,
        "predecessor": state.predecessor or None,
        **({"odds": _odds(state, procedure)} if odds else {}),
    }
    data.update(conditions.status(state, procedure))
    data.update(timers.status(state))
    data.update(rooms.status(state))
    data.update(fights.status(state, procedure))
    if levels := {name: c for name, c in procedure.counters.items() if c.levels}:
        # Only where a counter names its levels, so every other expedition's JSON is as it was.
        data["counter_levels"] = {n: c.shown(state.counter(n)) for n, c in levels.items()}
    data.update(stocks(state, procedure))
    if per_member(procedure):
        # Only where a light lights only some members, so other expeditions' JSON is as it was.
        seen = member_levels(state, procedure)
        for entry in data["party"]:
            entry["light_level"] = seen[entry["name"]]
    if state.adventures:
        # Only where the adventure's own tables are carried, so other expeditions' JSON is
        # as it was: the area in use and the tables carried.
        data["area"] = state.area or None
        data["tables"] = [
            {"id": tables_id, "name": tables.name, "areas": list(tables.areas)}
            | {"rows": table_rows.listed(tables)}
            for tables_id, tables in areas.carried(state).items()
        ]
    if state.real_time_lights or state.real_timers or state.realtime_paused:
        # Only where real time is in play, so every other expedition's JSON is as it was.
        data["realtime_paused"] = state.realtime_paused
        for shown, light in zip(data["lights"], state.lights, strict=True):
            if light.real_seconds is not None:
                shown["real_seconds_left"] = light.real_seconds
    return data


def _encounter(state: State) -> dict[str, object] | None:
    """The last encounter met, for ``status --json``; null before the first."""
    met = state.last_encounter
    if met is None:
        return None
    return {
        # Null when nobody named the creature; ``text`` is what the log called it.
        "creature": met.creature or None,
        "text": met.text,
        "appearing": met.appearing or None,
        "distance": met.distance or None,
        "reaction": met.reaction or None,
        "area": met.area or None,
        "turn": met.turn,
        "day": met.day,
        "clock": met.clock,
        "this_turn": state.encounter is not None,
    }


def _odds(state: State, procedure: Procedure) -> dict[str, object]:
    """The odds of the next turn and hour, for ``status``; imported only when asked for."""
    from delvetui.core import odds

    return odds.as_json(odds.compute(state, procedure))


#: A member's own light level, as the status line says where they stand.
_SEEN = {"bright": "bright light", "dim": "dim light", "dark": "darkness"}


def _status_text(state: State, procedure: Procedure, data: dict[str, Any]) -> str:
    from delvetui.core import areas, conditions, fights, timers
    from delvetui.core.party import party_stock, resource_words, track_figure
    from delvetui.text import time_left

    turn_name = procedure.turn_name(state.turn_type)
    per_turn, unit = procedure.turn_minutes(state.turn_type), turn_name
    lines = [
        f"{state.name} — {procedure.name}",
        f"{turn_name.capitalize()} {state.turn}, {data['date']} {state.clock_text} "
        f"({data['quarter']}), time dice {' '.join(map(str, state.time_dice)) or '-'}",
        f"Light: {data['light_level']}",
    ]
    if state.predecessor:
        lines.append(f"After {state.predecessor}, in the campaign {data['campaign']}")
    if state.ended:
        words = f" ({state.end_words})" if state.end_words else ""
        lines.append(f"The expedition has ended{words}; `reopen` takes it up again.")
    if data.get("area"):
        lines.append(f"Area: {areas.areas(state).get(data['area'], data['area'])}")
    if (here := state.current_room) is not None:
        marks = f" ({', '.join(here.marks)})" if here.marks else ""
        exits = f"; exits {', '.join(here.exits)}" if here.exits else ""
        lines.append(f"Room: {here.name}{marks}{exits}")
    if data["last_hazard"]:
        lines.append(f"Last hazard: {data['last_hazard']['roll']} {data['last_hazard']['result']}")
    for member, found in zip(data["party"], state.party, strict=True):
        if found.dead:
            # Dead is dead: when, and nothing of the tracks that no longer run.
            when = f" ({turn_name} {found.died_at[0]})" if found.died_at is not None else ""
            lines.append(f"  {member['name']}: dead{when}")
            continue
        shown = conditions.shown(found, state, procedure)
        seen = [f"in {_SEEN[member['light_level']]}"] if "light_level" in member else []
        # A game that counts fatigue as a track (Cairn) shows it with the other tracks, as
        # the roster does, instead of its one-step ladder's word ("fresh").
        ladder = [] if procedure.fatigue_track else [member["fatigue_label"]]
        tracks = [" ".join(track_figure(procedure, found, t)) for t in procedure.tracks]
        extra = ", ".join([*ladder, *seen, *shown, *tracks, *resource_words(data, member["name"])])
        lines.append(f"  {member['name']}: {member['hp']}/{member['max_hp']} HP, {extra}")
    for light in data["lights"]:
        minutes = light["remaining_minutes"]
        # A spent light is used up, whatever time it had when it went out (a torch that
        # sputtered out): its time left is not said.
        left = (
            ""
            if minutes is None or light["spent"]
            else f", {time_left(minutes, per_turn, unit)} left"
        )
        count = f" ×{light['count']}" if light["count"] > 1 else ""
        spent = " (spent)" if light["spent"] else ""
        lines.append(f"  {light['id']}{count}: {light['state']}{left}{spent}")
    for timer in state.timers:
        soon = ", runs out next turn" if timers.ends_next_turn(timer, state, procedure) else ""
        left = timers.left_text(timer, turn_name)
        lines.append(f"  timer {timers.shown_name(timer)}: {left} left{soon}")
    lines.extend(fights.status_lines(state, procedure))
    levels = data.get("counter_levels", {})
    for name, value in {**data["counters"], **party_stock(data)}.items():
        lines.append(
            f"  {name}: {levels[name]} ({value})" if name in levels else f"  {name}: {value}"
        )
    return "\n".join(lines)


def _list(args: argparse.Namespace) -> int:
    from delvetui import fileio, paths
    from delvetui.core.calendar import date_for
    from delvetui.errors import DelveError
    from delvetui.session import Expedition
    from delvetui.text import dumps

    rows = []
    for path in paths.saved_expeditions():
        try:
            with Expedition.open(path, write=False, snapshot=True) as expedition:
                state = expedition.state
                rows.append(
                    {
                        "name": path.stem,
                        "path": str(path),
                        "procedure": expedition.procedure.id,
                        "turn": state.turn,
                        "clock": state.clock_text,
                        "day": state.day,
                        "date": date_for(state, expedition.procedure),
                        "ended": state.ended,
                        "last_played": fileio.modified_at(path),
                    }
                )
        except DelveError as error:
            rows.append({"name": path.stem, "path": str(path), "error": error.message})
    if args.json:
        _say(dumps(rows))
        return 0
    if not rows:
        _say(f"No saved expeditions in {paths.data_dir()}.")
        return 0
    for row in rows:
        if "error" in row:
            _say(f"{row['name']}: cannot be opened ({row['error']})")
        else:
            ended = ", ended" if row["ended"] else ""
            _say(
                f"{row['name']}: {row['procedure']}, turn {row['turn']}, "
                f"{row['date']} {row['clock']}{ended}, last played {row['last_played']}"
            )
    return 0


def _procedures(args: argparse.Namespace) -> int:
    from pathlib import Path

    from delvetui.errors import DelveError, ProcedureError
    from delvetui.procedure import registry
    from delvetui.procedure.loader import load_file
    from delvetui.text import dumps

    if args.new_id is not None and args.action != "copy":
        raise DelveError(f"'{args.new_id}' is one word too many; only copy takes a new id.")
    if args.action == "check":
        if not args.target:
            raise DelveError("Give the procedure file to check: delvetui procedures check FILE.")
        procedure = load_file(Path(args.target))
        # In the procedures folder, a file is also refused for an id another has.
        mine = registry.user_entry(Path(args.target))
        if mine is not None and mine.error is not None:
            raise ProcedureError(args.target, mine.error.problems)
        _say(f"{args.target}: {procedure.name} ({procedure.id}) is a valid procedure.")
        return 0
    if args.action == "show":
        if not args.target:
            raise DelveError("Give a procedure id: delvetui procedures show delving.")
        from delvetui.procedure.writer import dump

        _say(dump(registry.find(args.target)), end="")
        return 0
    if args.action == "copy":
        if not (args.target and args.new_id):
            raise DelveError(
                "Give the procedure to copy and the copy's id: "
                "delvetui procedures copy delving my-delving."
            )
        made = registry.copy(args.target, args.new_id)
        _say(f"{made}: a copy of {args.target} as {args.new_id}; edit it, then use "
             f"delvetui new NAME --procedure {args.new_id}.")  # fmt: skip
        return 0
    entries = registry.entries()
    if args.json:
        _say(
            dumps(
                [
                    {
                        "id": e.id,
                        "name": e.procedure.name if e.procedure else None,
                        "source": e.procedure.source if e.procedure else None,
                        "summary": e.procedure.summary if e.procedure else None,
                        "user": e.user,
                        "path": str(e.path),
                        "error": e.error.message if e.error else None,
                        "problem": e.problem or None,
                    }
                    for e in entries
                ],
            )
        )
        return 0
    for entry in entries:
        origin = "user" if entry.user else "shipped"
        if entry.procedure is None:
            assert isinstance(entry.error, ProcedureError)
            count = len(entry.error.problems)
            more = f" (and {count - 1} more)" if count > 1 else ""
            _say(f"{entry.id:<24} ({origin}) cannot be used, {count} problem(s): {entry.path}")
            _say(f"{'':<24} {entry.problem}{more}")
            continue
        _say(f"{entry.id:<24} {entry.procedure.name} ({origin}) — {entry.procedure.summary}")
        if entry.procedure.source and entry.procedure.source != entry.procedure.name:
            # The game text the procedure follows (its address and licence, where it has).
            _say(f"{'':<24} from {entry.procedure.source}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from delvetui.errors import DelveError
    from delvetui.export import export_chunks, format_for

    to_file = args.output not in (None, "-")
    fmt = args.format or (format_for(args.output) if to_file else None) or "md"
    if args.campaign is not None:
        return _chronicle(args, fmt)
    if args.expedition is None:
        raise DelveError(
            "Name the expedition to export (delvetui export crypt), or a campaign to write "
            "its chronicle (delvetui export --campaign barrow)."
        )
    with _reader(args) as expedition:
        # In pieces as they are made: a long expedition's JSON is never whole in memory.
        return _write_out(args, export_chunks(expedition, fmt, session=args.session))


def _write_out(args: argparse.Namespace, pieces: Iterable[str]) -> int:
    """An export's pieces to ``-o FILE`` (atomically, refused when it exists without
    ``--force``), or to standard output."""
    from pathlib import Path

    from delvetui import fileio
    from delvetui.errors import DelveError, TargetExists
    from delvetui.text import visible

    if args.output in (None, "-"):
        for piece in pieces:
            # Character by character, so showing each piece is showing the whole.
            sys.stdout.write(visible(piece, lines=True))
        return 0
    try:
        fileio.write_file(Path(args.output), pieces, replace=args.force)
    except TargetExists:
        raise DelveError(
            f"{args.output} already exists; add --force to replace it, or choose another "
            "file. Nothing was written."
        ) from None
    _say(args.output)
    return 0


def _chronicle(args: argparse.Namespace, fmt: str) -> int:
    """``export --campaign NAME``: the campaign's chronicle, written expedition by expedition."""
    from delvetui import paths
    from delvetui.errors import DelveError
    from delvetui.export import campaign, campaign_reading, chronicle

    for given, flag in ((args.expedition, "an EXPEDITION"), (args.session, "--session")):
        if given is not None:
            raise DelveError(
                f"A chronicle tells the whole campaign: leave out {flag} with --campaign."
            )
    if args.salvage:
        raise DelveError("A chronicle reads only whole expeditions: leave out --salvage.")
    if fmt not in chronicle.FORMATS:
        raise DelveError(f"A chronicle is written as md, html, json or svg, not {fmt}.")
    campaigns, refused = campaign_reading.survey(paths.saved_expeditions())
    chosen = campaign.choose(campaigns, args.campaign, refused)
    for bad in refused:
        _warn(f"delvetui: not in the chronicle, cannot be read: {bad.name}: {bad.reason}")
    if fmt != "md" or args.output in (None, "-"):
        return _write_out(args, chronicle.chunks(chosen, fmt))
    # Markdown to a file: its timeline is a picture beside it (chronicle-timeline.svg),
    # linked, written first and, like the chronicle, only where nothing is replaced
    # unasked.
    from pathlib import Path

    from delvetui import fileio
    from delvetui.export import campaign_picture

    target = Path(args.output)
    beside = chronicle.picture_beside(target)
    for path in (target, beside):
        if path.exists() and not args.force:
            raise DelveError(
                f"{path} already exists; add --force to replace it, or choose another "
                "file. Nothing was written."
            )
    fileio.write_file(beside, [campaign_picture.render(chosen)], replace=True)
    return _write_out(args, chronicle.chunks(chosen, fmt, picture=beside.name))


def _campaign(args: argparse.Namespace) -> int:
    from delvetui import paths
    from delvetui.export import campaign, campaign_reading
    from delvetui.text import dumps

    campaigns, refused = campaign_reading.survey(paths.saved_expeditions())
    if args.name is not None:
        campaigns = [campaign.choose(campaigns, args.name, refused)]
    if args.json:
        _say(dumps(campaign.document(campaigns, refused)))
        return 0
    _say("\n".join(campaign.report(campaigns, refused)))
    return 0


def _tables(args: argparse.Namespace) -> int:
    """``tables convert FILE``: the TOML of a table as printed, printed or written to OUT."""
    from pathlib import Path

    from delvetui.procedure import tables_file

    converted = tables_file.convert(Path(args.file))
    written = _write_out(args, [converted.toml])
    if args.output not in (None, "-"):
        areas = converted.adventure.areas.values()
        told = "; ".join(f"{a.label}, {a.dice}, {len(a.rows)} rows" for a in areas)
        _say(f"read as {converted.said}: {told}")
    return written


def _import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from delvetui.export import import_file

    _say(str(import_file(Path(args.file), args.name)))
    return 0


_HANDLERS = {
    "campaign": _campaign,
    "export": _export,
    "import": _import,
    "open": _open,
    "new": _new,
    "act": _act,
    "upgrade": _upgrade,
    "verify": _verify,
    "status": _status,
    "players": _players,
    "serve": _serve,
    "list": _list,
    "procedures": _procedures,
    "tables": _tables,
}
