"""``stats`` on hostile and damaged exports (issue 45, items 9-12): the corpus is made
here, each file small. Whatever an export holds, reading it takes bounded time and memory
and ends in a message naming it (exit 1), never a hang, exit 3 or an all-clear."""

from __future__ import annotations

import io
import resource
import sqlite3
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from conftest import REPO
from nca_anki.feedback import stats
from nca_anki.feedback.stats import ExportError, read_export
from nca_anki.identity.lockfile import load_lock

SOURCE = REPO / "source"
SCHEMA = """
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, flds text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, lapses integer NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, ease integer NOT NULL,
                     type integer NOT NULL);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_revlog_cid ON revlog (cid);
"""


def lock_guids() -> list[str]:
    lock, _ = load_lock((SOURCE / "nca-anki.lock").read_text(encoding="utf-8"), "")
    assert lock is not None
    return sorted(e.guid for e in lock.entries if e.removed is None)


def collection(tmp: Path, *, schema: str = SCHEMA, after: str = "", crt: object = 1,
               lapses: object = 0, grades: Callable[[int], object] = lambda n: 3,
               questions: int = 20) -> bytes:
    """A collection as Anki writes one (the columns read, and a few more): ``questions``
    of the lock's questions, each card reviewed once; then the statements ``after``."""
    path = tmp / f"c{len(list(tmp.iterdir()))}.db"
    conn = sqlite3.connect(path)
    conn.executescript(schema)
    conn.execute("INSERT INTO col VALUES (1, ?, 0)", (crt,))
    for n, guid in enumerate(lock_guids()[:questions], start=1):
        conn.execute("INSERT INTO notes VALUES (?, ?, 'text')", (n, guid))
        conn.execute("INSERT INTO cards VALUES (?, ?, ?)", (1000 + n, n, lapses))
        conn.execute("INSERT INTO revlog VALUES (?, ?, ?, 0)", (5000 + n, 1000 + n,
                                                               grades(n)))
    conn.commit()
    conn.executescript(after)
    conn.commit()
    conn.close()
    return path.read_bytes()


def export(path: Path, data: bytes, *, zstd: bool = True,
           method: int = zipfile.ZIP_DEFLATED) -> Path:
    """``data`` as Anki's export: zstd-compressed (current Anki) or deflated (legacy)."""
    with zipfile.ZipFile(path, "w") as archive:
        if zstd:
            archive.writestr("collection.anki21b", zstandard.ZstdCompressor().compress(data),
                             zipfile.ZIP_STORED)
        else:
            archive.writestr("collection.anki21", data, method)
        archive.writestr("media", b"{}")
    return path


def zeros_zstd(size: int, head: bytes) -> bytes:
    """``head`` and then zeros up to ``size`` bytes, zstd-compressed in pieces."""
    out = io.BytesIO()
    with zstandard.ZstdCompressor().stream_writer(out, closefd=False) as writer:
        writer.write(head)
        block = bytes(1 << 20)
        for _ in range((size - len(head)) >> 20):
            writer.write(block)
    return out.getvalue()


def zeros_deflate(size: int, head: bytes) -> bytes:
    """The same as a deflate stream (raw, as in a zip)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts = [compressor.compress(head)]
    block = bytes(1 << 20)
    parts += [compressor.compress(block) for _ in range((size - len(head)) >> 20)]
    return b"".join([*parts, compressor.flush()])


def raw_member(path: Path, name: str, payload: bytes, size: int, method: int) -> Path:
    """A zip whose member ``name`` is ``payload`` as is, said to be ``size`` bytes."""
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(info, payload)
    data = bytearray(path.read_bytes())
    crc = zlib.crc32(payload if method == zipfile.ZIP_STORED else b"")  # else unchecked
    for signature, method_at, sizes_at in ((b"PK\x03\x04", 8, 18), (b"PK\x01\x02", 10, 20)):
        at = data.index(signature)
        data[at + method_at:at + method_at + 2] = method.to_bytes(2, "little")
        data[at + sizes_at - 4:at + sizes_at] = crc.to_bytes(4, "little")
        data[at + sizes_at + 4:at + sizes_at + 8] = size.to_bytes(4, "little")
    path.write_bytes(bytes(data))
    return path


def flag_encrypted(path: Path) -> Path:
    data = bytearray(path.read_bytes())
    for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.index(signature)
        data[at + flags_at] |= 1
    path.write_bytes(bytes(data))
    return path


def hostile(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Each hostile or damaged export, and the words its message must hold."""
    dbs = tmp / "dbs"
    dbs.mkdir()
    files: dict[str, tuple[Path, str]] = {}

    def add(name: str, path: Path, words: str) -> None:
        files[name] = (path, words)

    def db(name: str, words: str, **kwargs: object) -> None:
        add(name, export(tmp / f"{name}.apkg", collection(dbs, **kwargs)), words)  # type: ignore[arg-type]

    # 9: queries a file could make unbounded
    db("recursive view", "revlog is a view", after=(
        "DROP TABLE revlog; CREATE VIEW revlog AS WITH RECURSIVE r(i) AS (SELECT 1 UNION "
        "ALL SELECT i + 1 FROM r) SELECT i AS id, 1001 AS cid, 3 AS ease, 0 AS type FROM r"))
    db("cross join view", "cards is a view", after=(
        "ALTER TABLE cards RENAME TO c0; CREATE VIEW cards AS SELECT a.id AS id, a.nid AS "
        "nid, a.lapses + b.lapses + c.lapses + d.lapses + e.lapses AS lapses FROM c0 a, "
        "c0 b, c0 c, c0 d, c0 e, c0 f, c0 g"))
    db("memory view", "notes is a view", after=(
        "ALTER TABLE notes RENAME TO n0; CREATE VIEW notes AS SELECT id, "
        "guid || printf('%.*c', 900000000, 'x') AS guid FROM n0"))
    db("col a view", "col is a view",
       after="DROP TABLE col; CREATE VIEW col AS SELECT 1 AS id, 1 AS crt")
    db("virtual table", "notes is a virtual table", after=(
        "DROP TABLE notes; CREATE VIRTUAL TABLE notes USING fts4(id, guid)"))
    db("computed column", "computed column", schema=SCHEMA.replace(
        "lapses integer NOT NULL)", "lapses integer NOT NULL, big AS (lapses + 1))"))
    db("id not the row id", "id is not its row id", schema=SCHEMA.replace(
        "cards (id integer PRIMARY KEY", "cards (id text"))
    db("no revlog", "no table revlog", after="DROP TABLE revlog")
    db("no lapses column", "no column lapses", schema=SCHEMA.replace(
        "lapses integer NOT NULL)", "lapsed integer NOT NULL)"))
    # 10: what inflates past every bound
    head = collection(dbs)[:100]
    with zipfile.ZipFile(tmp / "zstd-bomb.apkg", "w") as archive:
        archive.writestr("collection.anki21b", zeros_zstd(96 << 20, head), zipfile.ZIP_STORED)
    add("zstd bomb", tmp / "zstd-bomb.apkg", "zip bomb")
    add("deflate bomb", raw_member(tmp / "deflate-bomb.apkg", "collection.anki21",
                                   zeros_deflate(96 << 20, head), 96 << 20,
                                   zipfile.ZIP_DEFLATED), "zip bomb")
    big_window = io.BytesIO()
    params = zstandard.ZstdCompressionParameters(window_log=31, enable_ldm=True)
    with zstandard.ZstdCompressor(compression_params=params).stream_writer(
            big_window, closefd=False) as writer:  # no content size: the window is its own
        writer.write(head + bytes(1 << 20))
    window_frame = big_window.getvalue()
    add("zstd window", raw_member(tmp / "zstd-window.apkg", "collection.anki21b", window_frame,
                                  len(window_frame), zipfile.ZIP_STORED), "decompressed")
    add("bzip2 member", raw_member(tmp / "bzip2.apkg", "collection.anki21",
                                   b"BZh91AY&SY" + bytes(40), 1 << 30, zipfile.ZIP_BZIP2),
        "method 12")
    nested = io.BytesIO()
    with zipfile.ZipFile(nested, "w") as inner:
        inner.writestr("collection.anki21", collection(dbs))
    add("nested zip", export(tmp / "nested.apkg", nested.getvalue(), zstd=False),
        "not an SQLite database")
    # 11: damaged values and files
    db("infinite crt", "creation time", crt=float("inf"))
    db("text crt", "creation time", crt="soon")
    db("null crt", "creation time", crt=None, schema=SCHEMA.replace("crt integer NOT NULL", "crt integer"))
    db("no col row", "no settings row", after="DELETE FROM col")
    db("text lapses", "lapses", lapses="many")
    db("negative lapses", "lapses", lapses=-3)
    db("real lapses", "lapses", lapses=1e300)
    db("null lapses", "lapses", lapses=None, schema=SCHEMA.replace(
        "lapses integer NOT NULL", "lapses integer"))
    db("revlog id not the row id", "id is not its row id", schema=SCHEMA.replace(
        "revlog (id integer PRIMARY KEY", "revlog (id"), after="UPDATE revlog SET id = 'soon'")
    add("encrypted", flag_encrypted(export(tmp / "encrypted.apkg", collection(dbs),
                                           zstd=False)), "encrypted")
    whole = export(tmp / "whole.apkg", collection(dbs), zstd=False).read_bytes()
    (tmp / "truncated-zip.apkg").write_bytes(whole[:len(whole) // 2])
    add("truncated zip", tmp / "truncated-zip.apkg", "not an Anki export")
    crc = bytearray(export(tmp / "crc.apkg", collection(dbs), zstd=False,
                           method=zipfile.ZIP_STORED).read_bytes())
    crc[200] ^= 0xFF
    (tmp / "crc.apkg").write_bytes(bytes(crc))
    add("bad crc", tmp / "crc.apkg", "readable zip")
    add("corrupt deflate", raw_member(tmp / "deflate.apkg", "collection.anki21",
                                      b"\xff" * 300, 4096, zipfile.ZIP_DEFLATED),
        "readable zip")
    data = collection(dbs, questions=19)
    add("truncated sqlite", export(tmp / "truncated-db.apkg", data[:len(data) // 2]),
        "cannot be read")
    add("not sqlite", export(tmp / "not-sqlite.apkg", b"hello" * 100), "not an SQLite")
    add("empty member", export(tmp / "empty.apkg", b""), "not an SQLite")
    (tmp / "empty-file.apkg").write_bytes(b"")
    add("empty file", tmp / "empty-file.apkg", "not an Anki export")
    garbled = bytearray(collection(dbs, questions=19))
    garbled[4096 * 3:4096 * 3 + 2000] = bytes(range(250)) * 8
    add("garbled page", export(tmp / "garbled.apkg", bytes(garbled)), "cannot be read")
    return files


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    return hostile(tmp_path_factory.mktemp("hostile"))


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


_CHILD = ("import resource, sys; from nca_anki.cli import main; status = main(sys.argv[1:]); "
          "u = resource.getrusage(resource.RUSAGE_SELF); "
          "print(f'@usage {u.ru_utime + u.ru_stime} {u.ru_maxrss}', file=sys.stderr); "
          "sys.exit(status)")


def run_stats(*args: str, timeout: float = 120) -> tuple[int, str, str, float, float]:
    """``stats`` as a child under a 1 GiB address-space limit: (status, stdout, stderr,
    its CPU seconds, its peak memory in MiB). A hang fails at ``timeout``."""
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, "stats", *args, "--source", str(SOURCE)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limited, cwd=REPO)
    try:
        out, err = child.communicate(timeout=timeout)
    finally:
        child.kill()
    text = err.decode("utf-8", "replace")
    usage = [line for line in text.splitlines() if line.startswith("@usage ")]
    assert usage, text[-3000:]
    cpu, rss = usage[-1].split()[1:]
    return child.returncode, out.decode(), text, float(cpu), int(rss) / 1024


@pytest.mark.parametrize("name", [
    "recursive view", "cross join view", "memory view", "col a view", "virtual table",
    "computed column", "id not the row id", "no revlog", "no lapses column", "zstd bomb",
    "deflate bomb", "zstd window", "bzip2 member", "nested zip", "infinite crt",
    "text crt", "null crt", "no col row", "text lapses", "negative lapses", "real lapses",
    "null lapses", "revlog id not the row id", "encrypted", "truncated zip", "bad crc",
    "corrupt deflate", "truncated sqlite", "not sqlite", "empty member", "empty file",
    "garbled page"])
def test_a_hostile_export_is_refused_with_why(corpus, name):
    path, words = corpus[name]
    assert path.stat().st_size < 10 << 20
    with pytest.raises(ExportError, match=words):
        read_export(path, frozenset(lock_guids()))


def test_every_hostile_export_is_named_in_bounded_time_and_memory(corpus, tmp_path):
    """The whole corpus in one ``stats`` run, as a child held to 1 GiB of address space:
    each export named with its error, exit 1 (never 3, never a hang), and within 10 s of
    CPU and 500 MB together. Before issue 45 a recursive view hung it, and every zstd
    export reserved 4 GiB up front (exit 3 under this limit)."""
    good = export(tmp_path / "good.apkg", collection(tmp_path))
    status, out, err, cpu, rss = run_stats(str(good), *(str(p) for p, _ in corpus.values()))
    assert status == 1, err[-3000:]
    assert "Traceback" not in err and "bug" not in err
    for path, _words in corpus.values():
        assert f"{path}: error: " in err, (path, err[-3000:])
    assert str(good) not in err
    assert cpu < 10 and rss < 500, (cpu, rss)


def test_the_reading_stops_past_its_work_budget(tmp_path, monkeypatch):
    """The last bound, for any query a file could still make costly: SQLite's steps,
    linear in the collection's size, then the reading stops with a message."""
    path = export(tmp_path / "e.apkg", collection(tmp_path, after=(
        "WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 20000) "
        "INSERT INTO revlog SELECT 100000 + i, 1001 + i % 19, 3, 1 FROM r")))
    assert read_export(path, frozenset(lock_guids())).questions
    monkeypatch.setattr(stats, "STEPS_BASE", 0)
    monkeypatch.setattr(stats, "STEPS_PER_BYTE", 0)
    with pytest.raises(ExportError, match="far more work than its size"):
        read_export(path, frozenset(lock_guids()))


@pytest.mark.parametrize("legacy", [False, True])
def test_a_collection_is_read_in_pieces_never_whole(tmp_path, monkeypatch, legacy):
    """The inflated collection goes to a temporary file, piece by piece: no read asks
    for more than a piece (a 274-byte export once reserved 4 GiB)."""
    path = export(tmp_path / "e.apkg", collection(tmp_path), zstd=not legacy)
    asked: list[int] = []
    real = stats._copy

    def copy(source, out, limit):  # type: ignore[no-untyped-def]
        class Watched:
            def read(self, n: int) -> bytes:
                asked.append(n)
                return source.read(n)
        return real(Watched(), out, limit)  # type: ignore[arg-type]

    monkeypatch.setattr(stats, "_copy", copy)
    assert len(read_export(path, frozenset(lock_guids())).questions) == 19
    assert asked and max(asked) <= 1 << 20


def _cpu_of_read(path: Path) -> float:
    import gc
    import time
    best = float("inf")
    for _ in range(2):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            read_export(path, frozenset(lock_guids()))
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def test_reading_an_export_grows_linearly_with_its_reviews(tmp_path):
    """Growth, not speed: four times the reviews (each card's first graded review found
    among many, with no index on revlog.cid) takes about four times the CPU, not 16."""
    def made(reviews: int) -> Path:
        folder = tmp_path / str(reviews)
        folder.mkdir()
        data = collection(folder, schema=SCHEMA.replace(
            "CREATE INDEX ix_revlog_cid ON revlog (cid);", ""), after=(
            f"WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < "
            f"{reviews}) INSERT INTO revlog SELECT 100000 + i, 1001 + i % 19, 1 + i % 4, "
            "1 FROM r"))
        return export(folder / "e.apkg", data)

    short, long = _cpu_of_read(made(50_000)), _cpu_of_read(made(200_000))
    assert long < 8 * short, (short, long)


def _learners(tmp_path: Path, count: int, **kwargs: object) -> list[str]:
    """Exports "for older Anki versions" (deflate, no zstd), of ``count`` learners."""
    return [str(export(tmp_path / f"learner-{n}.apkg", collection(
        tmp_path, crt=n + 1, **kwargs), zstd=False))  # type: ignore[arg-type]
        for n in range(count)]


def test_too_few_learners_is_no_all_clear(tmp_path):
    """Three learners, five needed: nothing is judged, and it says so (exit 1)."""
    status, out, err, _, _ = run_stats(*_learners(tmp_path, 3))
    assert status == 1, err
    assert "No question stands out" not in out
    assert "Nothing could be judged" in out and "3 learner(s)" in out
    assert "--min-learners" in out
    status, out, err, _, _ = run_stats(*_learners(tmp_path, 3), "--min-learners", "3")
    assert status == 0 and "No question stands out" in out, out + err


def test_exports_without_reviews_count_for_nothing(tmp_path):
    """The published deck itself (notes and cards, no review) sent five times: no
    learner, each named, nothing judged (exit 1)."""
    deck = next(p for p in sorted((REPO / "dist").glob("*.apkg")) if "all_topics" not in p.name)
    status, out, err, _, _ = run_stats(*[str(deck)] * 5)
    assert status == 1, err
    assert f"{deck}: warning: no review of this project's questions" in err
    assert "Nothing could be judged" in out and "0 learner(s)" in out
    status, out, err, _, _ = run_stats(*_learners(tmp_path, 5, grades=lambda n: 0))
    assert status == 1 and "Nothing could be judged" in out, out + err


def test_questions_alone_in_their_topic_are_not_judged(tmp_path):
    """A question is judged against the others of its topic: five learners who each
    reviewed one question only give nothing to compare (exit 1, said)."""
    status, out, err, _, _ = run_stats(*_learners(tmp_path, 5, questions=1))
    assert status == 1, out + err
    assert "Nothing could be judged" in out and "the only one of their topic" in out
