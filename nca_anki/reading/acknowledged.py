"""Warnings the authors have judged, and which question each warning is about.

A warning inside a question (from its header to the next one) carries that question's
fingerprint (``Question.fingerprint``: a hash of its prompt, choices, marks and
explanation, not of its number or place). An author acknowledges a judged warning in
nca-anki.toml by its code and that fingerprint::

    [[acknowledged]]
    code = "W140"
    question = "3f2a9c1d7e01"
    reason = "the answer is long because it is precise"   # optional, for the reader

It is not shown again while the question stays as it was: renumbering or moving it keeps
the fingerprint; an edit changes it, and the warning comes back (with a W202 saying the
acknowledgement no longer matches). Errors cannot be acknowledged.

A warning about a whole file (answers clustering on one letter, W142; encoding damage,
W102), or every warning of one code in a file (an imported bank with no explanations,
W120), is acknowledged by the file's path in the source folder instead::

    [[acknowledged]]
    code = "W142"
    file = "gpu-basics-1.txt"

That holds as long as the file keeps its name, for the questions added to it too: it is
the authors' judgement of the file, not of one question. The path as the report shows it
("source/gpu-basics-1.txt") is taken as well.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from nca_anki.diagnostics import Diagnostic, warning
from nca_anki.reading.duplicates import keys_of
from nca_anki.records import Acknowledgement, ParsedFile


def attach_questions(diagnostics: Iterable[Diagnostic], files: Iterable[ParsedFile]
                     ) -> list[Diagnostic]:
    """Each diagnostic that falls inside a question, with that question's fingerprint."""
    starts: dict[str, tuple[list[int], list[str]]] = {}
    for parsed in files:
        keys = keys_of(parsed)  # from the parse cache: the questions need not be built
        starts[parsed.path] = ([k.line for k in keys], [k.fingerprint for k in keys])
    out = []
    for d in diagnostics:
        found = starts.get(d.path)
        if found and d.line > 0 and not d.question:
            at = bisect.bisect_right(found[0], d.line) - 1
            if at >= 0:
                d = replace(d, question=found[1][at])
        out.append(d)
    return out


def acknowledge(diagnostics: Sequence[Diagnostic], acknowledged: Sequence[Acknowledgement],
                settings: str, *, complete: bool, files: Mapping[str, str] | None = None
                ) -> tuple[list[Diagnostic], int]:
    """The diagnostics less the acknowledged warnings, and how many were left out.
    ``files``: each question file's shown path -> its path in the source folder, for the
    entries that name a file. When the report is ``complete`` (every topic was checked: no
    errors froze one), a W202 for each acknowledgement that matched none, at its line in
    the settings file ``settings``."""
    files = files or {}
    by_question = {(a.code, a.question): a for a in acknowledged if not a.file}
    # A path in one Unicode form, as the file names are compared (a macOS file system
    # gives them decomposed; the settings may hold them composed).
    by_file = {(a.code, _nfc(a.file)): a for a in acknowledged if a.file}
    used: set[Acknowledgement] = set()
    shown = []
    for d in diagnostics:
        ack = None
        if not d.is_error:
            ack = by_question.get((d.code, d.question)) if d.question else None
            if ack is None and d.path in files:
                ack = by_file.get((d.code, _nfc(files[d.path]))) \
                    or by_file.get((d.code, _nfc(d.path)))
        if ack is None:
            shown.append(d)
        else:
            used.add(ack)
    removed = len(diagnostics) - len(shown)
    for ack in (*by_question.values(), *by_file.values()):
        if complete and ack not in used:
            shown.append(warning("W202", settings, ack.line, (
                f"acknowledged {ack.code} for file {ack.file}, but no such warning was "
                "found in it: the warning is gone or the file was renamed; delete this "
                "entry, or name the file as it is now" if ack.file else
                f"acknowledged {ack.code} for question {ack.question}, but no such warning "
                "was found: the question was edited (acknowledge it again if the warning "
                "still stands) or the warning is gone; delete this entry")))
    return shown, removed


def _nfc(path: str) -> str:
    return path if path.isascii() else unicodedata.normalize("NFC", path)
