"""The sink: every output's status is decided in one place (nca_anki/publishing/sink.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nca_anki.publishing.output import WriteError
from nca_anki.publishing.sink import ComparingSink, Sink
from nca_anki.publishing.transaction import commit
from nca_anki.report import FileStatus


def test_a_writing_sink_stages_new_and_changed_files_and_leaves_equal_ones(tmp_path: Path):
    path = tmp_path / "deck.apkg"
    folders = {"source": tmp_path / "source", "out": tmp_path}
    sink = Sink()
    assert sink.put(path, b"one") is FileStatus.WRITTEN
    assert not path.exists() and sink.current(path).read_bytes() == b"one"  # staged
    assert commit(folders) == 1
    assert path.read_bytes() == b"one" and sink.current(path) == path
    os.utime(path, (1_000_000_000, 1_000_000_000))
    assert sink.put(path, b"one") is FileStatus.UNCHANGED
    assert commit(folders) == 0
    assert path.stat().st_mtime == 1_000_000_000  # not rewritten
    assert sink.put(path, b"two") is FileStatus.WRITTEN
    assert path.read_bytes() == b"one"  # published only by the commit
    commit(folders)
    assert path.read_bytes() == b"two"
    assert sorted(tmp_path.iterdir()) == [path]


def test_a_comparing_sink_writes_nothing_and_says_what_would_change(tmp_path: Path):
    path = tmp_path / "README.md"
    sink = ComparingSink()
    assert sink.put(path, b"index") is FileStatus.WOULD_WRITE
    assert not path.exists()
    path.write_bytes(b"index")
    assert sink.put(path, b"index") is FileStatus.UNCHANGED
    assert sink.put(path, b"other") is FileStatus.WOULD_WRITE
    assert path.read_bytes() == b"index"
    assert list(tmp_path.iterdir()) == [path]


def test_a_file_that_cannot_be_written_is_an_error_naming_it(tmp_path: Path):
    (tmp_path / "deck.apkg").mkdir()  # a folder where the file belongs
    with pytest.raises(WriteError) as raised:
        Sink().put(tmp_path / "deck.apkg", b"data")
    assert raised.value.path == tmp_path / "deck.apkg"
    assert FileStatus.WOULD_WRITE == "would write"  # as the report prints it
