"""``manifest.json``, defined once: the published index for scripts, written from the
decks as published (index.py), and read back by the next build (each deck's version
record, changes.py) and by ``--release`` (each file's version and SHA-256, release.py).

Its format, ``nca-anki-manifest-1``: ``version`` (the newest deck's), ``bundle`` (``deck``,
``file``, ``questions``, ``bytes``, ``sha256``) and ``decks``, one object per topic's deck
with ``deck``, ``topic``, ``file``, ``questions``, ``bytes``, ``sha256``, ``version``,
``changes`` (what that version added, changed, removed or updated, by GUID; ``layout``
when the card templates changed) and ``updated`` / ``retired`` (GUID -> the day it last
changed), and ``media``: each image the deck carries, by its name in Anki's media folder,
with its ``sha256`` and ``bytes`` (reading/media.py). Whatever is read back is checked
against this shape before it is used.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from nca_anki.identity.retired import strip_notice
from nca_anki.once import computed_once
from nca_anki.publishing.versions import DeckState, DeckVersion, Events, advance, day, is_day
from nca_anki.reading import published

MANIFEST_FORMAT = "nca-anki-manifest-1"


class FactsStore(Protocol):
    """Where the facts of decks read before are kept by SHA-256, so a deck is not read
    again for them (caching/entries.py's DeckFactsCache is one)."""

    def get(self, deck_file: str, sha256: str) -> published.DeckFacts | None: ...

    def put(self, deck_file: str, sha256: str, facts: published.DeckFacts) -> None: ...



@dataclass(frozen=True, kw_only=True)
class IndexedDeck:
    """One topic's deck as published, for the index. Only its facts are kept; its
    collection is read from the file each time it is needed, so the index of 100,000
    questions does not hold every deck in memory at once."""

    name: str  # the deck's full name
    topic: str
    path: Path  # the .apkg in the output folder
    sha256: str
    size: int
    record: DeckVersion | None  # None: no record kept; worked out from the notes' times
    # (GUID, mod, retired) of each note of ours, in study order; a retired note has no
    # card (versions.py).
    notes: tuple[tuple[str, int, bool], ...] = ()
    note_type_mod: int = 0  # our note type's mod in the deck
    media: tuple[tuple[str, str, int], ...] = ()  # (name, SHA-256, bytes) of each image
    # The .apkg's bytes (as published, or as this build staged them): its collection and
    # images are unpacked from them only when asked for, one deck at a time.
    data: bytes = field(default=b"", repr=False, compare=False)

    @staticmethod
    def of(name: str, topic: str, path: Path, data: bytes, record: DeckVersion | None,
           cache: FactsStore | None = None) -> IndexedDeck:
        """The deck whose ``.apkg`` bytes are ``data``: its facts, worked out from them or,
        for a deck the ``cache`` has read before (same SHA-256), from the cache (raises if
        the deck is damaged)."""
        sha = hashlib.sha256(data).hexdigest()
        facts = cache.get(path.name, sha) if cache is not None else None
        if facts is None:
            facts = published.facts(published.collection_of(data))
            if cache is not None:
                cache.put(path.name, sha, facts)
        media = tuple((name, hashlib.sha256(body).hexdigest(), len(body))
                      for name, body in published.media_of(data))
        notes, note_type_mod = facts
        return IndexedDeck(name=name, topic=topic, path=path, sha256=sha, size=len(data),
                           record=record, notes=notes, note_type_mod=note_type_mod,
                           media=media, data=data)

    @property
    def file(self) -> str:
        return self.path.name

    def collection(self) -> bytes:
        return published.collection_of(self.data)

    def media_files(self) -> list[tuple[str, bytes]]:
        return published.media_of(self.data) if self.media else []

    @computed_once
    def version(self) -> DeckVersion:
        if self.record is not None:
            return self.record
        return advance(None, Events(), DeckState(
            {g: m for g, m, retired in self.notes if not retired},
            {g: m for g, m, retired in self.notes if retired}, self.note_type_mod), 0)

    @property
    def questions(self) -> int:
        return sum(not retired for _, _, retired in self.notes)

    def prompts(self) -> dict[str, str]:
        """GUID -> the prompt as plain text (a retired note's without its notice)."""
        return {guid: published.plain_text(strip_notice(prompt))
                for guid, prompt in published.first_fields(self.collection())}


@dataclass(frozen=True, kw_only=True)
class ManifestDeck:
    """What a manifest says of one published deck (the fields a build reads back)."""

    deck: str  # the deck's full name
    file: str
    sha256: str
    record: DeckVersion  # its version and what that version changed


@dataclass(frozen=True, kw_only=True)
class Manifest:
    version: str  # the newest deck's
    bundle_file: str
    bundle_sha256: str
    decks: tuple[ManifestDeck, ...]


def _text(data: dict, key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{where}: {key!r} is not a string")
    return value


# What a deck file in the manifest may be called: a topic's slug or the bundle's name
# (topics.slugify, files.BUNDLE_SUFFIX), never a path.
_FILE_RE = re.compile(r"[a-z0-9][a-z0-9_-]*\.apkg")
_SHA_RE = re.compile(r"[0-9a-f]{64}")


def _file(data: dict, where: str) -> str:
    name = _text(data, "file", where)
    if not _FILE_RE.fullmatch(name):
        raise ValueError(f"{where}: file {name!r} is not a deck file name")
    return name


def _sha(data: dict, where: str) -> str:
    sha = _text(data, "sha256", where)
    if not _SHA_RE.fullmatch(sha):
        raise ValueError(f"{where}: sha256 {sha[:80]!r} is not a SHA-256")
    return sha


def read_manifest(text: str) -> Manifest:
    """The manifest in ``text``; raises ValueError saying what is wrong with it. It is
    read back from the output folder, where anyone may have edited it, so every field a
    build or a release uses is checked: versions are dates, files are deck file names,
    hashes are SHA-256, GUIDs are GUIDs."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    if data.get("format") != MANIFEST_FORMAT:
        raise ValueError(f"format {data.get('format')!r}, not {MANIFEST_FORMAT!r}")
    bundle, decks = data.get("bundle"), data.get("decks")
    if not isinstance(bundle, dict) or not isinstance(decks, list):
        raise ValueError("no 'bundle' object or 'decks' list")
    entries = []
    for deck in decks:
        if not isinstance(deck, dict):
            raise ValueError("a deck entry is not an object")
        name = _text(deck, "deck", "a deck entry")
        changes = deck.get("changes")
        record = DeckVersion.from_json({"version": deck.get("version"), **changes}) \
            if isinstance(changes, dict) else None
        if record is None:
            raise ValueError(f"bad version record of {name!r}")
        entries.append(ManifestDeck(deck=name, file=_file(deck, name),
                                    sha256=_sha(deck, name), record=record))
    version = _text(data, "version", "the manifest")
    if not is_day(version):
        raise ValueError(f"version {version[:80]!r} is not a date")
    return Manifest(version=version, bundle_file=_file(bundle, "the bundle"),
                    bundle_sha256=_sha(bundle, "the bundle"), decks=tuple(entries))


# What json.dumps(text, ensure_ascii=False) writes as the text itself: all but a quote,
# a backslash and the control characters below U+0020.
_JSON_LITERAL_RE = re.compile(r'[^"\\\x00-\x1f]*')


def json_string(text: str) -> str:
    """``text`` as a JSON string, exactly as ``json.dumps(text, ensure_ascii=False)``
    writes it; without its encoder for the plain text every GUID is (a fifth of the
    manifest's time at 100,000 questions)."""
    if _JSON_LITERAL_RE.fullmatch(text):
        return f'"{text}"'
    return json.dumps(text, ensure_ascii=False)


def manifest_text(decks: Sequence[IndexedDeck], bundle_file: str, bundle_data: bytes,
                  parent: str, version: str) -> str:
    """The index for scripts, as JSON: one line per note, so a diff shows what changed.
    (Laid out by hand around ``json.dumps`` of each value: the indenting encoder took
    0.4 s over 10,000 notes.)"""
    def value(data: object) -> str:
        return json.dumps(data, ensure_ascii=False)

    dates: dict[int, str] = {}  # a mod -> its date as JSON (a day has many notes)

    def notes(pairs: list[tuple[str, int]]) -> str:
        if not pairs:
            return "{}"
        for _, mod in pairs:
            if mod not in dates:
                dates[mod] = json_string(day(mod))
        return "{\n" + ",\n".join(f"    {json_string(g)}: {dates[m]}" for g, m in pairs) \
            + "\n   }"

    def media(files: tuple[tuple[str, str, int], ...]) -> str:
        if not files:
            return "{}"
        return "{\n" + ",\n".join(f"    {json_string(name)}: "
                                   f"{value({'sha256': sha, 'bytes': size})}"
                                   for name, sha, size in files) + "\n   }"

    entries = []
    for d in decks:
        changes = d.version.to_json()
        del changes["version"]
        fields = [("deck", value(d.name)), ("topic", value(d.topic)), ("file", value(d.file)),
                  ("questions", value(d.questions)), ("bytes", value(d.size)),
                  ("sha256", value(d.sha256)), ("version", value(d.version.version)),
                  ("changes", value(changes)),
                  ("updated", notes([(g, m) for g, m, retired in d.notes if not retired])),
                  ("retired", notes([(g, m) for g, m, retired in d.notes if retired])),
                  ("media", media(d.media))]
        entries.append("  {\n" + ",\n".join(f'   "{k}": {v}' for k, v in fields) + "\n  }")
    bundle_entry = value({"deck": parent, "file": bundle_file,
                          "questions": sum(d.questions for d in decks),
                          "bytes": len(bundle_data),
                          "sha256": hashlib.sha256(bundle_data).hexdigest()})
    text = "\n".join([
        "{",
        f' "format": {value(MANIFEST_FORMAT)},',
        f' "version": {value(version)},',
        f' "bundle": {bundle_entry},',
        ' "decks": [',
        ",\n".join(entries),
        " ]",
        "}",
    ])
    return text + "\n"
