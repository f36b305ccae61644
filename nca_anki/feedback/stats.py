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

An export comes from someone else and is read as if hostile (docs/study-groups.md): its
collection is inflated in pieces into a temporary file within a bound (INFLATE_*), only
plain tables of Anki's shape are read (no view, virtual table or computed column), through
a read-only connection whose steps are bounded (STEPS_*), and a damaged value refuses
the export with a message, never a crash.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import stat
import statistics
import struct
import tempfile
import zipfile
import zlib
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO
from pathlib import Path

from nca_anki.records import LockEntry

MIN_LEARNERS = 5
MARGIN = 0.15  # how far above its topic's mean a question's failure rate must surely be
Z = 1.96  # 95%
# What a collection may inflate to: real exports inflate 7 to 9 times their size, so at
# most INFLATE_RATIO times the export's size (a small export: INFLATE_FLOOR), and never
# more than INFLATE_CAP; past that it is refused as a "zip bomb". It is inflated in pieces
# into a temporary file, never whole into memory.
INFLATE_RATIO = 50
INFLATE_FLOOR = 64 << 20
INFLATE_CAP = 2 << 30
_CHUNK = 1 << 20
_ZSTD_WINDOW = 1 << 27  # zstd's own default; Anki's frames use 2 MiB
# SQLite's bounds on a collection: the longest value it hands over, and the work of the
# reading (virtual-machine steps): STEPS_BASE and STEPS_PER_BYTE per byte of the
# collection, many times what a real one takes (0.03 a byte) and linear in its size.
VALUE_LIMIT = 64 << 20
STEPS_BASE = 20_000_000
STEPS_PER_BYTE = 16
_STEP_GRAIN = 10_000
# The process's SQLite heap while stats reads (set by the command: SQLite lets a process
# lower it, never raise it again).
HEAP_LIMIT = 256 << 20
_COLLECTIONS = ("collection.anki21b", "collection.anki21", "collection.anki2")
# The tables read and the columns each must have; each must be a plain table whose id is
# its row id (no view, no virtual table, no column computed when read).
_TABLES = {"col": ("crt",), "notes": ("id", "guid"), "cards": ("id", "nid", "lapses"),
           "revlog": ("id", "cid", "ease", "type")}
_AGAIN = "in Anki, Tools > Check Database, then export again"


class ExportError(Exception):
    """An export that cannot be read: why, for the learner or whoever collects."""


@dataclass(frozen=True)
class LearnerReviews:
    """What one export says of each of our questions: GUID -> (first grade, lapses)."""

    questions: Mapping[str, tuple[int, int]]
    key: tuple[int, int]  # (creation time, first review id): the same collection twice


def inflated_limit(size: int) -> int:
    """The most bytes the collection of an export of ``size`` bytes may inflate to."""
    return min(INFLATE_CAP, max(INFLATE_FLOOR, INFLATE_RATIO * size))


def _member(archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    names = set(archive.namelist())
    name = next((n for n in _COLLECTIONS if n in names), None)
    if name is None:
        raise ExportError("not an Anki export: it holds no collection")
    info = archive.getinfo(name)
    if info.flag_bits & 0x1:
        raise ExportError(f"its {name} is encrypted (Anki never encrypts an export)")
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise ExportError(f"its {name} is compressed with method {info.compress_type}, "
                          "which Anki never uses (only stored or deflated)")
    return info


def _copy(source: IO[bytes], out: IO[bytes], limit: int) -> int:
    """Copy ``source`` to ``out`` in pieces, refusing more than ``limit`` bytes."""
    total = 0
    while chunk := source.read(_CHUNK):
        total += len(chunk)
        if total > limit:
            raise ExportError(
                f"its collection inflates past {limit} bytes ({INFLATE_RATIO} times the "
                f"export's size, at least {INFLATE_FLOOR >> 20} MiB, at most "
                f"{INFLATE_CAP >> 30} GiB; real ones inflate under 10 times): refused as "
                "a zip bomb")
        out.write(chunk)
    return total


def _inflate(path: Path, into: Path) -> int:
    """Write the collection of the export at ``path`` into ``into``; its size."""
    if not stat.S_ISREG(path.stat().st_mode):  # a pipe would never end: never opened
        raise ExportError("not a regular file (a folder, a pipe or a device)")
    with open(path, "rb") as file:
        limit = inflated_limit(os.fstat(file.fileno()).st_size)
        try:
            with zipfile.ZipFile(file) as archive:
                info = _member(archive)
                with archive.open(info) as stream, open(into, "wb") as out:
                    if info.filename != "collection.anki21b":
                        return _copy(stream, out, limit)
                    import zstandard

                    try:
                        reader = zstandard.ZstdDecompressor(
                            max_window_size=_ZSTD_WINDOW).stream_reader(
                                stream, read_size=_CHUNK, closefd=False)
                        return _copy(reader, out, limit)
                    except zstandard.ZstdError as exc:
                        raise ExportError(
                            f"its collection cannot be decompressed ({exc})") from None
        except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError,
                NotImplementedError, RuntimeError, ValueError, struct.error) as exc:
            raise ExportError(f"not an Anki export (not a readable zip: {exc})") from None


def _sqlite_file(into: Path) -> None:
    """Check the SQLite header; current Anki keeps its collection in WAL mode (header
    bytes 18 and 19 are 2), read here without a WAL file, in the rollback mode (1)."""
    with open(into, "r+b") as file:
        head = file.read(100)
        if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
            raise ExportError("its collection is not an SQLite database")
        if head[18:20] == b"\x02\x02":
            file.seek(18)
            file.write(b"\x01\x01")


def _check_schema(conn: sqlite3.Connection) -> None:
    """The tables read must be what Anki writes: plain tables with the columns read, each
    id its row id; a view (a recursive one never ends), a virtual table or a column
    computed on reading could run anything."""
    kinds = {name: (kind, sql) for name, kind, sql in conn.execute(
        "SELECT name, type, sql FROM sqlite_master "
        "WHERE name IN ('col', 'notes', 'cards', 'revlog')")}
    for table, columns in _TABLES.items():
        kind, sql = kinds.get(table, (None, None))
        if kind is None:
            raise ExportError(f"its collection has no table {table}: not an Anki "
                              "collection")
        if kind != "table" or not re.match(r"\s*CREATE\s+TABLE\b", str(sql), re.I):
            raise ExportError(f"its {table} is a {kind if kind != 'table' else 'virtual table'}"
                              ", not a table as Anki writes it: not read")
        info = {row[1].lower(): row for row in conn.execute(f"PRAGMA table_xinfo({table})")}
        missing = [c for c in columns if c not in info]
        if missing:
            raise ExportError(f"its table {table} has no column {missing[0]}: not an "
                              "Anki collection")
        if any(row[6] for row in info.values()):  # hidden: computed on reading
            raise ExportError(f"its table {table} has a computed column: not read")
        if "id" in columns and not _row_id(conn, table, info["id"]):
            raise ExportError(f"its table {table}'s id is not its row id, as Anki has "
                              "it: not read")


def _row_id(conn: sqlite3.Connection, table: str, id_column: tuple[object, ...]) -> bool:
    """Whether ``id`` is an alias of the table's row id (INTEGER PRIMARY KEY, no other
    key column, not WITHOUT ROWID nor DESC: both would give the key an index)."""
    keys = [row for row in conn.execute(f"PRAGMA table_info({table})") if row[5]]
    return (len(keys) == 1 and keys[0] == id_column[:6] and str(id_column[2]).upper()
            == "INTEGER" and not any(row[3] == "pk" for row in
                                     conn.execute(f"PRAGMA index_list({table})")))


@contextmanager
def _bounded(db: Path, size: int) -> Iterator[sqlite3.Connection]:
    """A read-only connection to ``db`` whose work is bounded (module constants)."""
    conn = sqlite3.connect(f"{db.as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, VALUE_LIMIT)
        for pragma in ("trusted_schema = OFF", "cell_size_check = ON", "query_only = ON",
                       "mmap_size = 0"):
            conn.execute(f"PRAGMA {pragma}")
        left = [(STEPS_BASE + STEPS_PER_BYTE * size) // _STEP_GRAIN]

        def step() -> int:
            left[0] -= 1
            return left[0] < 0

        conn.set_progress_handler(step, _STEP_GRAIN)
        try:
            yield conn
        except sqlite3.OperationalError:
            if left[0] < 0:
                raise ExportError("reading its collection takes far more work than its "
                                  f"size calls for ({size} bytes): stopped") from None
            raise
    finally:
        conn.close()


def _whole(value: object, what: str, low: int = -(1 << 63)) -> int:
    """``value`` if it is a whole number of at least ``low`` (SQLite's integers), or
    ExportError naming the damaged value."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= low:
        return value
    shown = repr(value)
    shown = shown if len(shown) <= 40 else shown[:40] + "…"
    raise ExportError(f"its collection holds a damaged value: {what} is {shown}, not a "
                      f"whole number{' of at least 0' if low == 0 else ''} as Anki writes "
                      f"it ({_AGAIN})")


# Each card's first graded review (type 0-3: learning, review, relearning, filtered; 4
# is a manual reschedule, with no grade), and its lapses. One grouped pass over the
# reviews (SQLite takes a bare column from the row min() picks), then each card and its
# note by row id, in that order (CROSS JOIN keeps it: a planted sqlite_stat1 cannot turn
# it into a loop over every card for each review): n log n, whatever the indexes.
_FIRST_GRADES = (
    "SELECT n.guid, c.lapses, first.ease FROM (SELECT cid, ease, min(id) FROM revlog "
    "WHERE ease IN (1, 2, 3, 4) AND type IN (0, 1, 2, 3) GROUP BY cid) first "
    "CROSS JOIN cards c ON c.id = first.cid CROSS JOIN notes n ON n.id = c.nid "
    "WHERE n.guid LIKE 'nca-%'")


def _reviews(conn: sqlite3.Connection, guids: frozenset[str]) -> LearnerReviews:
    _check_schema(conn)
    created = conn.execute("SELECT crt FROM col").fetchone()
    if created is None:
        raise ExportError(f"its collection has no settings row (col) ({_AGAIN})")
    first = conn.execute("SELECT min(id) FROM revlog").fetchone()[0]
    found: dict[str, tuple[int, int]] = {}
    for guid, lapses, grade in conn.execute(_FIRST_GRADES):
        if isinstance(guid, str) and guid in guids:
            found[guid] = (int(grade), _whole(lapses, "a card's lapses", 0))
    return LearnerReviews(found, (_whole(created[0], "its creation time (col.crt)"),
                                  0 if first is None else
                                  _whole(first, "its first review's id")))


def limit_sqlite_heap() -> None:
    """Hold SQLite's heap in this process to HEAP_LIMIT (a schema of millions of tables
    is parsed whole before any query): for a process that reads exports (the stats
    command), as SQLite never lets the limit rise again."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"PRAGMA hard_heap_limit = {HEAP_LIMIT}")
    finally:
        conn.close()


def read_export(path: Path, guids: frozenset[str]) -> LearnerReviews:
    """The reviews of the questions ``guids`` in the export at ``path`` (raises
    ExportError, or OSError if the file cannot be read). The collection is inflated into
    a temporary file, removed at the end."""
    with tempfile.TemporaryDirectory(prefix="nca-anki-stats-") as folder:
        db = Path(folder) / "collection.db"
        size = _inflate(path, db)
        _sqlite_file(db)
        try:
            with _bounded(db, size) as conn:
                return _reviews(conn, guids)
        except (sqlite3.Error, MemoryError) as exc:
            why = "more memory than SQLite is given" if isinstance(exc, MemoryError) \
                else exc
            raise ExportError(f"its collection cannot be read ({why})") from None


@dataclass(frozen=True, kw_only=True)
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


@dataclass(frozen=True, kw_only=True)
class Stats:
    learners: int  # exports counted
    same: int  # exports left out as a second copy of one collection
    items: tuple[ItemStats, ...]  # shown, flagged first (largest excess first), then by z
    hidden: int  # questions reviewed by fewer learners than the threshold
    unknown: int  # reviewed notes of ours the lock does not know (another project's?)
    min_learners: int
    without_reviews: int = 0  # exports with no review of the lock's questions: no learner
    alone: int = 0  # questions shown that are the only one of their topic: not compared

    @property
    def judged(self) -> int:
        """How many questions were compared with others of their topic: none means the
        report says nothing of the decks, and must not read as an all-clear."""
        return len(self.items) - self.alone


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
    empty = sum(not export.questions for export in counted)
    counted = [export for export in counted if export.questions]
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
        items.append(
            ItemStats(
                guid=guid,
                topic=entry.topic,
                file=entry.file or "",
                excerpt=entry.prompt,
                learners=learners[guid],
                failed_first=failed[guid],
                lapses=lapses[guid] / learners[guid],
                topic_rate=mean,
                z=(rate - mean) / spread if spread else 0.0,
                flagged=wilson_low(failed[guid], learners[guid]) >= mean + MARGIN,
            )
        )
    items.sort(key=lambda i: (not i.flagged, -(i.low - i.topic_rate) if i.flagged else -i.z,
                              -i.rate, i.guid))
    return Stats(
        learners=len(counted),
        same=len(exports) - len(counted) - empty,
        items=tuple(items),
        hidden=len(learners) - len(shown),
        unknown=len(unknown),
        min_learners=min_learners,
        without_reviews=empty,
        alone=sum(len(by_topic[lock[guid].topic]) == 1 for guid in shown),
    )
