"""Tests for nca_anki.publishing.output: atomic writes and the inside() path check."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from nca_anki.publishing.output import (WriteError, inside, remove_stale_temporaries, write_atomic,
                                        write_cache, write_new)

SUFFIX = ("; check that the folder is writable (the previous file, if any, is unchanged)")


def test_writes_new_file_and_creates_folders(tmp_path: Path) -> None:
    target = tmp_path / "dist" / "decks" / "deep-learning.apkg"
    assert write_atomic(target, b"PK\x03\x04 data") is True
    assert target.read_bytes() == b"PK\x03\x04 data"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert sorted(p.name for p in target.parent.iterdir()) == ["deep-learning.apkg"]


def test_replaces_different_content(tmp_path: Path) -> None:
    target = tmp_path / "deck.apkg"
    target.write_bytes(b"old")
    assert write_atomic(target, b"new content") is True
    assert target.read_bytes() == b"new content"
    assert [p.name for p in tmp_path.iterdir()] == ["deck.apkg"]


def test_identical_content_is_not_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "deck.apkg"
    assert write_atomic(target, b"same") is True
    os.utime(target, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    inode = target.stat().st_ino
    assert write_atomic(target, b"same") is False
    assert target.stat().st_mtime_ns == 1_000_000_000_000_000_000
    assert target.stat().st_ino == inode
    assert target.read_bytes() == b"same"


def test_empty_content(tmp_path: Path) -> None:
    target = tmp_path / "empty"
    assert write_atomic(target, b"") is True
    assert write_atomic(target, b"") is False
    assert target.read_bytes() == b""


def test_no_temp_files_left_after_many_writes(tmp_path: Path) -> None:
    for n in range(5):
        write_atomic(tmp_path / f"deck-{n % 2}.apkg", bytes([n]) * 100)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck-0.apkg", "deck-1.apkg"]
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*"))


def test_parent_is_a_file_raises_write_error(tmp_path: Path) -> None:
    blocker = tmp_path / "dist"
    blocker.write_bytes(b"not a folder")
    target = blocker / "deck.apkg"
    with pytest.raises(WriteError) as caught:
        write_atomic(target, b"data")
    assert caught.value.path == target
    assert caught.value.reason == "cannot write: File exists" + SUFFIX
    assert str(caught.value) == f"{target}: cannot write: File exists{SUFFIX}"
    assert blocker.read_bytes() == b"not a folder"
    assert [p.name for p in tmp_path.iterdir()] == ["dist"]


def test_grandparent_is_a_file_raises_write_error(tmp_path: Path) -> None:
    blocker = tmp_path / "dist"
    blocker.write_bytes(b"x")
    target = blocker / "sub" / "deck.apkg"
    with pytest.raises(WriteError) as caught:
        write_atomic(target, b"data")
    assert (caught.value.path, caught.value.reason) == (
        target, "cannot write: Not a directory" + SUFFIX)
    assert [p.name for p in tmp_path.iterdir()] == ["dist"]


def test_failed_replace_removes_its_temp_file(tmp_path: Path) -> None:
    # The target is a non-empty folder: the temp file is written, the rename fails.
    target = tmp_path / "deck.apkg"
    target.mkdir()
    (target / "keep").write_bytes(b"k")
    with pytest.raises(WriteError) as caught:
        write_atomic(target, b"data")
    assert caught.value.path == target
    assert caught.value.reason.startswith("cannot write: ")
    assert caught.value.reason.endswith(SUFFIX)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.apkg"]
    assert [p.name for p in target.iterdir()] == ["keep"]


def test_outputs_reach_the_disk_before_they_replace_a_file_and_caches_do_not_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    assert write_atomic(tmp_path / "deck.apkg", b"deck")
    assert len(synced) == 1
    assert write_cache(tmp_path / "entry.json", b"{}")
    assert len(synced) == 1 and (tmp_path / "entry.json").read_bytes() == b"{}"
    assert not write_cache(tmp_path / "entry.json", b"{}")  # the same bytes: not rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.apkg", "entry.json"]


def test_write_error_is_an_exception_with_path_and_reason() -> None:
    exc = WriteError(Path("a/b.apkg"), "because")
    assert isinstance(exc, Exception)
    assert (exc.path, exc.reason, str(exc)) == (Path("a/b.apkg"), "because", "a/b.apkg: because")


def test_inside(tmp_path: Path) -> None:
    folder = tmp_path / "dist"
    folder.mkdir()
    assert inside(folder, folder / "deck.apkg")
    assert inside(folder, folder / "sub" / ".." / "deck.apkg")
    assert not inside(folder, folder / ".." / "x")
    assert not inside(folder, folder / "../x")
    assert not inside(folder, folder / ".." / "dist-evil" / "x")
    assert not inside(folder, Path("/etc/passwd"))


def test_inside_follows_symlinks(tmp_path: Path) -> None:
    folder = tmp_path / "dist"
    folder.mkdir()
    (folder / "escape").symlink_to(tmp_path)
    assert not inside(folder, folder / "escape" / "x")


def test_stale_temporaries_of_a_killed_build_are_removed(tmp_path: Path) -> None:
    old, young, other, foreign = (tmp_path / ".deck.apkg.a1b2c3d4.tmp",
                                  tmp_path / ".deck.apkg.zz99yy88.tmp",
                                  tmp_path / ".nca-anki.lock.k3j4h5g6.tmp",
                                  tmp_path / ".deck.apkg.notours.tmp.bak")
    for path in (old, young, other, foreign):
        path.write_bytes(b"half")
    now = time.time()
    os.utime(old, (now - 3600, now - 3600))
    os.utime(other, (now - 3600, now - 3600))
    removed = remove_stale_temporaries(tmp_path, ".apkg", now)
    assert removed == [old]
    # a young one may belong to a build running right now; other targets are not touched
    assert young.exists() and other.exists() and foreign.exists()
    assert remove_stale_temporaries(tmp_path, "nca-anki.lock", now) == [other]


def test_the_next_build_sweeps_what_a_killed_build_left(project, cli) -> None:
    assert cli().status == 0
    leftovers = [project / "dist" / ".ai-deep-learning-frameworks.apkg.q1w2e3r4.tmp",
                 project / "source" / ".nca-anki.lock.t5y6u7i8.tmp"]
    for path in leftovers:
        path.write_bytes(b"half-written")
        os.utime(path, (time.time() - 120, time.time() - 120))
    assert cli().status == 0
    assert not any(path.exists() for path in leftovers)


def test_a_full_disk_says_to_free_space(tmp_path: Path, monkeypatch) -> None:
    import errno
    import tempfile

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(tempfile, "mkstemp", full)
    with pytest.raises(WriteError) as raised:
        write_atomic(tmp_path / "deck.apkg", b"data")
    assert raised.value.reason == ("cannot write: No space left on device; free space on that "
                                   "disk and build again (the previous file, if any, is "
                                   "unchanged)")


def test_a_link_at_the_target_is_replaced_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.write_bytes(b"same")
    folder = tmp_path / "dist"
    folder.mkdir()
    for name, data in (("deck.apkg", b"new"), ("same.apkg", b"same")):
        (folder / name).symlink_to(outside)
        assert write_atomic(folder / name, data) is True
        assert not (folder / name).is_symlink() and (folder / name).read_bytes() == data
    assert outside.read_bytes() == b"same"


@pytest.mark.parametrize("there", ["a file", "a link to a file", "a link to nothing",
                                   "a folder"])
def test_a_new_file_is_never_written_over_or_through_what_is_there(tmp_path: Path,
                                                                   there: str) -> None:
    outside = tmp_path / "outside"
    outside.write_bytes(b"not ours")
    target = tmp_path / "out" / "form.yml"
    target.parent.mkdir()
    if there == "a file":
        target.write_bytes(b"theirs")
    elif there == "a folder":
        target.mkdir()
    else:
        target.symlink_to(outside if there == "a link to a file" else tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        write_new(target, b"ours")
    assert outside.read_bytes() == b"not ours" and not (tmp_path / "nowhere").exists()
    assert [p.name for p in target.parent.iterdir()] == ["form.yml"]  # no temporary left
    if there == "a file":
        assert target.read_bytes() == b"theirs"


def test_a_new_file_is_whole_with_its_mode_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "render.key"
    write_new(target, b"k" * 32, mode=0o600)
    assert target.read_bytes() == b"k" * 32
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in target.parent.iterdir()] == ["render.key"]
