"""Where a reported question is written: ``build_decks.py locate FINGERPRINT|GUID|TEXT``.

A report names a question by what the card's link carried (its fingerprint and GUID), or
a learner quotes its words. This finds it in the question files as they are now: each
file is parsed as a build parses it, each question is paired with its lock entry (its
file and its text's hash, or its prompt), and the query is

- a **GUID** (``nca-`` and 16 hex digits): the lock entry's question;
- a **fingerprint** (12 hex digits): the question whose fingerprint it is now; if none
  (the question was edited since the learner's version), the GUID that the published
  decks' report links pair with it, then that GUID's question;
- otherwise **words**: every question whose prompt, choices or explanation holds them
  (case and spacing aside).

For each question found: its path and line, its current text, its GUID, and the days of
the deck versions that changed it (a version is the UTC date of a change). Those come
from the lock: its current change time, and, given the lock's git history (the CLI asks
git; edges.lock_history), every change time the question's lock line ever had.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from urllib.parse import unquote

from nca_anki.files import LOCK_NAME, question_files, read_regular
from nca_anki.identity.assign import source_hash
from nca_anki.identity.lockfile import load_lock
from nca_anki.publishing.versions import day
from nca_anki.reading.decode import decode_source
from nca_anki.reading.parse import parse
from nca_anki.reading.published import DeckError, Published, collection_of, query
from nca_anki.records import LABELS, LockEntry, Question, answer_key, prompt_id

GUID_RE = re.compile(r"nca-[0-9a-f]{16}")
FINGERPRINT_RE = re.compile(r"[0-9a-f]{12}")
_LINK_RE = re.compile(r"fingerprint=([0-9a-f]{12})\b[^\"]*?guid=(nca-[0-9a-f]{16})"
                      r"|guid=(nca-[0-9a-f]{16})\b[^\"]*?fingerprint=([0-9a-f]{12})")


@dataclass(frozen=True)
class Located:
    """One question found."""

    path: str  # as shown (the source folder's path joined with the file's)
    question: Question
    guid: str  # "" if the lock does not know it yet (never built)
    versions: tuple[str, ...]  # days of the versions that changed it, oldest first
    how: str  # what matched: "guid", "fingerprint", "fingerprint of an earlier version", "words"

    def to_json(self) -> dict[str, object]:
        q = self.question
        return {"path": self.path, "line": q.line, "number": q.number,
                "fingerprint": q.fingerprint, "guid": self.guid, "matched": self.how,
                "prompt": q.prompt, "choices": [{"text": c.text, "correct": c.correct}
                                                for c in q.choices],
                "explanation": q.explanation, "versions": list(self.versions)}

    def text(self) -> list[str]:
        q = self.question
        lines = [f"{self.path}:{q.line}: Question {q.number} (fingerprint {q.fingerprint}"
                 f"{', GUID ' + self.guid if self.guid else ''}; matched by {self.how})",
                 f"  {q.prompt}"]
        lines += [f"  {label}. {c.text}{'  (correct)' if c.correct else ''}"
                  for label, c in zip(LABELS, q.choices)]
        if q.explanation:
            lines.append(f"  Explanation: {q.explanation}")
        lines.append("  Changed in the versions of " + (", ".join(self.versions) or
                                                        "(none yet: never built)"))
        return lines


@dataclass(frozen=True)
class Search:
    found: tuple[Located, ...]
    said: tuple[str, ...]  # what the reader should know (a withdrawn question, ...)


def _questions(source: Path) -> list[tuple[str, str, Question]]:
    """(shown path, path in the source folder, question) of every question written."""
    found = []
    for path in question_files(source):
        relative = path.relative_to(source).as_posix()
        shown = (source / relative).as_posix()
        try:
            data = read_regular(path)
        except OSError:
            continue  # the build reports it; a search goes on with the rest
        decoded = decode_source(data, shown)
        found += [(shown, relative, q) for q in parse(decoded.text, shown).file.questions]
    return found


def _lock(source: Path) -> dict[str, LockEntry]:
    try:
        text = read_regular(source / LOCK_NAME).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    lock, _ = load_lock(text, (source / LOCK_NAME).as_posix())
    return {e.guid: e for e in lock.entries} if lock is not None else {}


def _guids(questions: Sequence[tuple[str, str, Question]], entries: Iterable[LockEntry]
           ) -> dict[int, str]:
    """Each question's GUID (by its index in ``questions``): the live lock entry of its
    file with its text's hash, or else with its prompt."""
    by_text: dict[tuple[str | None, str], str] = {}
    by_prompt: dict[tuple[str | None, str], str] = {}
    for e in entries:
        if e.removed is None:
            by_text.setdefault((e.file, e.source), e.guid)
            by_prompt.setdefault((e.file, e.prompt_id), e.guid)
    found = {}
    for i, (_, relative, q) in enumerate(questions):
        text = source_hash(q.prompt, [c.text for c in q.choices],
                           answer_key(q.correct_indexes), q.explanation)
        guid = by_text.get((relative, text)) or by_prompt.get((relative, prompt_id(q.prompt)))
        if guid:
            found[i] = guid
    return found


def _history(lines: Sequence[str]) -> dict[str, set[int]]:
    """GUID -> every change time its lock lines had (``lines``: the question lines of
    every version of the lock, from git), in one pass."""
    mods: dict[str, set[int]] = {}
    for line in lines:
        fields = line.split(" ", 5)
        if len(fields) > 4 and fields[0] == "Q" and fields[4].isascii() \
                and fields[4].isdigit():  # "²" is a digit int() refuses
            mods.setdefault(fields[1], set()).add(int(fields[4]))
    return mods


def _versions(entry: LockEntry | None, history: dict[str, set[int]]) -> tuple[str, ...]:
    """The days of every change time the question's lock lines had and has now."""
    if entry is None:
        return ()
    mods = {entry.mod, *history.get(entry.guid, ())}
    return tuple(sorted({day(m) for m in mods if m > 0}))


def _linked_guid(fingerprint: str, published: Published) -> str:
    """The GUID the published decks' report links pair with ``fingerprint``; ""."""
    for file in published.decks():
        try:
            rows = query(collection_of(file.bytes()),
                         "SELECT flds FROM notes WHERE flds LIKE ?", f"%{fingerprint}%")
        except DeckError:
            continue
        for (fields,) in rows:
            for m in _LINK_RE.finditer(unescape(unquote(fields))):
                if (m[1] or m[4]) == fingerprint:
                    return m[2] or m[3]
    return ""


def locate(query_text: str, source: Path, published: Published,
           history: Sequence[str] = ()) -> Search:
    """Every question ``query_text`` names (module docstring)."""
    wanted = query_text.strip()
    questions = _questions(source)
    entries = _lock(source)
    guids = _guids(questions, entries.values())
    said: list[str] = []
    how = "words"
    if GUID_RE.fullmatch(wanted):
        how = "guid"
        hits = [i for i, g in guids.items() if g == wanted]
        entry = entries.get(wanted)
        if not hits and entry is not None and entry.removed is not None:
            said.append(f"{wanted} was withdrawn from the source on {day(entry.removed)} "
                        f"(topic {entry.topic!r}; it began: {entry.prompt!r})")
    elif FINGERPRINT_RE.fullmatch(wanted):
        how = "fingerprint"
        hits = [i for i, (_, _, q) in enumerate(questions) if q.fingerprint == wanted]
        if not hits and (guid := _linked_guid(wanted, published)):
            how = "fingerprint of an earlier version"
            hits = [i for i, g in guids.items() if g == guid]
            said.append(f"{wanted} is the question as a published deck has it; it has "
                        f"changed since (its GUID is {guid})")
    else:
        words = " ".join(wanted.casefold().split())
        hits = [i for i, (_, _, q) in enumerate(questions) if words and words in " ".join(
            " ".join((q.prompt, *(c.text for c in q.choices), q.explanation)).casefold()
            .split())]
    changes = _history(history)
    found = []
    for i in sorted(hits):
        shown, _, q = questions[i]
        guid = guids.get(i, "")
        found.append(Located(shown, q, guid, _versions(entries.get(guid), changes), how))
    return Search(tuple(found), tuple(said))
