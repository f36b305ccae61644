"""Give every question a lasting identity: a GUID and a modification time (``mod``).

Anki matches notes by GUID and updates one only when the package's ``mod`` is strictly
newer (docs/anki-import.md). The lock file, ``nca-anki.lock.json`` in the source folder
and committed with it, records for each question its GUID, content hash, ``mod``, the
slot of its correct choice in the static order (shuffle.py) and its file (so a topic
whose file breaks can be frozen whole). An
edited question is matched to its entry (match.py: identical content, identical text,
the same specific prompt, then similarity), so it keeps its GUID and gets a newer
``mod``; untouched questions keep both.
The same source and lock therefore give the same notes on any machine, at any time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .diagnostics import Diagnostic, error, warning
from .match import Item, pair
from .render import NoteType, RenderedNote

LOCK_NAME = "nca-anki.lock.json"
LOCK_FORMAT = 1

@dataclass(frozen=True)
class LockEntry:
    guid: str
    topic: str
    part: int
    content_hash: str
    mod: int
    prompt: str
    choices: tuple[str, ...]
    answer: int  # index of the correct choice
    explanation: str
    removed: int | None = None  # when the question left the source; kept to revive it
    slot: int | None = None  # the correct choice's place in the static order (shuffle.py)
    file: str | None = None  # the question file, inside the source folder (None: not known)


@dataclass(frozen=True)
class Lock:
    note_type_hash: str = ""
    note_type_mod: int = 0
    entries: tuple[LockEntry, ...] = ()


@dataclass(frozen=True)
class IdentifiedNote:
    note: RenderedNote
    topic: str
    guid: str
    mod: int
    status: str  # "new", "changed" or "unchanged"


@dataclass(frozen=True)
class Assignment:
    notes: tuple[IdentifiedNote, ...]
    note_type_mod: int
    lock: Lock
    removed: tuple[LockEntry, ...]  # entries whose question left the source in this build


def content_hash(note: RenderedNote) -> str:
    """Hash of everything a note carries into Anki (fields and tags)."""
    data = "\x1e".join(("\x1f".join(note.fields), " ".join(note.tags)))
    return hashlib.sha256(data.encode()).hexdigest()


def source_hash(prompt: str, choices: Sequence[str], answer: int, explanation: str) -> str:
    """Hash of a question's text as written (whitespace-normalised): equal for a question
    whose card layout changed but whose text did not."""
    parts = [" ".join(text.split()) for text in (prompt, *choices, explanation)]
    return hashlib.sha256("\x1f".join([*parts, str(answer)]).encode()).hexdigest()


def _answer(note: RenderedNote) -> int:
    correct = note.question.correct_indexes
    return correct[0] if correct else -1


def _note_item(topic: str, note: RenderedNote, content: str) -> Item:
    q = note.question
    choices = tuple(c.text for c in q.choices)
    return Item.of(topic=topic, content=content,
                   source=source_hash(q.prompt, choices, _answer(note), q.explanation),
                   prompt=q.prompt, choices=choices, answer=_answer(note),
                   explanation=q.explanation)


def _entry_item(entry: LockEntry) -> Item:
    return Item.of(topic=entry.topic, content=entry.content_hash,
                   source=source_hash(entry.prompt, entry.choices, entry.answer,
                                      entry.explanation),
                   prompt=entry.prompt, choices=entry.choices, answer=entry.answer,
                   explanation=entry.explanation)


def _new_guid(topic: str, note: RenderedNote, taken: set[str]) -> str:
    """Derived from the question's first content, so independent first builds agree."""
    seed = "\x1f".join((topic, note.question.prompt, *(c.text for c in note.question.choices)))
    for attempt in range(1000):
        digest = hashlib.sha256(f"{seed}\x1e{attempt}".encode()).hexdigest()
        guid = f"nca-{digest[:16]}"
        if guid not in taken:
            taken.add(guid)
            return guid
    raise AssertionError("unreachable: 1000 GUID collisions")  # pragma: no cover


def assign(notes: tuple[tuple[str, RenderedNote], ...], note_type: NoteType, lock: Lock,
           frozen_topics: frozenset[str], now: int,
           files: Mapping[str, str] | None = None) -> Assignment:
    """Match ``notes`` (topic name, note) to ``lock`` and return their identities and the
    new lock. Entries of ``frozen_topics`` (topics that failed to build) are kept as they are.
    ``files`` maps a question's shown path to the path the lock records for it.
    """
    files = files or {}
    frozen = [e for e in lock.entries if e.topic in frozen_topics]
    candidates = [e for e in lock.entries if e.topic not in frozen_topics]
    hashes = [content_hash(note) for _, note in notes]
    matched = pair([_note_item(topic, note, digest) for (topic, note), digest in zip(notes, hashes)],
                   [_entry_item(entry) for entry in candidates])
    used = set(matched.values())

    taken = {e.guid for e in lock.entries}
    identified, entries = [], []
    for i, (topic, note) in enumerate(notes):
        previous = candidates[matched[i]] if i in matched else None
        if previous is None:
            guid, mod, status = _new_guid(topic, note, taken), now, "new"
        elif previous.content_hash == hashes[i]:
            guid, mod, status = previous.guid, previous.mod, "unchanged"
        else:
            guid, mod, status = previous.guid, max(previous.mod + 1, now), "changed"
        identified.append(IdentifiedNote(note, topic, guid, mod, status))
        entries.append(LockEntry(guid, topic, note.part, hashes[i], mod, note.question.prompt,
                                 tuple(c.text for c in note.question.choices), _answer(note),
                                 note.question.explanation, slot=note.slot,
                                 file=files.get(note.question.path)))

    newly_removed = []
    kept_removed = []
    for j, gone in enumerate(candidates):
        if j in used:
            continue
        if gone.removed is None:
            gone = replace(gone, removed=now)
            newly_removed.append(gone)
        kept_removed.append(gone)

    if note_type.fingerprint == lock.note_type_hash:
        note_type_mod = lock.note_type_mod
    else:
        note_type_mod = max(lock.note_type_mod + 1, now)
    kept_removed.sort(key=lambda e: (e.topic, e.guid))
    new_lock = Lock(note_type.fingerprint, note_type_mod,
                    tuple(sorted(entries + frozen, key=lambda e: e.topic)) + tuple(kept_removed))
    return Assignment(tuple(identified), note_type_mod, new_lock, tuple(newly_removed))


# --- the lock file ---------------------------------------------------------------------

def dump_lock(lock: Lock) -> str:
    data = {
        "format": LOCK_FORMAT,
        "about": "nca-anki identity lock: keeps each question's Anki GUID and last-change "
                 "time. Commit it with the source; never edit GUIDs by hand.",
        "note_type": {"hash": lock.note_type_hash, "mod": lock.note_type_mod},
        "questions": [
            {
                "guid": e.guid,
                "topic": e.topic,
                "part": e.part,
                "hash": e.content_hash,
                "mod": e.mod,
                **({"removed": e.removed} if e.removed is not None else {}),
                "prompt": e.prompt,
                "choices": list(e.choices),
                "answer": e.answer,
                "explanation": e.explanation,
                **({"slot": e.slot} if e.slot is not None else {}),
                **({"file": e.file} if e.file is not None else {}),
            }
            for e in lock.entries
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def load_lock(text: str, path: str) -> tuple[Lock | None, tuple[Diagnostic, ...]]:
    """Parse a lock file; a damaged lock is an error (guessing would fork identities)."""
    advice = ("restore it from version control; deleting it gives every question a new "
              "identity, and learners would get duplicate cards")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, (error(path, exc.lineno, f"lock file is not valid JSON ({exc.msg}); "
                            f"{advice}"),)
    try:
        if data.get("format") != LOCK_FORMAT:
            return None, (error(path, 0, f"lock file format {data.get('format')!r} is not "
                                f"{LOCK_FORMAT}; use the nca-anki version that wrote it"),)
        entries = tuple(
            LockEntry(str(q["guid"]), str(q["topic"]), int(q["part"]), str(q["hash"]),
                      int(q["mod"]), str(q["prompt"]), tuple(str(c) for c in q["choices"]),
                      int(q["answer"]), str(q["explanation"]),
                      None if q.get("removed") is None else int(q["removed"]),
                      None if q.get("slot") is None else int(q["slot"]),
                      None if q.get("file") is None else str(q["file"]))
            for q in data["questions"]
        )
        note_type = data["note_type"]
        lock = Lock(str(note_type["hash"]), int(note_type["mod"]), entries)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        return None, (error(path, 0, f"lock file is damaged ({type(exc).__name__}: {exc}); "
                            f"{advice}"),)
    guids = [e.guid for e in entries]
    if len(set(guids)) != len(guids):
        return None, (error(path, 0, f"lock file lists a GUID twice; {advice}"),)
    return lock, ()


def future_mods(lock: Lock, now: int, path: str) -> tuple[Diagnostic, ...]:
    """Warn about times ahead of this machine's clock: a future mod blocks later updates."""
    ahead = [e for e in lock.entries if e.mod > now]
    if lock.note_type_mod > now or ahead:
        return (warning(path, 0, f"{len(ahead) + (lock.note_type_mod > now)} time(s) in the lock "
                        "file are ahead of this machine's clock; check the clock"),)
    return ()
