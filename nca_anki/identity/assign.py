"""Give every question a lasting identity: a GUID and a modification time (``mod``).

Anki matches notes by GUID and updates one only when the package's ``mod`` is strictly
newer (docs/anki-import.md). The lock (lockfile.py: ``nca-anki.lock`` in the source folder,
committed with it) records for each question its GUID, content hash, ``mod``, the
slot of its correct choice in the static order (shuffle.py) and its file (so a topic
whose file breaks can be frozen whole). An
edited question is matched to its entry (match.py: identical content, identical text,
the same specific prompt, then similarity), so it keeps its GUID and gets a newer
``mod``; untouched questions keep both.
The same source and lock therefore give the same notes on any machine, at any time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from nca_anki.identity.match import Item, pair
from nca_anki.identity.retired import revived_mod
from nca_anki.records import (Assignment, IdentifiedNote, Lock, LockEntry, NoteStatus, NoteType,
                              RenderedNote, answer_key, prompt_id)


def fields_hash(fields: Sequence[str], tags: Sequence[str]) -> str:
    """Hash of everything a note carries into Anki (64 bits: enough to see a change)."""
    data = "\x1e".join(("\x1f".join(fields), " ".join(tags)))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def content_hash(note: RenderedNote) -> str:
    return fields_hash(note.fields, note.tags)


def source_hash(prompt: str, choices: Sequence[str], answer: int | str, explanation: str
                ) -> str:
    """Hash of a question's text as written (whitespace-normalised): equal for a question
    whose card layout changed but whose text did not. ``answer``: the correct choice's
    index, or records.answer_key() of all of them."""
    parts = [" ".join(text.split()) for text in (prompt, *choices, explanation)]
    return hashlib.sha256("\x1f".join([*parts, str(answer)]).encode()).hexdigest()[:16]


def note_hashes(topic: str, note: RenderedNote) -> tuple[str, str, str, str]:
    """What identity hashes of a note of ``topic``: its content hash, its source hash,
    its prompt id, and the GUID it gets if it is new and no other question has taken it.
    A pure function of the note, so the build works them out on the workers that render
    the notes (RenderedNote.hashes), not one after another here."""
    q = note.question
    return (content_hash(note),
            source_hash(q.prompt, [c.text for c in q.choices], answer_key(q.correct_indexes),
                        q.explanation),
            prompt_id(q.prompt), _guid(topic, note, 0))


def _answer(note: RenderedNote) -> int:
    correct = note.question.correct_indexes
    return correct[0] if correct else -1


def _note_item(topic: str, note: RenderedNote, hashes: tuple[str, str, str, str]) -> Item:
    q = note.question
    content, source, prompt_key, _ = hashes
    return Item(topic=topic, content=content, source=source, prompt=prompt_key,
                prompt_text=q.prompt, choices=tuple(c.text for c in q.choices),
                answer=_answer(note), explanation=q.explanation)


def _entry_item(entry: LockEntry) -> Item:
    if not entry.has_text:  # known by its hashes only, until texts are filled in
        return Item.of(topic=entry.topic, content=entry.content_hash, source=entry.source,
                       prompt="", prompt_key=entry.prompt_key, choices=(), answer=-1,
                       explanation="")
    return Item.of(topic=entry.topic, content=entry.content_hash,
                   source=entry.source or source_hash(entry.prompt, entry.choices,
                                                      entry.answer, entry.explanation),
                   prompt=entry.prompt, prompt_key=entry.prompt_key,
                   choices=entry.choices, answer=entry.answer, explanation=entry.explanation)


def with_texts(entries: Sequence[LockEntry], known: Mapping[str, LockEntry]
               ) -> list[LockEntry]:
    """``entries`` with the question text taken from ``known`` (by GUID) where an entry
    holds none; identities, times and hashes stay the entries' own."""
    return [replace(e, prompt=t.prompt, choices=t.choices, answer=t.answer,
                       explanation=t.explanation)
            if not e.has_text and (t := known.get(e.guid)) is not None else e
            for e in entries]


def by_topic(entries: Sequence[LockEntry]) -> dict[str, list[LockEntry]]:
    """Entries grouped by topic name, in their order (one pass, for per-topic lookups)."""
    grouped: dict[str, list[LockEntry]] = {}
    for entry in entries:
        grouped.setdefault(entry.topic, []).append(entry)
    return grouped


def _twins(entries: Sequence[LockEntry]) -> bool:
    """Whether two live entries hold the same question (same card and text hashes)."""
    seen: set[tuple[str, str]] = set()
    for entry in entries:
        if entry.removed is None:
            key = (entry.content_hash, entry.source)
            if key in seen:
                return True
            seen.add(key)
    return False


def _guid(topic: str, note: RenderedNote, attempt: int) -> str:
    seed = "\x1f".join((topic, note.question.prompt, *(c.text for c in note.question.choices)))
    digest = hashlib.sha256(f"{seed}\x1e{attempt}".encode()).hexdigest()
    return f"nca-{digest[:16]}"


def _new_guid(topic: str, note: RenderedNote, taken: set[str], first: str) -> str:
    """Derived from the question's first content, so independent first builds agree:
    ``first`` (attempt 0, worked out beforehand), or the next attempt not ``taken``."""
    for attempt in range(1000):
        guid = first if attempt == 0 else _guid(topic, note, attempt)
        if guid not in taken:
            taken.add(guid)
            return guid
    raise AssertionError("unreachable: 1000 GUID collisions")  # pragma: no cover


def assign(notes: tuple[tuple[str, RenderedNote], ...], note_type: NoteType, lock: Lock,
           frozen_topics: frozenset[str], now: int,
           files: Mapping[str, str] | None = None,
           texts: Callable[[frozenset[str] | None, frozenset[str]], Mapping[str, LockEntry]]
           | None = None) -> Assignment:
    """Match ``notes`` (topic name, note) to ``lock`` and return their identities and the
    new lock. Entries of ``frozen_topics`` (topics that failed to build) are kept as they are.
    ``files`` maps a question's shown path to the path the lock records for it;
    ``texts(topics, skip)`` gives the question texts of entries read without them (by
    GUID), when needed, from the decks of ``topics`` (None: every deck), leaving out the
    notes whose GUID is in ``skip``.
    """
    files = files or {}
    frozen = [e for e in lock.entries if e.topic in frozen_topics]
    candidates = [e for e in lock.entries if e.topic not in frozen_topics]
    every = [note.hashes or note_hashes(topic, note) for topic, note in notes]
    hashes = [h[0] for h in every]
    questions = [_note_item(topic, note, h) for (topic, note), h in zip(notes, every)]
    published: Mapping[str, LockEntry] | None = None
    if texts is not None and _twins(candidates):
        # Two live entries for one question (parallel branches that each gave it an
        # identity): the one learners already have, in the published deck, goes first.
        published = texts(None, frozenset())
        candidates.sort(key=lambda e: e.guid not in published)  # stable otherwise
    matched = pair(questions, [_entry_item(entry) for entry in candidates])
    if texts is not None and len(matched) < len(notes):
        # Hashes alone did not find every question. The published decks (read only now)
        # give the old texts that similarity needs, and the identity of any question they
        # hold that the lock lost (a damaged or badly merged lock): one mechanism for both.
        # Only the decks of topics with a question or an entry still unpaired are read: an
        # edit in one topic reads one deck, not every deck. An entry paired already needs
        # no text: pairing it again goes by the same hashes, and the steps that read texts
        # see only what is unpaired (match.py); so its note is not read either.
        paired = set(matched.values())
        wanted = frozenset({topic for i, (topic, _) in enumerate(notes) if i not in matched}
                           | {e.topic for j, e in enumerate(candidates)
                              if j not in paired and e.removed is None})
        known = published if published is not None else texts(
            wanted, frozenset(candidates[j].guid for j in paired))
        listed = {e.guid for e in lock.entries}
        candidates = with_texts(candidates, known)
        candidates += [e for guid, e in sorted(known.items())
                       if guid not in listed and e.topic not in frozen_topics]
        matched = pair(questions, [_entry_item(entry) for entry in candidates])
    used = set(matched.values())

    taken = {e.guid for e in (*lock.entries, *candidates)}
    identified, entries = [], []
    for i, (topic, note) in enumerate(notes):
        previous = candidates[matched[i]] if i in matched else None
        if previous is None:
            guid, mod = _new_guid(topic, note, taken, every[i][3]), now
            status = NoteStatus.NEW
        elif previous.removed is not None:  # back in the source: newer than its retired note
            guid, status = previous.guid, NoteStatus.CHANGED
            mod = revived_mod(previous.mod, previous.removed, now)
        elif previous.content_hash == hashes[i]:
            guid, mod, status = previous.guid, previous.mod, NoteStatus.UNCHANGED
        else:
            guid, mod = previous.guid, max(previous.mod + 1, now)
            status = NoteStatus.CHANGED
        identified.append(IdentifiedNote(note=note, topic=topic, guid=guid, mod=mod,
                                         status=status))
        item = questions[i]  # the question's texts and hashes, as matching saw them
        entries.append(LockEntry(guid=guid, topic=topic, part=note.part,
                                 content_hash=hashes[i], mod=mod, prompt=item.prompt_text,
                                 choices=item.choices, answer=item.answer,
                                 explanation=item.explanation, slots=note.slots,
                                 file=files.get(note.question.path), source=item.source,
                                 prompt_id=item.prompt))

    newly_removed, kept_removed, twins = [], [], []
    chosen = {(candidates[j].content_hash, candidates[j].source) for j in used}
    for j, gone in enumerate(candidates):
        if j in used:
            continue
        if (gone.removed is None and (gone.content_hash, gone.source) in chosen
                and published is not None and gone.guid not in published):
            twins.append(gone)  # the other identity of a question: never published, dropped
            continue
        if gone.removed is None:
            gone = replace(gone, removed=now)
            newly_removed.append(gone)
        kept_removed.append(gone)

    fingerprint = note_type.fingerprint
    if fingerprint == lock.note_type_hash:
        note_type_mod = lock.note_type_mod
    else:
        note_type_mod = max(lock.note_type_mod + 1, now)
    kept_removed.sort(key=lambda e: (e.topic, e.guid))
    new_lock = Lock(note_type_hash=fingerprint, note_type_mod=note_type_mod,
                    entries=tuple(sorted(entries + frozen, key=lambda e: e.topic))
                    + tuple(kept_removed))
    return Assignment(notes=tuple(identified), note_type_mod=note_type_mod, lock=new_lock,
                      removed=tuple(newly_removed), twins=tuple(twins))
