"""Identity as one build stage: give every note to be built its GUID and time
(assign.py), with the published questions' texts for the edits only similarity can pair
(recover.py's PublishedTexts, over the one read of the published decks), and say what the
author should know: two identities for one question (a merge), and each question removed
from the source, quoted as its published deck shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import nca_anki.diagnostics as diag
from nca_anki.diagnostics import Diagnostic
from nca_anki.identity.assign import assign
from nca_anki.identity.recover import PublishedTexts
from nca_anki.identity.retired import RETIRED_TAG
from nca_anki.reading.config import Config
from nca_anki.reading.published import Published
from nca_anki.reading.topics import deck_for
from nca_anki.records import Assignment, Lock, LockEntry, NoteType, RenderedNote, Topic


def identify(notes: Sequence[tuple[str, RenderedNote]], note_type: NoteType, lock: Lock,
             kept: frozenset[str], now: int, *, sources: Mapping[str, str],
             decks: Published, deck_files: Mapping[str, str], lock_shown: str,
             published_guids: Mapping[str, frozenset[str]] | None = None
             ) -> tuple[Assignment, list[Diagnostic]]:
    """The identities of ``notes`` (topic name, note) against ``lock``; the lock entries
    of the ``kept`` topics stay as they are. ``sources`` maps a question's shown path to
    the path the lock records; ``deck_files`` maps every topic the lock or the source
    names to its deck's file name in ``decks``; ``published_guids`` the GUIDs each topic
    to build has in its published deck (publishing/changes.py read them)."""
    published = PublishedTexts(decks, deck_files)
    lock, repaired = repair_guids(lock, published_guids or {}, published, lock_shown)
    assignment = assign(tuple(notes), note_type, lock, kept, now, sources, texts=published)
    problems = [*repaired, *(diag.warning(
        "W301", lock_shown, 0, "two identities for one question (a merge?): kept the one in "
        f"the published deck, dropped {twin.guid} ({diag.clip(twin.prompt, 50)!r})")
        for twin in assignment.twins)]
    # The lock keeps only an excerpt of each prompt; the published deck has it whole.
    shown = published(frozenset(e.topic for e in assignment.removed if not e.has_text))
    for entry in assignment.removed:
        prompt = shown[entry.guid].prompt if entry.guid in shown else entry.prompt
        problems.append(diag.warning("W304",
            lock_shown, 0, f"question removed from the source: {diag.clip(prompt, 60)!r} "
                           f"(topic {entry.topic!r}); its deck keeps it as withdrawn (tag "
                           f"{RETIRED_TAG}): learners who have it see a notice on its card after "
                           "re-importing, new learners get no card"))
    return assignment, problems


def repair_guids(lock: Lock, published_guids: Mapping[str, frozenset[str]],
                 published: PublishedTexts, lock_shown: str
                 ) -> tuple[Lock, list[Diagnostic]]:
    """``lock`` with each entry repaired whose GUID is in no note of its topic's published
    deck while that deck holds the same question (the same content hash) under a GUID the
    lock does not know: a digit of the GUID changed by hand or by a bad merge. Kept as it
    was, the deck would be built with the wrong GUID and learners who import it would get
    the question twice. The published deck's GUID is what learners have: it is kept."""
    everywhere = {e.guid for e in lock.entries}
    by_topic: dict[str, list[LockEntry]] = {}  # one pass, not one a topic
    for entry in lock.entries:
        by_topic.setdefault(entry.topic, []).append(entry)
    repairs: dict[str, str] = {}  # the lock's GUID -> the deck's
    problems = []
    for topic, guids in sorted(published_guids.items()):
        orphans = [e for e in by_topic.get(topic, ()) if e.removed is None
                   and e.guid not in guids]
        if not orphans or not guids - everywhere:
            continue  # the common case: every entry is in the deck, or no note is unknown
        strays: dict[str, list[str]] = {}
        for entry in published(frozenset({topic}), frozenset(everywhere)).values():
            strays.setdefault(entry.content_hash, []).append(entry.guid)
        for entry in orphans:
            found = strays.get(entry.content_hash, [])
            if len(found) == 1:
                repairs[entry.guid] = found.pop()
                problems.append(diag.warning("W306", lock_shown, 0, (
                    f"the lock gives {diag.clip(entry.prompt, 50)!r} (topic {topic!r}) the "
                    f"GUID {entry.guid}, which is in no published note, while its published "
                    f"deck holds that question as {repairs[entry.guid]}: kept the deck's, as "
                    "learners have it; commit the rebuilt lock")))
    if not repairs:
        return lock, []
    return replace(lock, entries=tuple(replace(e, guid=repairs.get(e.guid, e.guid))
                                       for e in lock.entries)), problems


def deck_files(topics: Sequence[Topic], lock: Lock | None, config: Config) -> dict[str, str]:
    """The deck file of every topic the source (``topics``) or the lock names."""
    slugs = {t.name: t.slug for t in topics}
    entries = lock.entries if lock else ()
    return {t: f"{slugs.get(t) or deck_for(t, config)[1]}.apkg"
            for t in {*slugs, *(e.topic for e in entries)}}
