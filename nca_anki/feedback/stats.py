"""Item statistics from learners' own Anki exports: ``build_decks.py stats EXPORT...``.

A learner who wants to help exports their reviews (docs/study-groups.md says how): a
deck package with scheduling (``.apkg``) or a whole collection (``.colpkg``). Either is a
zip holding an SQLite collection, compressed with zstd by current Anki
(``collection.anki21b``) or plain in older ones (``collection.anki21``,
``collection.anki2``). This reads, from each, only the notes whose GUID the lock knows,
their cards' lapse counts and the grades of their reviews; nothing else (no deck names,
no note text, no times but the order of reviews). Each export counts as one learner;
two exports of one collection (the same creation time and first review) count once. No
learner name, file name or collection id is kept or shown.

Per question (by GUID, through the lock): how many learners reviewed it, how many of
them failed it the first time they saw it (their first grade "Again"), and the mean of
their cards' lapses. A question is compared with the others of its topic: the questions
a key is wrong for, or whose prompt is ambiguous, are failed on first sight far more
often than the rest of a topic. It is **flagged** when, with 95% confidence (the Wilson
interval's lower bound), its first-sight failure rate is at least ``MARGIN`` above its
topic's mean; flagged questions come first, the largest excess first. A question with
fewer learners than ``min_learners`` is not shown at all (counted only): a handful of
learners says nothing about one question and could point at who they are. Nothing here
ever edits a question.
"""

from __future__ import annotations

import io
import math
import sqlite3
import stat
import statistics
import zipfile
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from nca_anki.records import LockEntry

MIN_LEARNERS = 5
MARGIN = 0.15  # how far above its topic's mean a question's failure rate must surely be
Z = 1.96  # 95%
# Bytes a collection may inflate to: a real one of 100,000 cards with years of reviews is
# a few hundred MB; a "zip bomb" is refused at this size.
INFLATED_LIMIT = 4 << 30
_COLLECTIONS = ("collection.anki21b", "collection.anki21", "collection.anki2")


class ExportError(Exception):
    """An export that cannot be read: why, for the learner or whoever collects."""


@dataclass(frozen=True)
class LearnerReviews:
    """What one export says of each of our questions: GUID -> (first grade, lapses)."""

    questions: Mapping[str, tuple[int, int]]
    key: tuple[int, int]  # (creation time, first review id): the same collection twice


def _collection(path: Path) -> bytes:
    if not stat.S_ISREG(path.stat().st_mode):  # a pipe would never end: never opened
        raise ExportError("not a regular file (a folder, a pipe or a device)")
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
            name = next((n for n in _COLLECTIONS if n in names), None)
            if name is None:
                raise ExportError("not an Anki export: it holds no collection")
            info = archive.getinfo(name)
            if info.file_size > INFLATED_LIMIT:
                raise ExportError(f"its collection is {info.file_size} bytes; at most "
                                  f"{INFLATED_LIMIT} are read")
            with archive.open(info) as stream:
                data = stream.read(INFLATED_LIMIT + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise ExportError(f"not an Anki export (not a readable zip: {exc})") from None
    if name == "collection.anki21b":
        import zstandard

        try:
            reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data))
            data = reader.read(INFLATED_LIMIT + 1)
        except zstandard.ZstdError as exc:
            raise ExportError(f"its collection cannot be decompressed ({exc})") from None
    if len(data) > INFLATED_LIMIT:
        raise ExportError(f"its collection inflates past {INFLATED_LIMIT} bytes")
    if not data.startswith(b"SQLite format 3\x00") or len(data) < 100:
        raise ExportError("its collection is not an SQLite database")
    # Current Anki keeps its collection in WAL mode (header bytes 18 and 19 are 2); a
    # database read from memory has no WAL file, so it is read in the rollback mode (1).
    return data[:18] + b"\x01\x01" + data[20:] if data[18:20] == b"\x02\x02" else data


def read_export(path: Path, guids: frozenset[str]) -> LearnerReviews:
    """The reviews of the questions ``guids`` in the export at ``path`` (raises
    ExportError, or OSError if the file cannot be read)."""
    data = _collection(path)
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(data)
        conn.execute("PRAGMA query_only = 1")
        created = conn.execute("SELECT crt FROM col").fetchone()
        first = conn.execute("SELECT min(id) FROM revlog").fetchone()
        found: dict[str, tuple[int, int]] = {}
        # Each card's first graded review (type 0-3: learning, review, relearning,
        # filtered; 4 is a manual reschedule, with no grade), and its lapses. One grouped
        # pass over the reviews (SQLite takes a bare column from the row min() picks), so
        # an export without Anki's index on revlog.cid is read in n log n, not n².
        rows = conn.execute(
            "SELECT n.guid, c.lapses, first.ease FROM notes n JOIN cards c ON c.nid = n.id "
            "JOIN (SELECT cid, ease, min(id) FROM revlog WHERE ease BETWEEN 1 AND 4 "
            "AND type BETWEEN 0 AND 3 GROUP BY cid) first ON first.cid = c.id "
            "WHERE n.guid LIKE 'nca-%'")
        for guid, lapses, grade in rows:
            if guid in guids and grade is not None:
                found[guid] = (int(grade), int(lapses or 0))
    except (sqlite3.Error, TypeError, ValueError) as exc:
        raise ExportError(f"its collection cannot be read ({exc})") from None
    finally:
        conn.close()
    return LearnerReviews(found, (int((created or (0,))[0] or 0), int((first or (0,))[0] or 0)))


@dataclass(frozen=True)
class ItemStats:
    guid: str
    topic: str
    file: str  # its file in the source folder, as the lock has it
    excerpt: str  # the start of its prompt, as the lock has it
    learners: int
    failed_first: int
    lapses: float  # mean per learner
    topic_rate: float  # the mean first-sight failure rate of its topic's questions shown
    z: float  # (rate - topic mean) / topic standard deviation; 0 if it has none
    flagged: bool

    @property
    def rate(self) -> float:
        return self.failed_first / self.learners

    @property
    def low(self) -> float:
        """The Wilson interval's lower bound of the failure rate (95%)."""
        return wilson_low(self.failed_first, self.learners)

    def evidence(self) -> str:
        return (f"{self.failed_first} of {self.learners} learners failed it the first time "
                f"({self.rate:.0%}, at least {self.low:.0%} with 95% confidence); its topic: "
                f"{self.topic_rate:.0%}; {self.lapses:.1f} lapses per learner; "
                f"z = {self.z:+.1f}")

    def to_json(self) -> dict[str, object]:
        return {"guid": self.guid, "topic": self.topic, "file": self.file,
                "excerpt": self.excerpt, "learners": self.learners,
                "failed_first": self.failed_first, "failure_rate": round(self.rate, 4),
                "failure_rate_low": round(self.low, 4), "lapses": round(self.lapses, 3),
                "topic_failure_rate": round(self.topic_rate, 4), "z": round(self.z, 3),
                "flagged": self.flagged}


@dataclass(frozen=True)
class Stats:
    learners: int  # exports counted
    same: int  # exports left out as a second copy of one collection
    items: tuple[ItemStats, ...]  # shown, flagged first (largest excess first), then by z
    hidden: int  # questions reviewed by fewer learners than the threshold
    unknown: int  # reviewed notes of ours the lock does not know (another project's?)
    min_learners: int


def wilson_low(failures: int, n: int) -> float:
    if n == 0:
        return 0.0
    p = failures / n
    centre = p + Z * Z / (2 * n)
    spread = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + Z * Z / n))


def item_stats(exports: Sequence[LearnerReviews], entries: Sequence[LockEntry],
               min_learners: int = MIN_LEARNERS) -> Stats:
    """Each question's statistics over ``exports`` (module docstring)."""
    lock = {e.guid: e for e in entries}
    seen: set[tuple[int, int]] = set()
    counted = []
    for export in exports:
        if export.key != (0, 0) and export.key in seen:
            continue
        seen.add(export.key)
        counted.append(export)
    learners: dict[str, int] = defaultdict(int)
    failed: dict[str, int] = defaultdict(int)
    lapses: dict[str, int] = defaultdict(int)
    unknown: set[str] = set()
    for export in counted:
        for guid, (grade, lapsed) in export.questions.items():
            if guid not in lock:
                unknown.add(guid)
                continue
            learners[guid] += 1
            failed[guid] += grade == 1
            lapses[guid] += lapsed
    shown = [g for g in learners if learners[g] >= min_learners]
    by_topic: dict[str, list[float]] = defaultdict(list)
    for guid in shown:
        by_topic[lock[guid].topic].append(failed[guid] / learners[guid])
    # Each topic's mean and spread, worked out once (not once per question: linear).
    spreads = {topic: (statistics.fmean(rates),
                       statistics.pstdev(rates) if len(rates) > 1 else 0.0)
               for topic, rates in by_topic.items()}
    items = []
    for guid in shown:
        entry, rate = lock[guid], failed[guid] / learners[guid]
        mean, spread = spreads[entry.topic]
        items.append(ItemStats(
            guid, entry.topic, entry.file or "", entry.prompt, learners[guid], failed[guid],
            lapses[guid] / learners[guid], mean, (rate - mean) / spread if spread else 0.0,
            wilson_low(failed[guid], learners[guid]) >= mean + MARGIN))
    items.sort(key=lambda i: (not i.flagged, -(i.low - i.topic_rate) if i.flagged else -i.z,
                              -i.rate, i.guid))
    return Stats(len(counted), len(exports) - len(counted), tuple(items),
                 len(learners) - len(shown), len(unknown), min_learners)
