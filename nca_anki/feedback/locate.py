"""Where a reported question is written: ``build_decks.py locate FINGERPRINT|GUID|TEXT``.

A report names a question by what the card's link carried (its fingerprint and GUID), or
a learner quotes its words. This finds it in the question files as they are now: each
file is parsed as a build parses it, each question is paired with its lock entry (its
file and its text's hash, or its prompt), and the query is

- a **GUID** (``nca-`` and 16 hex digits): the lock entry's question;
- a **fingerprint** (12 hex digits): the question whose fingerprint it is now; if none
  (the question was edited since the learner's version), the GUID that the published
  decks' report links pair with it, then that GUID's question;
- otherwise **words**: every question whose prompt, choices or explanation holds them,
  as the card shows them or as they are written. A learner quotes the card, where
  Markdown is rendered (`` `nvidia-smi` `` shows as nvidia-smi, ``**FP32**`` as FP32, a
  link as its text, ``\\*`` as ``*``, ``&amp;`` as ``&``): each question's texts are
  rendered as the build renders them (cards/markup.py) and read back as the text a
  card shows. Both sides are compared folded (``fold``): Unicode compatibility forms
  (NFKC: a no-break space is a space, "ﬁ" is "fi", "…" is "..."), case, curly and
  straight quotes, dashes, invisible characters (a zero-width space, a soft hyphen) and
  spacing aside.

For each question found: its path and line, its current text, its GUID, and the days of
the deck versions that changed it (a version is the UTC date of a change). Those come
from the lock: its current change time, and, given the lock's git history (the CLI asks
git; edges.lock_history), every change time the question's lock line ever had.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from nca_anki.files import LOCK_NAME, question_files, read_regular
from nca_anki.identity.assign import source_hash
from nca_anki.identity.lockfile import load_lock
from nca_anki.publishing.versions import day
from nca_anki.reading.decode import decode_source
from nca_anki.reading.parse import parse
from nca_anki.reading.published import DeckError, Published, collection_of, query
from nca_anki.records import LABELS, LockEntry, Question, answer_key, prompt_id

if TYPE_CHECKING:
    from nca_anki.cards.markup import Markdown

GUID_RE = re.compile(r"nca-[0-9a-f]{16}")
FINGERPRINT_RE = re.compile(r"[0-9a-f]{12}")
_LINK_RE = re.compile(r"fingerprint=([0-9a-f]{12})\b[^\"]*?guid=(nca-[0-9a-f]{16})"
                      r"|guid=(nca-[0-9a-f]{16})\b[^\"]*?fingerprint=([0-9a-f]{12})")


@dataclass(frozen=True, kw_only=True)
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


# What a quote copied from a card, or typed, may have in place of what the source has:
# typographic quotes and apostrophes for straight ones, and any dash for a hyphen.
_SAME = str.maketrans({**dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u00b4", "'"),
                       **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
                       **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-")})


def fold(text: str) -> str:
    """``text`` as words are compared: NFKC, without format characters (Unicode's Cf:
    zero-width spaces and joiners, soft hyphens, direction marks, a byte order mark),
    case-folded, typographic quotes and dashes as their plain forms, and every run of
    white space one space. Linear in the text."""
    if text.isascii():
        return " ".join(text.casefold().split())
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(c for c in text if unicodedata.category(c) != "Cf").translate(_SAME)
    return " ".join(text.split())


class _Shown(HTMLParser):
    """The text a card shows of a field's HTML: its characters (references decoded), a
    space where a block, a line break or a cell ends, nothing for an inline tag (so
    ``<strong>FP</strong>32`` is "FP32"). An image shows no text."""

    _BREAKS = frozenset({"p", "br", "li", "ul", "ol", "pre", "blockquote", "hr", "table",
                         "thead", "tbody", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5",
                         "h6", "div"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in self._BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        self.handle_starttag(tag, ())

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown_text(html: str) -> str:
    """The text a card shows of ``html`` (a field as cards/markup.py renders it)."""
    if "<" not in html and "&" not in html:
        return html
    reader = _Shown()
    reader.feed(html)
    reader.close()
    return "".join(reader.parts)


def _card_words(markdown: Markdown, q: Question) -> str:
    """The prompt, the choices and the explanation as the card shows them, folded."""
    shown = [markdown.inline(q.prompt).html, *(markdown.inline(c.text).html for c in q.choices),
             markdown.block(q.explanation).html]
    return fold(" ".join(shown_text(html) for html in shown))


def _by_words(wanted: str, questions: Sequence[tuple[str, str, Question]]) -> list[int]:
    """The questions whose words, as the card shows them or as written, hold ``wanted``
    (both folded)."""
    from nca_anki.cards.markup import Markdown  # its sanitiser: only for a search by words

    words = fold(wanted)
    if not words:
        return []
    markdown = Markdown()
    hits = []
    for i, (_, _, q) in enumerate(questions):
        written = fold(" ".join((q.prompt, *(c.text for c in q.choices), q.explanation)))
        if words in written or words in _card_words(markdown, q):
            hits.append(i)
    return hits


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
        hits = _by_words(wanted, questions)
    changes = _history(history)
    found = []
    for i in sorted(hits):
        shown, _, q = questions[i]
        guid = guids.get(i, "")
        found.append(Located(path=shown, question=q, guid=guid,
                             versions=_versions(entries.get(guid), changes), how=how))
    return Search(tuple(found), tuple(said))
