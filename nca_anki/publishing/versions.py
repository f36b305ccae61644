"""Versions learners can see: what a deck's version is, what changed in it, and the tags
and descriptions that carry this into Anki (docs/sharing.md).

A deck's **version** is the UTC date of its last content change: a question added, changed
or withdrawn, or the card layout (note type) changed. Every note carries the tag
``nca::updated::<date of its own last change>``, derived from its ``mod`` (identity/assign.py),
so a learner finds what a version changed with one search. Anki replaces a note's tags
when it updates the note (docs/anki-import.md), so an older version's tag never lingers
on a changed note, and a note that did not change is not updated and keeps its tag.

A question removed from the source stays in its deck as a **retired** note: same GUID, a
newer ``mod``, the tag ``nca::retired``, a notice on the card, and its card suspended. A
learner who has it gets the notice and the tag by re-importing (Anki cannot delete); a new
learner gets it suspended, never to study.

Which questions were added, changed and removed in each deck's latest version is plain
data (``DeckVersion``), kept in ``dist/manifest.json`` between builds (manifest.py): several
builds on one day make one version, whose record each of them extends.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from nca_anki.identity.retired import RETIRED_TAG, strip_notice

UPDATED_TAG = "nca::updated::"


_DAY_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
# A GUID in a version record: what a note of ours carries (identity/assign.py), or any
# GUID a deck may hold, but never markup or a path.
_GUID_RE = re.compile(r"[A-Za-z0-9!#$%()*+,\-./:;=?@\[\]^_{}~]{1,64}")


def is_day(text: str) -> bool:
    """True if ``text`` is a version as ``day`` writes it (a real date)."""
    if not _DAY_RE.fullmatch(text):
        return False
    try:
        time.strptime(text, "%Y-%m-%d")
    except ValueError:
        return False
    return True


def day(moment: int) -> str:
    """The UTC date of a Unix time, as a version: ``2026-11-30``."""
    return time.strftime("%Y-%m-%d", time.gmtime(moment))


def updated_tag(mod: int) -> str:
    return f"{UPDATED_TAG}{day(mod)}"


# The notice a retired note's prompt starts with, on the front and back of the learner's
# card (style.css gives it its look). Our own markup: no source text is in it.
# identity/retired.py's strip_notice recognises it by its span.
_NOTICE = ('<span class="nca-retired">Withdrawn on {date}: the authors removed this question. '
           'Find every withdrawn card with the search tag:' + RETIRED_TAG + ', then suspend or '
           'delete them.</span> ')


def with_notice(prompt_html: str, removed: int) -> str:
    """A retired note's prompt: the notice, then the prompt as it was."""
    return _NOTICE.format(date=day(removed)) + strip_notice(prompt_html)


@dataclass(frozen=True, kw_only=True)
class DeckVersion:
    """A deck's latest version and what it changed (GUIDs). ``updated``: questions known
    only to have been added or changed that day (the record began after they were)."""

    version: str
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    updated: tuple[str, ...] = ()
    layout: bool = False  # the card layout changed
    images: tuple[str, ...] = ()  # of ``changed``: questions whose images changed
    # Notes whose only change was their "Report a problem" link (new, or a new address):
    # counted in the version, not listed as changed questions.
    report: tuple[str, ...] = ()

    def summary(self) -> str:
        """What the version changed, in one line."""
        counts = [(len(self.added), "added"), (len(self.changed), "changed"),
                  (len(self.updated), "added or changed"), (len(self.removed), "withdrawn")]
        said = [f"{n} question{'s' if n != 1 else ''} {what}" for n, what in counts if n]
        if self.layout:
            said.append("card layout updated")
        if self.report:
            said.append("report link updated")
        return (", ".join(said) or "no changes") + "."

    def to_json(self) -> dict[str, object]:
        return {"version": self.version, "added": list(self.added), "changed": list(self.changed),
                "removed": list(self.removed), "updated": list(self.updated),
                "layout": self.layout, "images": list(self.images),
                **({"report": list(self.report)} if self.report else {})}

    @staticmethod
    def from_json(data: object) -> DeckVersion | None:
        """The record as ``to_json`` wrote it, or None if it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("version"), str) \
                or not is_day(data["version"]):
            return None  # read back from the output folder: nothing but a date is a version
        lists = {}
        for key in ("added", "changed", "removed", "updated", "images", "report"):
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(g, str) and _GUID_RE.fullmatch(g)
                                                      for g in value):
                return None
            lists[key] = tuple(value)
        return DeckVersion(version=data["version"], layout=bool(data.get("layout")), **lists)


@dataclass(frozen=True, kw_only=True)
class Events:
    """What one build did to one deck (GUIDs)."""

    added: frozenset[str] = frozenset()
    changed: frozenset[str] = frozenset()  # revived questions included
    removed: frozenset[str] = frozenset()
    layout: bool = False
    images: frozenset[str] = frozenset()  # of ``changed``: their images changed
    report: frozenset[str] = frozenset()  # only their report link changed (not in changed)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.layout or self.report)


@dataclass(frozen=True)
class DeckState:
    """What decides a deck's version when no record of it exists: its notes' ``mod``
    (live GUID -> mod), its retired notes' ``mod``, and the note type's."""

    live: Mapping[str, int]
    retired: Mapping[str, int] = field(default_factory=dict)
    note_type_mod: int = 0


def advance(previous: DeckVersion | None, events: Events, state: DeckState, now: int
            ) -> DeckVersion:
    """The deck's version after a build that did ``events`` to it at ``now``."""
    today = day(now)
    if not events:
        if previous is not None:
            return previous
        return _reconstructed(state)
    if previous is None or previous.version != today:
        base = DeckVersion(version=today)
    else:
        base = previous
    added = (set(base.added) | events.added) - events.removed
    removed = (set(base.removed) | events.removed) - events.added - events.changed
    changed = (set(base.changed) | set(base.updated) | events.changed) - added - removed
    updated = set(base.updated) & changed - events.changed
    changed -= updated
    # A question added and withdrawn on one day never reached a version: drop it.
    removed -= set(base.added) - set(base.removed)
    images = (set(base.images) | events.images) & changed
    report = (set(base.report) | events.report) - added - removed - changed - updated
    return DeckVersion(
        version=today,
        added=_sorted(added),
        changed=_sorted(changed),
        removed=_sorted(removed),
        updated=_sorted(updated),
        layout=base.layout or events.layout,
        images=_sorted(images),
        report=_sorted(report),
    )


def _reconstructed(state: DeckState) -> DeckVersion:
    """A version worked out from the notes' times alone (no record: a first build with
    versions, or a lost manifest)."""
    mods = [*state.live.values(), *state.retired.values(), state.note_type_mod]
    version = day(max(mods))
    return DeckVersion(
        version=version,
        removed=_sorted(g for g, m in state.retired.items() if day(m) == version),
        updated=_sorted(g for g, m in state.live.items() if day(m) == version),
        layout=day(state.note_type_mod) == version and state.note_type_mod > 0)


def reconcile(record: DeckVersion | None, found: DeckVersion) -> DeckVersion:
    """The record of a deck whose file is not the one ``record`` was written for (after a
    merge that took one branch's manifest and the other's deck): what the deck's own
    times show (``found``, worked out by ``advance(None, Events(), ...)``) is added to it,
    as "added or changed" since the record cannot tell which."""
    if record is None or found.version > record.version:
        return found
    if found.version < record.version:
        return record
    known = {*record.added, *record.changed, *record.removed, *record.updated}
    return DeckVersion(version=record.version, added=record.added, changed=record.changed,
                       removed=_sorted({*record.removed, *(set(found.removed) - known)}),
                       updated=_sorted({*record.updated, *(set(found.updated) - known)}),
                       layout=record.layout or found.layout, report=record.report)


def _sorted(guids: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(guids))


def description(topic: str, parts: Sequence[int], questions: int, version: DeckVersion,
                *, tagged: int | None = None, withdrawn: int | None = None) -> str:
    """The deck's description (HTML), shown on its overview screen in Anki. ``tagged``:
    how many of the deck's notes carry the version's ``nca::updated::`` tag; ``withdrawn``:
    how many of its retired notes this version withdrew (both default to what the record
    says). Each search it offers finds what it says it finds: a version that changed no
    note (the layout only) offers none."""
    noun = "part" if len(parts) == 1 else "parts"
    said = ", ".join(str(p) for p in parts)
    return "".join((
        f"<p>{questions} multiple-choice question{'s' if questions != 1 else ''} on "
        f"{escape(topic)} ({noun} {said}).</p>",
        f"<p><b>Version {version.version}</b>: {escape(version.summary())} "
        f"{_what_changed(version, tagged, withdrawn)}</p>",
        "<p>To update, import the newer .apkg of this deck with Anki's default options: "
        "your cards and their review history are kept. Withdrawn questions are tagged "
        f"<code>{RETIRED_TAG}</code>.</p>",
        "<p>Built by nca-anki.</p>",
    ))


def _what_changed(version: DeckVersion, tagged: int | None, withdrawn: int | None) -> str:
    """The searches that show what ``version`` changed, or why there is none."""
    if tagged is None:
        tagged = len(version.added) + len(version.changed) + len(version.updated) \
            + len(version.report)
    if withdrawn is None:
        withdrawn = len(version.removed)
    said = []
    if tagged:
        said.append(f"See what changed: search <code>tag:{UPDATED_TAG}{version.version}</code>.")
    if withdrawn:
        said.append(f"{'Withdrawn' if not tagged else 'What it withdrew'}: search "
                    f"<code>tag:{RETIRED_TAG}</code> (every withdrawn question, these "
                    "among them).")
    if said:
        return " ".join(said)
    if version.layout:
        return ("This version changed only the card's layout: no question changed, so "
                "there is nothing to search for.")
    return "No question changed in this version."
