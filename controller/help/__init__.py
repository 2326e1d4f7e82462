"""What the codes on a screen mean, at the table: hold NEXT and the screen explains itself.

The explanations are those of the codes page (``controller/help/codes.md``, shipped with the package, and
copied to ``docs/codes.md`` by ``docs/generate.py``): one text for the players' docs and the table. Each row of
a game's table (and of the section every game shares, the buttons and footers) gives a code as the screen
shows it, in backticks, and its meaning; a code is found on a screen by its example with every number read as
any number (``Home Y0 B0`` is found in ``Home Y3 B1``), so the page needs no second notation of patterns.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from controller.screen import Screen

CODES_PATH = Path(__file__).resolve().parent / "codes.md"
SHARED = "The buttons and the footers"
ROW_CHARS = 21  # a row of the 128-pixel screen
ROWS = 4  # rows under the title and over the footer


CODE_LIKE = re.compile(r"\S*(?:\d[A-Za-z]|[A-Za-z]\d|[:+>=][A-Za-z0-9])\S*")
"""A word of a screen that is a code, not plain English: a number against a letter (``Y0``, ``a4-a5``, ``4c``)
or a sign before one (``P:R-4``, ``+Apulia``). The screen test checks that the page explains every one shown."""


@dataclass(frozen=True)
class Code:
    example: str  # as the screen shows it
    meaning: str
    pattern: re.Pattern[str]


@cache
def codes(title: str) -> tuple[Code, ...]:
    """The codes of the game titled ``title`` (its section of the page), then those every game shares."""
    sections: dict[str, list[Code]] = {}
    current: list[Code] = []
    names: list[tuple[str, ...]] = []
    for line in CODES_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            current, names = sections.setdefault(line[3:].strip(), []), []
        elif line.startswith("Names: "):
            names = [tuple(group.split()) for group in line[len("Names: "):].replace("`", "").split(" | ")]
        elif line.startswith("| `"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            examples, meaning = re.findall(r"`([^`]+)`", cells[0]), _plain(cells[1])
            current.extend(Code(e, meaning, _pattern(e, names)) for e in examples)
    return (*sections.get(title, ()), *sections.get(SHARED, ()))


def explain(screen: Screen, title: str) -> list[Screen]:
    """Help pages for the codes ``screen`` shows, each code's meaning over as many pages as it needs; a page
    saying there is none when it shows none."""
    text = "\n".join((screen.title, *screen.lines, screen.footer))
    found = covering(text, codes(title))
    unique = list({(c.example, c.meaning): c for c in found}.values())  # a row may give two examples
    pages: list[tuple[str, tuple[str, ...]]] = []
    for code in unique:
        rows = textwrap.wrap(code.meaning, ROW_CHARS)
        pages += [(code.example, tuple(rows[i:i + ROWS])) for i in range(0, len(rows), ROWS)]
    if not pages:
        return [Screen("Help", ("No codes on this", "screen. All codes:", "docs/codes.md"), footer="OK: back")]
    return [Screen(f"{n}/{len(pages)} {example}", rows, footer="NEXT: more, OK: back" if n < len(pages)
                   else "OK: back") for n, (example, rows) in enumerate(pages, 1)]


def covering(text: str, known: tuple[Code, ...]) -> list[Code]:
    """The codes found in ``text``, in the page's order, less those found only inside another one's match (the
    count ``Y0`` inside ``Home Y0 B0`` is not an entry ``E3``)."""
    spans = [(m.span(), code) for code in known for m in code.pattern.finditer(text)]
    kept = [code for (a, b), code in spans
            if not any(x <= a and b <= y and (x, y) != (a, b) for (x, y), _ in spans)]
    return [code for code in known if code in kept]


def _pattern(example: str, names: list[tuple[str, ...]]) -> re.Pattern[str]:
    """The example as a pattern of the screens it stands for: its numbers any number; a short run of letters
    (one or two, not part of a longer word) any letters of the same case (``a4-a5`` any step, ``P:R-4!`` any
    field and army); a name of the section's ``Names:`` line any name of its group (``Noiro`` any horse); a
    run of card-like words (``N2 Nc``: a hand) or of names any number of them; spaces any number of spaces
    (columns are padded); the rest as written, standing as whole words."""
    tokens = [_token(word, names) for word in example.split()]
    out: list[str] = []
    for i, token in enumerate(tokens):
        if i and token == tokens[i - 1] and (token == CARD or token.startswith("(?:")):
            continue  # a run of cards or names: one, then any more
        out.append(f"{token}(?:\\ +{token})*" if token == CARD or token.startswith("(?:") else token)
    return re.compile(r"(?<![\w.])" + r"\ +".join(out) + r"(?![\w])")


CARD = r"[A-Z](?:\d+|[a-z])"


def _token(word: str, names: list[tuple[str, ...]]) -> str:
    if re.fullmatch(CARD, word):
        return CARD
    out = []
    for piece in re.split(r"(\d+|[A-Za-z]+(?:\.[A-Za-z]+)*)", word):
        group = next((g for g in names if piece in g), None)
        if group is not None:
            out.append("(?:" + "|".join(re.escape(n) for n in sorted(group, key=len, reverse=True)) + ")")
        elif piece.isdigit():
            out.append(r"\d+")
        elif piece.isalpha() and len(piece) <= 2:
            out.append("".join("[a-z]" if c.islower() else "[A-Z]" if c.isupper() else re.escape(c) for c in piece))
        else:
            out.append(re.escape(piece))
    return "".join(out)


def _plain(markdown: str) -> str:
    """A meaning as the screen shows it: no backticks, emphasis or links."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", markdown)
    return re.sub(r"[`*]", "", text).replace("\\|", "|")
