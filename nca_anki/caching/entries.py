"""The cache's folders of entries, one file each: parsed source files (``ParseCache``),
what the index read from each published deck (``DeckFactsCache``), and the bundle's
deflated pieces (``DeflateCache``). Each entry is checked when it is read; a damaged one is
ignored with a warning and built again. (The state file, the keys and the cache folder's
place: state.py. Kept apart so the no-op check, which needs only the state, does not build
the records these entries hold.)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
import hmac
import json
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import overload

from nca_anki.caching.state import code_digest, diagnostics_from_json, diagnostics_json
from nca_anki.diagnostics import Diagnostic, warning
from nca_anki.files import read_regular
from nca_anki.reading.published import DeckFacts
from nca_anki.reading.duplicates import keys_of
from nca_anki.records import Choice, ParsedFile, Question, QuestionKey

# --- parsed source files ------------------------------------------------------------------
# Parsing every question file was most of what a one-topic edit cost. A file whose path and
# bytes are unchanged is read back instead from its own small JSON file in the cache's
# ``parsed/`` folder: its questions and the diagnostics decoding and
# parsing gave. One file per source, so an edit writes one file, not all of them.

_PARSED_FORMAT = "nca-anki-parsed-7"
# A file, what decoding and parsing it found, and its lint warnings (lint.long_answers;
# kept apart because a topic that fails is not linted).
Parsed = tuple[ParsedFile, tuple[Diagnostic, ...], tuple[Diagnostic, ...]]


class _CachedQuestions(Sequence[Question]):
    """A file's questions as the parse cache holds them, built on first use. (Its JSON
    was checked against the entry's hash when read, and written by this same code.)"""

    def __init__(self, shown: str, text: str, count: int) -> None:
        self._shown, self._text, self._count = shown, text, count
        self._built: tuple[Question, ...] | None = None

    def _questions(self) -> tuple[Question, ...]:
        if self._built is None:
            shown = self._shown
            self._built = tuple(
                Question(number=number, prompt=prompt,
                         choices=tuple(Choice(t, c, n) for t, c, n in choices),
                         explanation=explanation, path=shown, line=line,
                         explanation_line=explanation_line)
                for number, prompt, choices, explanation, line, explanation_line
                in json.loads(self._text))
            self._text = ""
        return self._built

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Question: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Question, ...]: ...

    def __getitem__(self, index: int | slice) -> Question | tuple[Question, ...]:
        return self._questions()[index]

    def __iter__(self) -> Iterator[Question]:
        return iter(self._questions())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(self._questions())

    def __repr__(self) -> str:
        return repr(self._questions())


class _FolderCache:
    """A folder of cache entries, one file each (named ``*SUFFIX``): the entries a build
    asked for are kept, new ones written by ``save``, and the rest deleted."""

    SUFFIX = ".json"

    def __init__(self, folder: Path | None) -> None:
        """``folder``: where the entries are; None, a build without a cache."""
        self.folder = folder or Path()
        self.problems: list[Diagnostic] = []  # entries that could not be read
        self._used: set[str] = set()
        self._new: dict[str, bytes] = {}
        # Something else where the folder belongs: said once, not once an entry.
        self.usable = folder is not None and (not folder.exists() or folder.is_dir())
        if folder is not None and not self.usable:
            self.problems.append(warning("W601",
                                         folder.as_posix(), 0, "not a folder, so this cache "
                                         "cannot be kept (builds only take longer); delete it"))

    @classmethod
    def _entry_name(cls, key: str) -> str:
        """The file name of the entry kept under ``key`` (what ``save`` keeps or deletes)."""
        return f"{key}{cls.SUFFIX}"

    def _read(self, name: str) -> bytes | None:
        """The bytes of the entry ``name`` (kept by ``save``), None if there is none;
        raises OSError if it cannot be read."""
        self._used.add(name)
        if not self.usable:
            return None
        try:
            # A named pipe or a device among the entries is refused (an error, said by the
            # caller as a damaged entry), never opened: opening a pipe waits for ever.
            return read_regular(self.folder / name)
        except FileNotFoundError:
            return None

    def save(self, write: Callable[[Path, bytes], object]) -> None:
        """Write the new entries with ``write`` (which may raise) and delete the unused."""
        if not self.usable:
            return
        for name, data in sorted(self._new.items()):
            write(self.folder / name, data)
        self._new.clear()
        try:
            stale = [p for p in self.folder.glob(f"*{self.SUFFIX}") if p.name not in self._used
                     and not p.is_symlink()]  # never delete through a link
        except OSError:
            return
        for path in stale:
            try:
                path.unlink()
            except OSError:
                pass  # the next build tries again


class ParseCache(_FolderCache):
    """The parsed source files in ``folder``; ``get`` what is there, ``put`` what was
    parsed, then ``save`` (which also deletes the entries of files no longer read)."""

    @classmethod
    def _name(cls, shown: str, sha256: str) -> str:
        digest = hashlib.sha256(f"{shown}\x1f{sha256}".encode()).hexdigest()[:40]
        return cls._entry_name(digest)

    @staticmethod
    def encode(shown: str, parsed: Parsed) -> str | None:
        """``parsed`` as an entry's text (also how forked workers send it back: plain JSON
        is far quicker to pass than pickled objects); None if it cannot round-trip.

        A header line (the file's title, part, counts, each question's answer position,
        diagnostics, and a hash of the rest), then the questions: a rebuild reads every
        header but builds the questions only of files whose topic it rebuilds."""
        file, diagnostics, lint = parsed
        if any(q.path != shown for q in file.questions) or file.path != shown:
            return None  # not in the form decode() rebuilds: never cache what comes back wrong
        questions = json.dumps([[q.number, q.prompt, [[c.text, c.correct, c.line]
                                                      for c in q.choices], q.explanation, q.line,
                                 q.explanation_line]
                                for q in file.questions], ensure_ascii=False, separators=(",", ":"))
        header = json.dumps({
            "format": _PARSED_FORMAT, "code": code_digest(),
            "diagnostics": diagnostics_json(diagnostics), "lint": diagnostics_json(lint),
            "file": [file.title, file.name, file.part, file.title_line],
            "count": len(file.questions), "positions": list(file.positions),
            "keys": [[k.number, k.line, k.fingerprint, k.words, k.answer]
                     for k in keys_of(file)],
            "sha256": hashlib.sha256(questions.encode()).hexdigest(),
        }, ensure_ascii=False, separators=(",", ":"))
        return f"{header}\n{questions}"  # JSON escapes every newline inside it

    @staticmethod
    def decode(shown: str, text: str | bytes) -> Parsed | None:
        """An entry's text as the parsed file (None if another version wrote it); raises
        ValueError, KeyError or TypeError if it is damaged. The questions are checked
        against the header's hash now and built when first used."""
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        head, _, questions = text.partition("\n")
        data = json.loads(head)
        if data.get("format") != _PARSED_FORMAT or data.get("code") != code_digest():
            return None
        if hashlib.sha256(questions.encode()).hexdigest() != data["sha256"]:
            raise ValueError("its questions do not match its hash")
        title, name, part, title_line = data["file"]
        positions = tuple(int(p) for p in data["positions"])
        if len(positions) != int(data["count"]):
            raise ValueError("its counts disagree")
        keys = tuple(QuestionKey(number=int(n), line=int(line), fingerprint=str(fp),
                                 words=str(words), answer=str(answer))
                     for n, line, fp, words, answer in data["keys"])
        if len(keys) != len(positions):
            raise ValueError("its counts disagree")
        file = ParsedFile(path=shown, title=str(title), name=str(name), part=int(part),
                          questions=_CachedQuestions(shown, questions, len(positions)),
                          title_line=int(title_line), keys=keys)
        file.__dict__["positions"] = positions  # computed_once's slot: known already
        return file, diagnostics_from_json(data["diagnostics"]), diagnostics_from_json(data["lint"])

    def get(self, shown: str, sha256: str) -> Parsed | None:
        name = self._name(shown, sha256)
        path = self.folder / name
        try:
            data = self._read(name)  # decode: None for another version's (parse again)
            return None if data is None else self.decode(shown, data)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            self.problems.append(warning("W601", path.as_posix(), 0, f"parse cache entry ignored "
                                         f"({type(exc).__name__}: {exc}); parsed again"))
            return None

    def put(self, shown: str, sha256: str, entry: str | None) -> None:
        """Keep ``entry`` (from ``encode``) as the parse of this path and content."""
        if entry is not None:
            self._new[self._name(shown, sha256)] = entry.encode()


_DECKS_FORMAT = "nca-anki-deck-facts-2"


class DeckFactsCache(_FolderCache):
    """What the index reads from each published deck (index.IndexedDeck: its notes'
    GUIDs, times and whether each is retired; its note type's time), one entry per deck
    file in ``folder``, kept under the SHA-256 of the deck it was read from: a rebuild
    reads back only the decks that changed. ``get``, ``put``, then ``save`` (which also
    deletes the entries of decks not indexed this time)."""

    def __init__(self, folder: Path | None) -> None:
        super().__init__(folder)
        self._put: dict[str, tuple[str, DeckFacts]] = {}  # deck file -> (SHA-256, facts)

    def get(self, deck_file: str, sha256: str) -> DeckFacts | None:
        name = self._entry_name(deck_file)
        path = self.folder / name
        put = self._put.get(deck_file)
        if put is not None and put[0] == sha256:  # put by this build: the deck just written
            self._used.add(name)
            return put[1]
        try:
            entry = self._read(name)
            if entry is None:
                return None
            head, _, notes = entry.decode("utf-8").partition("\n")
            data = json.loads(head)
            if data.get("format") != _DECKS_FORMAT or data.get("code") != code_digest() \
                    or data.get("deck") != sha256:
                return None  # another deck's (or version's): read the deck again
            if hashlib.sha256(notes.encode()).hexdigest() != data["sha256"]:
                raise ValueError("its notes do not match its hash")
            return (tuple((str(g), int(m), bool(r)) for g, m, r in json.loads(notes)),
                    int(data["note_type_mod"]))
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
                AttributeError) as exc:
            self.problems.append(warning("W601", path.as_posix(), 0, f"deck cache entry ignored "
                                         f"({type(exc).__name__}: {exc}); the deck is read "
                                         "again"))
            return None

    def put(self, deck_file: str, sha256: str, facts: DeckFacts) -> None:
        self._put[deck_file] = (sha256, facts)
        notes_of, note_type_mod = facts
        notes = json.dumps([list(n) for n in notes_of], ensure_ascii=False,
                           separators=(",", ":"))
        head = json.dumps({"format": _DECKS_FORMAT, "code": code_digest(), "deck": sha256,
                           "note_type_mod": note_type_mod,
                           "sha256": hashlib.sha256(notes.encode()).hexdigest()},
                          separators=(",", ":"))
        self._new[self._entry_name(deck_file)] = f"{head}\n{notes}".encode()


class DeflateCache(_FolderCache):
    """Deflated pieces of the all-topics bundle (package.py), each under a hash of what
    was deflated (the piece, the bytes before it that prime it, zlib's version and level):
    a rebuild deflates again only the pieces an edit touched. An entry is its deflated
    bytes after their SHA-256, checked when read; a damaged entry is deflated again, with
    a warning."""

    SUFFIX = ".z"

    def get(self, key: str) -> bytes | None:
        name = self._entry_name(key)
        path = self.folder / name
        try:
            data = self._read(name)
        except OSError as exc:
            self.problems.append(warning("W601", path.as_posix(), 0, f"bundle cache entry ignored "
                                         f"({exc.strerror or exc}); deflated again"))
            return None
        if data is None:
            return None
        if hashlib.sha256(data[32:]).digest() != data[:32]:
            self.problems.append(warning("W601",
                                         path.as_posix(), 0, "bundle cache entry ignored (its "
                                         "bytes do not match their hash); deflated again"))
            return None
        return data[32:]

    def put(self, key: str, packed: bytes) -> None:
        self._new[self._entry_name(key)] = hashlib.sha256(packed).digest() + packed


# --- rendered notes -----------------------------------------------------------------------
# After the parse, rendering was the largest part of a one-question edit: every note of the
# edited topic was rendered again. Each topic's notes as last rendered are kept in one
# entry of the cache's ``rendered/`` folder, each note under a key of everything its
# rendering reads that can differ between notes of the topic (its part, its texts, its
# layout: rendering.note_key); the entry as a whole is kept under a key of what they all
# share (the code, the templates, the topic's names and settings: rendering.topic_context).
# A note that showed images or had a problem is not kept: it is rendered every time.

_RENDERED_FORMAT = "nca-anki-rendered-1"
_INFLATED = 64  # an entry inflates about 4 times (rendered HTML and JSON)
# What rendering gives a note, without its question: its fields, tags, the correct
# choices' slots and its identity hashes (RenderedNote).
Rendering = tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], tuple[str, str, str, str]]


class RenderCache(_FolderCache):
    """Each topic's rendered notes, one entry per topic in ``folder``: ``notes`` what is
    there, ``encode`` a topic's notes (on the worker that rendered them), ``put`` the
    result, ``keep`` a topic not rendered this time, then ``save`` (which also deletes the
    entries of topics gone). Entries are deflated (zlib, fastest level): the JSON of
    10,000 notes is about 11 MB, deflated about 2.5 MB.

    Unlike every other entry, these hold HTML that goes into a deck as it is, so each is
    signed (HMAC-SHA256) with ``key``, this user's own (edges.render_key), and an entry
    whose signature does not match is ignored like a damaged one: HTML that this user's
    builds did not render never reaches a deck."""

    SUFFIX = ".z"

    def __init__(self, folder: Path | None, key: bytes) -> None:
        super().__init__(folder)
        self.key = key

    def _mac(self, body: str) -> str:
        return hmac.new(self.key, body.encode(), hashlib.sha256).hexdigest()

    def _name(self, topic: str) -> str:
        return self._entry_name(hashlib.sha256(topic.encode("utf-8", "surrogatepass"))
                                .hexdigest()[:40])

    def notes(self, topic: str, context: str) -> tuple[dict[str, Rendering], list[Diagnostic]]:
        """The notes last rendered for ``topic`` in ``context``, by note key; none if the
        entry is missing, another context's or another version's. A damaged entry is
        ignored, with the warning returned (a forked worker calls this: the caller says
        it), and its notes are rendered again."""
        name = self._name(topic)
        try:
            data = self._read(name)
            if data is None:
                return {}, []
            # At most _INFLATED times its size: a foreign entry is not signed until it is
            # read, and must not fill memory first.
            inflater = zlib.decompressobj()
            text = inflater.decompress(data, _INFLATED * len(data)).decode("utf-8")
            if inflater.unconsumed_tail or not inflater.eof:
                raise ValueError("it does not inflate to what an entry holds")
            head, _, body = text.partition("\n")
            header = json.loads(head)
            if header.get("format") != _RENDERED_FORMAT or header.get("code") != code_digest() \
                    or header.get("context") != context:
                return {}, []
            if not hmac.compare_digest(self._mac(body), str(header["mac"])):
                raise ValueError("it was not signed by this user's builds (render.key)")
            return {str(key): (tuple(map(str, fields)), tuple(map(str, tags)),
                               tuple(map(int, slots)), _four(hashes))
                    for key, fields, tags, slots, hashes in json.loads(body)}, []
        except (OSError, zlib.error, UnicodeDecodeError, ValueError, KeyError, TypeError,
                AttributeError) as exc:
            return {}, [warning("W601", (self.folder / name).as_posix(), 0,
                                f"render cache entry ignored ({type(exc).__name__}: {exc}); "
                                "its notes are rendered again")]

    def encode(self, context: str, notes: Sequence[tuple[str, Rendering]]) -> bytes:
        """A topic's entry: ``notes`` as (note key, rendering), in ``context``, signed."""
        body = json.dumps([[key, *rendering] for key, rendering in notes],
                          ensure_ascii=False, separators=(",", ":"))
        head = json.dumps({"format": _RENDERED_FORMAT, "code": code_digest(),
                           "context": context, "mac": self._mac(body)},
                          separators=(",", ":"))
        return zlib.compress(f"{head}\n{body}".encode(), 1)

    def put(self, topic: str, entry: bytes) -> None:
        self._new[self._name(topic)] = entry

    def keep(self, topic: str) -> None:
        """Keep the entry of ``topic`` (not rendered by this build) when saving."""
        self._used.add(self._name(topic))


@dataclass(frozen=True, kw_only=True)
class RenderMemo:
    """What rendering is handed to take notes from the render cache and put them in:
    the cache, and a digest of the templates its entries are kept under."""

    cache: RenderCache
    templates: str


def _four(hashes: Sequence[object]) -> tuple[str, str, str, str]:
    content, source, prompt, guid = map(str, hashes)
    return content, source, prompt, guid
