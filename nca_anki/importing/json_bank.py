"""JSON banks -> questions, read by their shape (importing/shape.py): any list of
question-like objects anywhere in the document, whatever its keys are called.

The standard library decodes the JSON (its messages give the line and column of a syntax
error). Before that, one linear pass over the text (``_Scan``) finds where each value
starts, by its path, so every problem names its line and its JSON path; it also refuses
what the standard library would take or choke on: ``NaN``/``Infinity`` (not JSON), numbers
too large to be an answer, nesting deeper than ``DEPTH``; and it warns of a key written
twice in one object (JSON keeps the last silently).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import Reading, title_from_name
from nca_anki.importing.containers import read_records
from nca_anki.importing.shape import Path_, path_text

DEPTH = 64  # no bank nests deeper; deeper is an attack on the reader, refused at its line
NUMBER_DIGITS = 30  # a number longer than this is no index, and Python's int() may refuse it
# One JSON token: a string (with the colon after it if it is a key), a bracket or brace, or
# a bare word (a number, true, false, null; or NaN/Infinity, which JSON has not). Colons
# and commas are skipped: a value's place follows from the brackets and the keys.
_TOKEN_RE = re.compile(r'''"[^"\\]*(?:\\.[^"\\]*)*"(?:\s*:)?|[{}\[\]]|[^\s{}\[\]:,"]+''')


@dataclass(frozen=True)
class Code:
    """A value an input gives as code, not as a literal (a variable, a call: typescript.py
    reads such files): where it is and what it says."""

    line: int
    text: str


def _code_in(value: object) -> Code | None:
    """The first Code in a value, at any depth."""
    if isinstance(value, Code):
        return value
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) \
        else ()
    return next((c for v in inner if (c := _code_in(v)) is not None), None)


def code_text(value: object) -> str | None:
    code = _code_in(value)
    if code is None:
        return None
    shown = " ".join(code.text.split())
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return f"`{shown}` (line {code.line})"


class Lines:
    """The line of a character offset, by bisection over the newlines' offsets: each
    lookup is O(log n), so naming every question's line stays linear overall."""

    def __init__(self, text: str) -> None:
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> int:
        return bisect.bisect_left(self.newlines, offset) + 1


@dataclass
class _Scan:
    """One pass over valid-looking JSON: each value's start by path, and the problems the
    decoder would hide or crash on."""

    starts: dict[Path_, int]
    problems: list[Diagnostic]
    fatal: Diagnostic | None


def _scan(text: str, path: str, line: Lines) -> _Scan:
    starts: dict[Path_, int] = {}
    problems: list[Diagnostic] = []
    # Each open container: (its path, its keys' offsets by key, or None for a list, and
    # for a list the next index, in a one-item list so it can grow).
    paths: list[Path_] = []
    keys: list[dict[str, int] | None] = []
    indexes: list[list[int]] = []
    pending: object = None  # the key the next value of an object belongs to
    for match in _TOKEN_RE.finditer(text):
        token, at = match.group(), match.start()
        char = token[0]
        if char == '"' and token[-1] == ":":  # a key: a string before its colon
            raw = token[1:token.rindex('"')]
            key = json.loads(f'"{raw}"') if "\\" in raw else raw
            seen = keys[-1] if keys else None
            if seen is not None:
                if key in seen:
                    problems.append(warning("W705", path, line(at), (
                        f"{path_text(paths[-1])}: the key {key!r} is written twice in one "
                        f"object (lines {line(seen[key])} and {line(at)}); JSON keeps the "
                        "second, so the first was not read: delete one")))
                seen[key] = at
            pending = key
            continue
        if char in "}]":
            if paths:
                paths.pop()
                keys.pop()
                indexes.pop()
            continue
        # A value: where it goes.
        if not paths:
            where: Path_ = ()
        elif keys[-1] is not None:
            where = (*paths[-1], pending)
        else:
            counter = indexes[-1]
            where = (*paths[-1], counter[0])
            counter[0] += 1
        starts[where] = at
        if char in "{[":
            if len(paths) >= DEPTH:
                return _Scan(starts, problems, error("E701", path, line(at), (
                    f"nested more than {DEPTH} levels deep at {path_text(where)[:80]}; no "
                    "bank needs that: nothing in the file was converted")))
            paths.append(where)
            keys.append({} if char == "{" else None)
            indexes.append([0])
            continue
        if char == '"':
            continue
        if "NaN" in token or "Infinity" in token:
            return _Scan(starts, problems, error("E701", path, line(at), (
                f"{path_text(where)}: `{token}` is not a JSON value (JSON has no NaN or "
                "Infinity); write a number or text: nothing in the file was converted")))
        if (char.isdigit() or char == "-") and (
                len(token) > NUMBER_DIGITS or _overflows(token)):
            return _Scan(starts, problems, error("E701", path, line(at), (
                f"{path_text(where)}: the number {token[:40]}"
                f"{'…' if len(token) > 40 else ''} is too large to mean anything in a "
                "question bank: nothing in the file was converted")))
    return _Scan(starts, problems, None)


def _overflows(token: str) -> bool:
    if not any(c in token for c in ".eE"):
        return False
    try:
        return float(token) in (float("inf"), float("-inf"))
    except ValueError:
        return False


def decode(text: str) -> object:
    """``text`` as a JSON value, held to what ``read`` holds a file to (no NaN, no number
    too large, no nesting deeper than DEPTH); ValueError if it is not one."""
    scan = _scan(text, "", Lines(text))
    if scan.fatal is not None:
        raise ValueError(scan.fatal.message)
    return json.loads(text)  # its JSONDecodeError is a ValueError


def read(text: str, path: str, overrides: Mapping[str, str] | None = None) -> Reading:
    line = Lines(text)
    scan = _scan(text, path, line)
    if scan.fatal is not None:
        return Reading((), (*scan.problems, scan.fatal))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Reading((), (error("E701", path, exc.lineno, f"not valid JSON: {exc.msg} "
                                  f"(column {exc.colno}); nothing in the file was converted"),))
    except (RecursionError, ValueError) as exc:  # guarded above; said plainly if not
        return Reading((), (error("E701", path, 0, f"cannot be read as JSON ({exc}); nothing "
                                  "in the file was converted"),))
    starts = scan.starts
    sections, problems = read_records(data, path=path, overrides=overrides or {},
                                      line_of=lambda where: line(starts.get(where, 0)),
                                      default_title=title_from_name(path))
    if not sections and not any(d.is_error for d in problems):
        problems.append(error("E701", path, 1, (
            "no list of questions found: no list or object of objects each with a "
            "question's text and its choices (as in [{\"question\": …, \"options\": […], "
            "\"answer\": …}]); nothing in the file was converted")))
    return Reading(sections, (*scan.problems, *problems))
