"""Words in block letters, as large as the room they are given: the players' screen's type.

Each letter is five dots high, drawn with half blocks so that a dot is square on a
terminal whose cells are twice as high as wide; a scale of N makes each dot N cells across
and N half-cells down. ``fit`` finds the largest scale at which the words fit a width and a
height (wrapping them into lines when allowed); ``BigText`` draws them centred, or the
plain words when even the smallest letters do not fit or a character has none.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

#: Block letters five dots high, drawn with half blocks: each dot is ``scale`` cells across
#: and ``scale`` half-cells down, so a letter is about as wide as it is tall on screen.
GLYPHS: dict[str, tuple[str, ...]] = {
    "A": (".###.", "#...#", "#####", "#...#", "#...#"),
    "B": ("####.", "#...#", "####.", "#...#", "####."),
    "C": (".####", "#....", "#....", "#....", ".####"),
    "D": ("####.", "#...#", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "####.", "#....", "#####"),
    "F": ("#####", "#....", "####.", "#....", "#...."),
    "G": (".####", "#....", "#..##", "#...#", ".####"),
    "H": ("#...#", "#...#", "#####", "#...#", "#...#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..###", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "###..", "#..#.", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#...#", "#...#"),
    "N": ("#...#", "##..#", "#.#.#", "#..##", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", ".###."),
    "P": ("####.", "#...#", "####.", "#....", "#...."),
    "Q": (".###.", "#...#", "#.#.#", "#..#.", ".##.#"),
    "R": ("####.", "#...#", "####.", "#..#.", "#...#"),
    "S": (".####", "#....", ".###.", "....#", "####."),
    "T": ("#####", "..#..", "..#..", "..#..", "..#.."),
    "U": ("#...#", "#...#", "#...#", "#...#", ".###."),
    "V": ("#...#", "#...#", "#...#", ".#.#.", "..#.."),
    "W": ("#...#", "#...#", "#.#.#", "##.##", "#...#"),
    "X": ("#...#", ".#.#.", "..#..", ".#.#.", "#...#"),
    "Y": ("#...#", ".#.#.", "..#..", "..#..", "..#.."),
    "Z": ("#####", "...#.", "..#..", ".#...", "#####"),
    "0": (".###.", "#..##", "#.#.#", "##..#", ".###."),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("####.", "....#", ".###.", "#....", "#####"),
    "3": ("####.", "....#", ".###.", "....#", "####."),
    "4": ("#...#", "#...#", "#####", "....#", "....#"),
    "5": ("#####", "#....", "####.", "....#", "####."),
    "6": (".###.", "#....", "####.", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", "..#.."),
    "8": (".###.", "#...#", ".###.", "#...#", ".###."),
    "9": (".###.", "#...#", ".####", "....#", ".###."),
    ":": (".", "#", ".", "#", "."),
    "-": ("...", "...", "###", "...", "..."),
    "·": (".", ".", "#", ".", "."),
    ".": (".", ".", ".", ".", "#"),
    "/": ("....#", "...#.", "..#..", ".#...", "#...."),
    ",": ("..", "..", "..", ".#", "#."),
    "'": ("#", "#", ".", ".", "."),
    "!": ("#", "#", "#", ".", "#"),
    "?": ("###.", "...#", ".##.", "....", ".#.."),
    " ": ("...", "...", "...", "...", "..."),
}

#: How many dots high a block letter is.
DOTS = 5


def dots(text: str) -> list[str] | None:
    """The text in block letters as rows of dots (``#`` on, ``.`` off), a dot's gap between
    letters; None when a character has no block letter (the text is then shown plainly)."""
    glyphs = [GLYPHS.get(character) for character in text.upper()]
    if not glyphs or any(glyph is None for glyph in glyphs):
        return None
    return [".".join(glyph[row] for glyph in glyphs if glyph is not None) for row in range(DOTS)]


def block_width(text: str, scale: int) -> int | None:
    """The cells across the text takes in block letters at this scale; None when it has none."""
    found = dots(text)
    return None if found is None else len(found[0]) * scale


def block_height(scale: int) -> int:
    """The rows a line of block letters takes at this scale."""
    return -(-DOTS * scale // 2)


def block_lines(text: str, scale: int) -> list[str]:
    """The text in block letters, each dot ``scale`` cells across and ``scale`` half-cells
    down (so a dot is square on a screen whose cells are twice as high as wide)."""
    found = dots(text) or []
    rows = ["".join(dot * scale for dot in row) for row in found for _ in range(scale)]
    if len(rows) % 2:
        rows.append("." * len(rows[0]))
    halves = {("#", "#"): "█", ("#", "."): "▀", (".", "#"): "▄", (".", "."): " "}
    return [
        "".join(halves[pair] for pair in zip(top, bottom, strict=True))
        for top, bottom in zip(rows[::2], rows[1::2], strict=True)
    ]


def block_wrap(text: str, scale: int, width: int, most: int) -> list[str] | None:
    """The text's words in at most ``most`` lines that each fit ``width`` cells in block
    letters at this scale (a line break in the text always starts a new line); None when
    they do not, or a character has no block letter."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        start = len(lines)
        for word in paragraph.split():
            joined = f"{lines[-1]} {word}" if len(lines) > start else word
            if len(lines) > start and (block_width(joined, scale) or width + 1) <= width:
                lines[-1] = joined
                continue
            if (block_width(word, scale) or width + 1) > width:
                return None
            lines.append(word)
    return lines if 0 < len(lines) <= most else None


def fit(text: str, width: int, height: int, most: int, lines: int = 1) -> tuple[int, list[str]]:
    """The largest scale, up to ``most``, at which the text fits in block letters (in at most
    ``lines`` lines, a blank row between two), and its lines; ``(0, [])`` when none does."""
    for scale in range(most, 0, -1):
        found = block_wrap(text, scale, width, lines)
        if found and len(found) * (block_height(scale) + 1) - 1 <= height:
            return scale, found
    return 0, []


class BigText(Widget):
    """Words in block letters as large as the widget allows (up to ``most`` times the
    smallest, in up to ``lines`` lines), centred; the ``shorter`` words in their place
    when these do not fit at all ("4t" for "4 turns"); plain bold words when even the
    smallest letters of the shortest do not fit."""

    DEFAULT_CSS = """
    BigText { width: 1fr; height: 1fr; text-align: center; }
    """

    def __init__(
        self, text: str = "", *, most: int = 12, lines: int = 1, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.text = text
        self.most = most
        self.lines = lines
        #: Fewer letters for the same, tried in order when ``text`` does not fit.
        self.shorter: tuple[str, ...] = ()
        #: The scale last drawn at (0: plain words).
        self.scale = 0

    def update(self, text: str, shorter: tuple[str, ...] = ()) -> None:
        """Show other words (and fewer letters for them, when they do not fit)."""
        if (text, shorter) != (self.text, self.shorter):
            self.text = text
            self.shorter = shorter
            self.refresh(layout=True)

    def _fit(self, width: int, height: int) -> tuple[int, list[str], str]:
        """The largest scale of the first words that fit (``text``, then ``shorter``), its
        lines and those words; scale 0 and ``text`` when none does."""
        for text in (self.text, *self.shorter):
            scale, lines = fit(text, width, height, self.most, self.lines)
            if scale:
                return scale, lines, text
        return 0, [], self.text

    def fitted(self, most: int, lines: int) -> None:
        """Draw at most this large, in at most this many lines."""
        if (most, lines) != (self.most, self.lines):
            self.most, self.lines = most, lines
            self.refresh(layout=True)

    def render(self) -> Text:
        """The words, centred across and down the widget."""
        width, height = self.content_size
        self.scale, lines, text = self._fit(width, height)
        if not self.scale:
            return Text(text, style="bold", justify="center")
        drawn: list[str] = []
        for line in lines:
            if drawn:
                drawn.append("")
            for row in block_lines(line, self.scale):
                left = (width - len(row)) // 2
                drawn.append(" " * left + row + " " * (width - left - len(row)))
        above = ["" for _ in range((height - len(drawn)) // 2)]
        return Text("\n".join([*above, *drawn]), no_wrap=True, justify="left")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """With ``height: auto``: as high as the largest letters that fit across."""
        scale, lines, _ = self._fit(width, viewport.height)
        if scale:
            return len(lines) * (block_height(scale) + 1) - 1
        return max(1, len(Text(self.text).wrap(self.app.console, max(1, width))))
