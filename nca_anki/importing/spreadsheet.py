"""Spreadsheets (CSV and TSV with a header row) -> questions: each row is one question,
its columns found by name and content (importing/shape.py), as a JSON bank's keys are:
``Question, A, B, C, D, Answer, Explanation, Topic``, or ``option1`` …, or ``Option A`` …;
the answer a letter, a number or a choice's text; a cell that holds a JSON list or object
(choices exported as JSON) is read as one. The standard library's ``csv`` reads the rows
(quoted cells may hold commas and line breaks); each problem names the row's line.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping

from nca_anki.diagnostics import error
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.shape import Path_, Structured

CELL_LIMIT = 1 << 20  # 1 MiB in one cell: more is no question's text


def read(text: str, path: str, overrides: Mapping[str, str] | None = None, *,
         delimiter: str = ",") -> Reading:
    csv.field_size_limit(CELL_LIMIT)
    lines = iter(text.splitlines(keepends=True))
    reader = csv.reader(lines, delimiter=delimiter, strict=False)
    rows: list[dict[str, object]] = []
    starts: dict[Path_, int] = {}
    try:
        header = next(reader, None)
        if header is None:
            return Reading((), (error("E701", path, 1, "is empty; nothing converted"),))
        names = [" ".join(h.replace("\ufeff", "").split()) for h in header]
        seen: dict[str, int] = {}
        for k, name in enumerate(names):  # two columns of one name: number the second
            if name in seen or not name:
                names[k] = f"{name or 'column'} {k + 1}"
            seen[names[k]] = k
        start = reader.line_num + 1
        for cells in reader:
            if any(c.strip() for c in cells):
                row: dict[str, object] = {n: _cell(c) for n, c in zip(names, cells)
                                          if c.strip()}
                starts[(len(rows),)] = start
                rows.append(row)
            start = reader.line_num + 1
    except csv.Error as exc:
        return Reading((), (error("E701", path, reader.line_num, (
            f"cannot be read as {'TSV' if delimiter == chr(9) else 'CSV'}: {exc}; nothing "
            "in the file was converted")),))
    structured = Structured(path, lambda where: starts.get(where[:1], 1), overrides or {},
                            shown=lambda where: "", noun="rows")
    sections = structured.read(rows, default_title=title_from_name(path))
    if not sections and not any(d.is_error for d in structured.problems):
        structured.problems.append(error("E701", path, 1, (
            f"no rows of questions found: the header ({', '.join(names[:8])}) names no "
            "question and choice columns (as in Question, A, B, C, D, Answer); nothing in "
            "the file was converted")))
    return Reading(sections, tuple(structured.problems))


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
