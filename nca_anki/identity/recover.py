"""Rebuild the identity lock from the published decks when the lock file is gone.

Every ``.apkg`` in the output folder holds each note's GUID, ``mod``, fields and tags, and
the note type's templates: enough to give each question back its identity (and its place
in the static order), so a lost lock never re-keys a bank (learners would get duplicates).
Decks are read through reading/published.py (no genanki, no Anki). Never raises:
problems come back as diagnostics.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.identity.assign import fields_hash, source_hash
from nca_anki.reading import published
from nca_anki.identity.retired import RETIRED_TAG, content_tags, strip_notice
from nca_anki.records import FIELDS, LABELS, Lock, LockEntry, NoteType, answer_key, prompt_id

_PART_RE = re.compile(r"::part-(\d+)$")
_LETTER_RE = re.compile(r"\b[A-J]\b")
# A choice in the Choices field: the current layout's text span, or the whole item.
# (Each part stops at the next "<li": a deck read back may be damaged or hostile, and a
# scan to the field's end from every "<li" grows with the square of the field.)
_CHOICE_RE = re.compile(r'<li\b[^<>]*>(?:<span class="nca-label">[^<]*</span>\s*)?'
                        r'(?:<span class="nca-text">(?P<text>(?:(?!<li\b).)*?)</span>'
                        r'|(?P<item>(?:(?!<li\b).)*?))</li>', re.DOTALL)


def _entry(topic: str, guid: str, mod: int, fields: tuple[str, ...], tags: tuple[str, ...]
           ) -> LockEntry | None:
    if len(fields) != len(FIELDS):
        return None
    removed = None
    if RETIRED_TAG in tags:  # retired (versions.py): recover it as a removed question
        removed, mod = mod, mod - 1
        fields = (strip_notice(fields[0]), *fields[1:])
    tags = content_tags(tags)
    field = dict(zip(FIELDS, fields))
    text = published.plain_text
    choices = tuple(text(m.group("text") if m.group("text") is not None else m.group("item"))
                    for m in _CHOICE_RE.finditer(field["Choices"]))
    # "B", or "B and D" for several answers: the letters in the static order.
    correct = tuple(sorted({LABELS.index(letter) for letter in _LETTER_RE.findall(field["Answer"])
                            if letter in LABELS[:len(choices)]}))
    answer = correct[0] if correct else -1
    part = next((int(m.group(1)) for t in tags if (m := _PART_RE.search(t))), 1)
    prompt, explanation = text(field["Prompt"]), text(field["Explanation"])
    return LockEntry(guid=guid, topic=topic, part=part, content_hash=fields_hash(fields, tags),
                     mod=mod, prompt=prompt, choices=choices, answer=answer,
                     explanation=explanation, removed=removed,
                     slots=correct,
                     source=source_hash(prompt, choices, answer_key(correct), explanation),
                     prompt_id=prompt_id(prompt))


@dataclass(frozen=True, kw_only=True)
class _Published:
    entries: list[LockEntry]
    note_types: list[tuple[int, NoteType]]
    problems: list[Diagnostic]
    unreadable: tuple[str, str] | None = None  # (deck, why) when a deck cannot be read


def _read_published(decks: published.Published, topics_by_deck: Mapping[str, str],
                    only: Collection[str] | None = None,
                    skip: Collection[str] = ()) -> _Published:
    """Every note of ours in the published decks (only the files named in ``only``, if
    given), as lock entries with their text, but those whose GUID is in ``skip``; reading
    stops at a deck that cannot be read."""
    entries: list[LockEntry] = []
    note_types: list[tuple[int, NoteType]] = []
    problems: list[Diagnostic] = []
    for file in decks.decks():
        if only is not None and file.name not in only:
            continue
        shown = decks.shown(file.name)
        try:
            deck = published.read_deck(file.bytes())
        except published.DeckError as exc:
            return _Published(entries=entries, note_types=note_types, problems=problems,
                              unreadable=(shown, f"{type(exc).__name__}: {exc}"))
        if deck.note_type is None:
            problems.append(warning("W305",
                                    shown, 0, "not built by nca-anki (no note type of ours); "
                                    "ignored when recovering the lock"))
            continue
        note_types.append((deck.note_type_mod, deck.note_type))
        topic = topics_by_deck.get(deck.name, deck.name.split("::")[-1])
        entries += [e for note in deck.notes
                    if note.guid not in skip and (e := _entry(
                        topic, note.guid, note.mod, note.fields, note.tags)) is not None]
    if only is None:  # a topic's deck deleted too: the bundle still holds its notes
        entries += _from_bundles(decks, topics_by_deck, {e.guid for e in entries} | set(skip),
                                 note_types, problems)
    return _Published(entries=entries, note_types=note_types, problems=problems)


def _from_bundles(decks: published.Published, topics_by_deck: Mapping[str, str],
                  known: set[str], note_types: list[tuple[int, NoteType]],
                  problems: list[Diagnostic]) -> list[LockEntry]:
    """The notes of the published all-topics bundles that no topic's deck holds (its
    deck was deleted), with the topic of the subdeck each is in."""
    entries: list[LockEntry] = []
    for file in decks.bundles():
        try:
            note_type, mod, notes = published.read_bundle_notes(file.bytes())
        except published.DeckError:
            problems.append(warning("W305", decks.shown(file.name), 0, "cannot be read; not "
                                    "used when recovering the lock"))
            continue
        if note_type is None:
            continue
        found = [e for deck_name, note in notes if note.guid not in known and (e := _entry(
            topics_by_deck.get(deck_name, deck_name.split("::")[-1]), note.guid, note.mod,
            note.fields, note.tags)) is not None]
        if found:
            note_types.append((mod, note_type))
            entries += found
            known.update(e.guid for e in found)
    return entries


class PublishedTexts:
    """The questions as the published decks show them, for similarity matching
    (assign.py's ``texts``): ``texts(topics, skip)`` gives GUID -> lock entry with its
    text for the decks of ``topics`` (every deck for None), but the notes whose GUID is
    in ``skip``. Each answer is worked out once from the one read of the decks
    (``published``). A deck that cannot be read contributes nothing (the build then makes
    new identities only for questions it cannot recognise, as without the texts)."""

    def __init__(self, decks: published.Published, deck_files: Mapping[str, str]) -> None:
        self._decks = decks
        self._files = deck_files  # topic name -> its deck's file name
        self._answers: dict[tuple[frozenset[str] | None, frozenset[str]],
                            dict[str, LockEntry]] = {}

    def __call__(self, topics: frozenset[str] | None,
                 skip: frozenset[str] = frozenset()) -> dict[str, LockEntry]:
        if (topics, skip) not in self._answers:
            only = None if topics is None else {self._files[t] for t in topics}
            self._answers[topics, skip] = {
                e.guid: e for e in _read_published(self._decks, {}, only, skip).entries}
        return self._answers[topics, skip]


def recover_lock(decks: published.Published, topics_by_deck: Mapping[str, str],
                 lock_shown: str) -> tuple[Lock | None, tuple[Diagnostic, ...]]:
    """The lock the published decks were built with (as far as they tell), or ``None``
    with an error when a deck cannot be read. ``topics_by_deck`` maps this build's deck
    names to topic names; a deck no topic builds any more keeps its own name as the
    topic."""
    found = _read_published(decks, topics_by_deck)
    entries, note_types, problems = found.entries, found.note_types, found.problems
    if found.unreadable:
        deck, why = found.unreadable
        return None, (error("E301",
                            deck, 0, f"lock file {lock_shown} is missing and this deck cannot "
                            f"be read to recover it ({why}); restore {lock_shown} from version "
                            "control, or move the decks out of the output folder to start new "
                            "identities (learners who imported them would get duplicates)"),)
    if not entries:
        return Lock(), tuple(problems)
    mod, note_type = max(note_types, key=lambda item: item[0])
    unique = {e.guid: e for e in entries}  # a GUID in two decks: one entry is enough
    problems.append(warning("W302",
                            lock_shown, 0, f"lock file missing: recovered the identities of "
                            f"{len(unique)} questions from {len(note_types)} deck(s) in "
                            f"{decks.folder.as_posix()}; commit the new {lock_shown}"))
    return (Lock(note_type_hash=note_type.fingerprint, note_type_mod=mod,
                 entries=tuple(sorted(unique.values(), key=lambda e: (e.topic, e.guid)))),
            tuple(problems))
