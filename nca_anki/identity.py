"""Give every question a lasting identity: a GUID and a modification time (``mod``).

Anki matches notes by GUID and updates one only when the package's ``mod`` is strictly
newer (docs/anki-import.md). The lock file, ``nca-anki.lock.json`` in the source folder
and committed with it, records for each question its GUID, content hash, ``mod``, the
slot of its correct choice in the static order (shuffle.py) and its file (so a topic
whose file breaks can be frozen whole). An
edited question is matched to its entry (exact content first, then by similarity of
prompt, choices and explanation), so it keeps its GUID and gets a newer ``mod``; untouched
questions keep both.
The same source and lock therefore give the same notes on any machine, at any time.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from .diagnostics import Diagnostic, error, warning
from .render import NoteType, RenderedNote

LOCK_NAME = "nca-anki.lock.json"
LOCK_FORMAT = 1

# A question whose prompt, choices and explanation are this similar to a lock entry is "the
# same question, edited". Below it, a question is new: better a new card than a wrong card's
# history. Similarity is the Dice coefficient of word pairs, so a shared stock opening
# ("Which of the following…") or shared stop words count for little.
MATCH_THRESHOLD = 0.6
_WEIGHTS = {"prompt": 0.45, "choices": 0.25, "explanation": 0.30}
# A different correct answer makes an edit less likely to be the same question.
_ANSWER_CHANGED_FACTOR = 0.8


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


def _shingles(text: str) -> frozenset[str]:
    words = re.findall(r"\w+", text.casefold())
    if len(words) < 2:
        return frozenset(words)
    return frozenset(f"{a} {b}" for a, b in zip(words, words[1:]))


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


@dataclass(frozen=True)
class _Features:
    """What similarity is measured on, for a question or a lock entry."""

    prompt: frozenset[str]
    choices: frozenset[str]
    explanation: frozenset[str]
    answer: frozenset[str]

    @classmethod
    def of(cls, prompt: str, choices: tuple[str, ...], answer: int, explanation: str
           ) -> "_Features":
        return cls(_shingles(prompt), frozenset().union(*map(_shingles, choices)),
                   _shingles(explanation),
                   _shingles(choices[answer]) if 0 <= answer < len(choices) else frozenset())


def _similarity(a: _Features, b: _Features) -> float:
    score = (_WEIGHTS["prompt"] * _dice(a.prompt, b.prompt)
             + _WEIGHTS["choices"] * _dice(a.choices, b.choices)
             + _WEIGHTS["explanation"] * _dice(a.explanation, b.explanation))
    if _dice(a.answer, b.answer) < 0.5:
        score *= _ANSWER_CHANGED_FACTOR
    return score


def _question_features(note: RenderedNote) -> _Features:
    q = note.question
    return _Features.of(q.prompt, tuple(c.text for c in q.choices), _answer(note), q.explanation)


def _answer(note: RenderedNote) -> int:
    correct = note.question.correct_indexes
    return correct[0] if correct else -1


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


def _match(notes: tuple[tuple[str, RenderedNote], ...], hashes: list[str],
           candidates: list[LockEntry]) -> dict[int, int]:
    """Pair notes with lock entries (note index -> entry index), best pairs first."""
    matched: dict[int, int] = {}
    used: set[int] = set()
    by_hash: dict[str, list[int]] = {}
    for j, entry in enumerate(candidates):
        by_hash.setdefault(entry.content_hash, []).append(j)
    for i, digest in enumerate(hashes):
        free = [j for j in by_hash.get(digest, ()) if j not in used]
        if free:
            matched[i] = free[0]
            used.add(free[0])

    # Similar questions: within a topic, then across to topics that are gone (a renamed
    # title). Not across all topics: that is quadratic in the whole bank, for a rare move.
    features = {i: _question_features(note) for i, (_, note) in enumerate(notes)
                if i not in matched}
    live_topics = {topic for topic, _ in notes}
    for same_topic in (True, False):
        pairs = []
        for j, entry in enumerate(candidates):
            if j in used or (entry.topic in live_topics) != same_topic:
                continue
            other = _Features.of(entry.prompt, entry.choices, entry.answer, entry.explanation)
            for i, mine in features.items():
                if i not in matched and (notes[i][0] == entry.topic or not same_topic):
                    score = _similarity(mine, other)
                    if score >= MATCH_THRESHOLD:
                        pairs.append((-score, i, j))
        for _, i, j in sorted(pairs):
            if i not in matched and j not in used:
                matched[i] = j
                used.add(j)
    return matched


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
    matched = _match(notes, hashes, candidates)
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
