"""Spreadsheets (CSV and TSV with a header row) -> questions: each row is one question,
its columns found by name and content (importing/shape.py), as a JSON bank's keys are:
``Question, A, B, C, D, Answer, Explanation, Topic``, or ``option1`` …, or ``Option A`` …;
the answer a letter, a number or a choice's text; a cell that holds a JSON list or object
(choices exported as JSON) is read as one.

What separates the cells is told from the file, not assumed: Excel's ``sep=;`` first
line if there is one, else whichever of ``,`` ``;`` tab ``|`` splits the header row and
the rows after it into the same number of cells (Excel writes ``;`` in many European
locales); a separator other than the format's own is said (W704). The standard library's
``csv`` reads the rows: quoted cells may hold separators and line breaks. Rows end only
at ``\\n``: a U+2028, a form feed or any other character ``str.splitlines`` would break at
is a cell's text. What breaks one row never costs another: a quote that opens a cell and
is never closed, or closes only lines later with text right after it (a quote meant as
text), would swallow every row up to the next quote, so it is an error at the line where
it opens (E708) and the lines after it are read as rows of their own; a cell over 1 MiB
is an error at its row (E708). Each problem names the row's line.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from nca_anki.diagnostics import Diagnostic, clip, error
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.containers import wrong_run
from nca_anki.importing.shape import Path_, Structured

CELL_LIMIT = 1 << 20  # 1 MiB in one cell: more is no question's text
# The separators a spreadsheet is told to have, as a message names each.
SEPARATORS = {",": "','", ";": "';'", "\t": "a tab", "|": "'|'"}
_SNIFFED_LINES = 50  # the header and the rows after it that say what the separator is
# Excel's first line naming the separator ("sep=;"), which it reads and never shows.
_SEP_LINE_RE = re.compile(r'^\ufeff?"?sep=(?P<sep>[^"\r\n])"?[ \t]*\r?\n?$', re.I)


@dataclass(frozen=True)
class Separator:
    """What separates a spreadsheet's cells, and how that was told."""

    char: str
    why: str  # "the file's first line, 'sep=;', says so", "it splits the header and …"
    skip: int = 0  # lines before the header (Excel's "sep=" line)
    width: int = 0  # the header's cells
    rows: int = 0  # of the rows after the header that were looked at,
    kept: int = 0  # those with as many cells as the header

    @property
    def name(self) -> str:
        return SEPARATORS.get(self.char, repr(self.char))


def lines_of(text: str) -> list[str]:
    """``text``'s lines, each with its "\\n": the only line break a row ends at."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def separator(lines: list[str], preferred: str = ",") -> Separator | None:
    """The separator of the spreadsheet in ``lines``: Excel's ``sep=`` line's, or the one
    of SEPARATORS that splits the header into the most cells that the rows after it keep
    (``preferred`` wins a tie); None if none splits the header in two."""
    if lines and (named := _SEP_LINE_RE.match(lines[0])):
        return Separator(named["sep"], f"the file's first line, '{lines[0].strip()}', says so", 1)
    sample = lines[:_SNIFFED_LINES]
    csv.field_size_limit(max(sum(map(len, sample)) + 1, CELL_LIMIT))  # a cell's size: E708
    # Quotes as CSV reads them; then, if that split nothing (a quote in the header never
    # closed took the sample into one cell), as plain text: _Rows says where it opens.
    quotings: tuple[Literal[0, 3], ...] = (csv.QUOTE_MINIMAL, csv.QUOTE_NONE)
    for quoting in quotings:
        best: tuple[tuple[int, int, int], Separator] | None = None
        for rank, char in enumerate(dict.fromkeys((preferred, *SEPARATORS))):
            score, found = _split_by(sample, len(sample) < len(lines), char, quoting)
            if found is not None and (best is None or (*score, -rank) > best[0]):
                best = ((*score, -rank), found)
        if best is not None:
            return best[1]
    return None


def _split_by(sample: list[str], cut: bool, char: str, quoting: Literal[0, 3]
              ) -> tuple[tuple[int, int], Separator | None]:
    """How well ``char`` splits the rows of ``sample`` (its last perhaps ``cut`` short):
    (rows that keep the header's cells, the header's cells), and the Separator; none if
    it does not split the header in two."""
    reader = csv.reader(sample, delimiter=char, skipinitialspace=True, strict=False,
                        quoting=quoting)
    rows = [r for r in reader if any(c.strip() for c in r)]
    if cut and len(rows) > 1:
        rows.pop()  # perhaps cut short by the sample's end
    if not rows or len(rows[0]) < 2:
        return (0, 0), None
    width = len(rows[0])
    kept = sum(len(r) == width for r in rows[1:])
    why = (f"it splits the header and {kept} of the {len(rows) - 1} rows after it into "
           f"{width} cells each" if len(rows) > 1 else f"it splits the header into {width} "
           "cells")
    return (kept, width), Separator(char, why, 0, width, len(rows) - 1, kept)


def read(text: str, path: str, overrides: Mapping[str, str] | None = None, *,
         delimiter: str = ",") -> Reading:
    lines = lines_of(text)
    sep = separator(lines, delimiter)
    if sep is None:
        first = next((line.strip() for line in lines if line.strip()), "")
        if not first:
            return Reading((), (error("E701", path, 1, "is empty; nothing converted"),))
        return Reading((), (error("E701", path, 1 + lines.index(next(
            line for line in lines if line.strip())), (
            f"the header row ({clip(first, 60)!r}) has no separator between column names "
            f"({', '.join(SEPARATORS.values())}): it must name the columns, as in "
            "Question, A, B, C, D, Answer; nothing converted")),))
    csv.field_size_limit(max(len(text) + 1, CELL_LIMIT))  # a big cell: E708, at its row
    problems: list[Diagnostic] = []
    table = _Rows(lines, sep.skip, sep.char, path, problems)
    records = iter(table)
    header = next((r for r in records if r[1] is None or any(c.strip() for c in r[1])),
                  None)
    if header is None:
        return Reading((), (error("E701", path, 1, "is empty; nothing converted"),))
    top, titles = header
    if titles is None:  # said
        return Reading((), tuple(problems))
    table.width = len(titles)
    names = _names(titles)
    rows: list[dict[str, object]] = []
    starts: dict[Path_, int] = {}
    for line, cells in records:
        if cells is None or not any(c.strip() for c in cells):
            continue
        if why := _unfit(cells, names, sep):
            problems.append(error("E708", path, line, f"{why}; the row was not converted"))
            continue
        starts[(len(rows),)] = line
        # the wrong answers one a column ("Incorrecta1", "wrong 2"): one list (containers.py)
        rows.append(wrong_run({n: _cell(c) for n, c in zip(names, cells) if c.strip()}))
    noun = f"rows, cells separated by {sep.name}" + (
        "" if sep.char == delimiter else f" ({sep.why})")
    structured = Structured(path, lambda where: starts.get(where[:1], top),
                            overrides or {}, problems, shown=lambda where: "", noun=noun)
    said = sum(d.is_error for d in problems)
    sections = structured.read(rows, default_title=title_from_name(path))
    # Rows read and not one converted, with no word of why from the rows themselves (the
    # errors before are other rows'): said at the header, never left out mutely.
    if not sections and (rows or not said) and sum(
            d.is_error for d in structured.problems) == said:
        structured.problems.append(error("E701", path, top, _no_columns(titles, names, sep,
                                                                       rows, top)))
    return Reading(sections, tuple(structured.problems))


def _no_columns(titles: list[str], names: list[str], sep: Separator,
                rows: list[dict[str, object]], top: int) -> str:
    """Why no row was converted: a first row that reads like the rows (no header), or a
    header that names no question and choice columns."""
    read = f"none of the {len(rows)} rows after it converted" if rows else "nothing converted"
    if _like_a_row(titles, rows):
        return (f"line {top} reads like a row ({clip(titles[0], 40)!r}), not a header naming "
                "the columns: add a header row (as in Question, A, B, C, D, Answer); "
                f"{read}")
    return (f"the header ({clip(', '.join(map(repr, names)), 80)}; separated by "
            f"{sep.name}) names no question and choice columns (as in Question, A, B, C, D, "
            f"Answer): {read}")


def _like_a_row(titles: list[str], rows: list[dict[str, object]]) -> bool:
    """A first row that is a question, not column names: a cell of many words or asking
    something, in a column whose cells below are sentences too."""
    for k, title in enumerate(titles):
        if len(title.split()) >= _HEADER_WORDS or title.rstrip().endswith("?"):
            below = [v for r in rows for v in list(r.values())[k:k + 1] if isinstance(v, str)]
            if not rows or 2 * sum(len(v.split()) >= 3 for v in below) >= len(below) > 0:
                return True
    return False


_HEADER_WORDS = 6  # a column's name is shorter than this; a question rarely is


def _unfit(cells: list[str], names: list[str], sep: Separator) -> str:
    """Why a row's cells cannot be read under the header's names; "" if they can."""
    big = next((k for k, c in enumerate(cells) if len(c) > CELL_LIMIT), None)
    if big is not None:
        return (f"a cell of {len(cells[big]) / (1 << 20):.1f} MiB (column "
                f"{names[big] if big < len(names) else str(big + 1)!r}): no question's text "
                "is that long (1 MiB at most)")
    if any(c.strip() for c in cells[len(names):]):
        return (f"the row has {len(cells)} cells, the header {len(names)} columns (cells "
                f"separated by {sep.name}), so no cell's column is sure: a cell that holds "
                'the separator must be in quotes ("Yes, both")')
    return ""


def _names(header: list[str]) -> list[str]:
    """The header's column names, one space between words; a name written twice (or
    none) numbered by its column."""
    names = [" ".join(h.replace("\ufeff", "").split()) for h in header]
    seen: set[str] = set()
    for k, name in enumerate(names):
        if name in seen or not name:
            names[k] = f"{name or 'column'} {k + 1}"
        seen.add(names[k])
    return names


def _cell(text: str) -> object:
    """A cell's value: its text, or the list or object it holds as JSON (a column of
    choices exported as ``[{"text": …, "is_correct": true}, …]``)."""
    stripped = text.strip()
    if stripped[:1] in "[{" and stripped[-1:] in "]}":
        try:
            value = json.loads(stripped)
        except ValueError:
            return text
        if isinstance(value, (list, dict)):
            return value
    return text


def read_tsv(text: str, path: str, overrides: Mapping[str, str] | None = None) -> Reading:
    return read(text, path, overrides, delimiter="\t")


# --- the rows -------------------------------------------------------------------------


class _Lines:
    """The lines from ``at`` on, one at a time, as csv.reader takes them; ``at`` may be
    set back or forward between rows, where the next reader starts."""

    def __init__(self, lines: list[str], at: int) -> None:
        self.lines, self.at = lines, at

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        if self.at >= len(self.lines):
            raise StopIteration
        self.at += 1
        return self.lines[self.at - 1]


@dataclass(frozen=True)
class _Cell:
    start: int  # offsets in the row's text
    end: int
    kind: str  # "plain", "quoted", "unclosed" (to the text's end), "text" (see _scan)
    close: int = -1  # where a quoted cell's closing quote is


class _Rows:
    """A spreadsheet's rows from line index ``at`` on, each as (its first line, its cells)
    or (its first line, None) for a row that cannot be read, said in ``problems``."""

    def __init__(self, lines: list[str], at: int, sep: str, path: str,
                 problems: list[Diagnostic]) -> None:
        self.lines, self.at, self.sep, self.path, self.problems = lines, at, sep, path, problems
        self.width = 0  # the header's cells, once it is read

    def __iter__(self) -> Iterator[tuple[int, list[str] | None]]:
        source = _Lines(self.lines, self.at)
        reader = self._reader(source)
        mended = -1  # the row whose quotes were last taken as text
        while True:
            start = source.at
            try:
                cells: list[str] | None = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                source.at = self._mend(start, source.at, str(exc), again=mended != start)
                reader = self._reader(source)
                if source.at == start:  # its quotes taken as text: read it again
                    mended = start
                    continue
                cells = None
            if cells is not None and len(cells) != self.width > 0 and source.at - start > 1 \
                    and (opened := self._swallowed(start, source.at)) is not None:
                source.at, cells = self._refuse(start, source.at, *opened), None
                reader = self._reader(source)
            yield start + 1, cells

    def _reader(self, source: _Lines) -> Iterator[list[str]]:
        # strict: a quote that is not CSV's quoting stops the reader, and _mend looks at it
        return csv.reader(source, delimiter=self.sep, skipinitialspace=True, strict=True)

    def _mend(self, start: int, end: int, why: str, *, again: bool) -> int:
        """The row of lines[start:end] that csv refused (``why``): where to read on, the
        error said; or ``start`` after taking each quote of its lines that is text (a
        closing quote with text right after it, '"5" screen') as text (once: ``again``)."""
        text = "".join(self.lines[start:end])
        cells = _scan(text, self.sep)
        trouble = next((c for c in cells if c.kind in ("unclosed", "text")), None)
        same_line = trouble is not None and trouble.kind == "text" and \
            "\n" not in text[trouble.start:trouble.close]
        if trouble is None or (same_line and not again):  # a character csv refuses
            self._said(end, f"cannot be read as a row: {why}", 0)
            return end
        if same_line:
            patched, done = [], 0
            for c in cells:
                if c.kind == "text" and "\n" not in text[c.start:c.close]:
                    written = text[c.start:c.end]
                    patched += [text[done:c.start], '"', written.replace('"', '""'), '"']
                    done = c.end
            self.lines[start:end] = lines_of("".join(patched) + text[done:])
            return start
        return self._refuse(start, end, text, trouble)

    def _swallowed(self, start: int, end: int) -> tuple[str, _Cell] | None:
        """A quoted cell of the row in lines[start:end] that spans lines, one of which
        has as many cells as the header: the rows a quote opened in error took in."""
        text = "".join(self.lines[start:end])
        for cell in _scan(text, self.sep):
            inner = text[cell.start:cell.end].split("\n")[1:]
            if cell.kind == "quoted" and any(
                    len(next(csv.reader([line], delimiter=self.sep, skipinitialspace=True),
                             [])) == self.width for line in inner):
                return text, cell
        return None

    def _refuse(self, start: int, end: int, text: str, cell: _Cell) -> int:
        """E708 at the line where ``cell``'s quote opens; the line after it, to read on."""
        at = start + text.count("\n", 0, cell.start)
        rest = len(self.lines) - at - 1
        where = ("is never closed" if cell.kind == "unclosed" else
                 f"closes only on line {start + text.count(chr(10), 0, cell.close) + 1}"
                 + (", with text after it" if cell.kind == "text" else ""))
        self._said(at + 1, (
            f"a quote opens a cell here ({clip(text[cell.start:].split(chr(10))[0], 40)!r}) "
            f"and {where}"), rest,
            _CLOSE_IT)
        return at + 1

    def _said(self, line: int, what: str, rest: int, how: str = "") -> None:
        """The error of a row that cannot be read: E708, the rest read on; or, the header's,
        E701: nothing can be read without it."""
        if not self.width:
            self.problems.append(error("E701", self.path, line, (
                f"the header row: {what}{'; ' + how if how else ''}; nothing in the file was "
                "converted")))
            return
        after = ("" if not rest else "; the next line read as a row" if rest == 1
                 else f"; the next {rest} lines read as rows")
        self.problems.append(error("E708", self.path, line, (
            f"{what}: not converted (it would take the rows after it){after}"
            f"{'; ' + how if how else ''}")))


_CLOSE_IT = "close the quote, or double a quote meant as text"
_QUOTED_RE = re.compile(r'"(?:[^"]|"")*("?)')


def _scan(text: str, sep: str) -> list[_Cell]:
    """The cells of the row ``text``, found as csv finds them, up to the first quote that
    is never closed; a quoted cell whose closing quote has text right after it is
    "text": what was written, quotes and all, up to the next separator."""
    unquoted = re.compile(f"[^{re.escape(sep)}\n]*")
    cells: list[_Cell] = []
    at = 0
    while True:
        while text.startswith(" ", at):
            at += 1
        quoted = _QUOTED_RE.match(text, at)
        if quoted is None:
            found = unquoted.match(text, at)
            assert found is not None  # it matches the empty text
            cells.append(_Cell(at, found.end(), "plain"))
        elif not quoted[1]:
            cells.append(_Cell(at, len(text), "unclosed"))
            return cells
        elif text[quoted.end():quoted.end() + 1] in (sep, "\n", ""):
            cells.append(_Cell(at, quoted.end(), "quoted", quoted.end() - 1))
        else:
            found = unquoted.match(text, quoted.end())
            assert found is not None
            cells.append(_Cell(at, found.end(), "text", quoted.end() - 1))
        end = cells[-1].end
        if text[end:end + 1] != sep:
            return cells
        at = end + 1
