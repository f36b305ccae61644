"""The promise to authors, checked on generated edits: a build either gives correct decks, or
fails (exit 1, each error at ``path:line``) and leaves the failing topic's last good deck,
lock entries and identities exactly as they were. Checked in a real Anki collection.

Hypothesis generates one to three edits of the kinds authors make (mistyped headers, a
stale footer, an emptied part, reworded choices, a disagreeing answer line, a new first
question) against the built seed bank. ``derandomize`` keeps the run the same every time.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from anki_client import import_package, note_type_names, open_collection
from nca_anki.cli import main
from nca_anki.identity.lockfile import load_lock
from conftest import copy_project

pytestmark = pytest.mark.anki  # every test here imports into a real collection

FILES = ("nca-ai-deep-learning-frameworks-4.txt",
         "deep-learning-training-techniques-and-optimization-2.txt",
         "neural-network-applications-and-frameworks-2.txt")
DECK_OF = {FILES[0]: "ai-deep-learning-frameworks.apkg",
           FILES[1]: "deep-learning-training-techniques-and-optimization.apkg",
           FILES[2]: "neural-network-applications-and-frameworks.apkg"}
TOPIC_OF = {FILES[0]: "AI & Deep Learning Frameworks",
            FILES[1]: "Deep Learning Training Techniques and Optimization",
            FILES[2]: "Neural Network Applications and Frameworks"}
HEADER_TYPOS = ("QUESTION {n}:", "Question{n}:", "Question #{n}:", "question {n}:",
                "Q{n}:", "Question {n})", "Question {n}", "\u200bQuestion {n}:",
                "\ufeffQuestion {n}:")
NEW_QUESTION = ("Question 1: Which NVIDIA library provides multi-GPU collectives?\n"
                "- cuDNN\n- NCCL (Correct answer)\n- DALI\n- TensorRT\n"
                "Correct answer: NCCL\nNCCL implements all-reduce and friends.")


@contextlib.contextmanager
def working_in(folder: Path):
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run(folder: Path) -> tuple[int, str]:
    with working_in(folder), contextlib.redirect_stderr(io := _Buffer()), \
            contextlib.redirect_stdout(_Buffer()):
        status = main([])
    return status, io.text


class _Buffer:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def apply(text: str, edit: tuple[str, int]) -> str:
    """One author's edit of a question file's text; ``n`` picks the question."""
    kind, n = edit
    count = len(re.findall(r"^Question \d+:", text, re.MULTILINE))
    if kind == "empty":
        return "" if n % 2 else "\n \n"
    if count == 0:
        return text  # an emptied or headerless file: nothing left to edit
    k = n % count + 1
    if kind == "header":
        typo = HEADER_TYPOS[n % len(HEADER_TYPOS)].format(n=k)
        return re.sub(rf"^Question {k}:", typo, text, count=1, flags=re.MULTILINE)
    if kind == "footer":  # a new first question, the footer left as it was
        lines = text.split("\n")
        renumbered = [re.sub(r"^Question (\d+):", lambda m: f"Question {int(m[1]) + 1}:", line)
                      for line in lines]
        return "\n".join([renumbered[0], NEW_QUESTION, *renumbered[1:]])
    if kind == "reword":  # every choice of one question gains a word
        block = re.search(rf"^Question {k}:.*?(?=^Question \d+:|\Z)", text,
                          re.MULTILINE | re.DOTALL)
        reworded = re.sub(r"^- (.*?)( \(Correct answer\))?$",
                          lambda m: f"- Arguably {m[1][0].lower()}{m[1][1:]}{m[2] or ''}",
                          block[0], flags=re.MULTILINE)
        reworded = re.sub(r"^Correct answer: (.*)$",
                          lambda m: f"Correct answer: Arguably {m[1][0].lower()}{m[1][1:]}",
                          reworded, flags=re.MULTILINE)
        return text[:block.start()] + reworded + text[block.end():]
    if kind == "answer":  # the answer line disagrees with the marked choice
        return re.sub(r"^Correct answer: .*$", "Correct answer: something else", text,
                      count=1, flags=re.MULTILINE)
    raise AssertionError(kind)


@pytest.fixture(scope="module")
def built_bank(tmp_path_factory) -> Path:
    """The seed bank with its decks and lock built, as an author's clone has it."""
    root = tmp_path_factory.mktemp("bank") / "project"
    copy_project(root)
    status, err = run(root)
    assert status == 0, err
    return root


edits = st.lists(st.tuples(st.sampled_from(FILES),
                           st.tuples(st.sampled_from(["header", "empty", "footer", "reword",
                                                      "answer"]), st.integers(0, 50))),
                 min_size=1, max_size=3)


def lock_entries(folder: Path, topic: str) -> list:
    lock, _ = load_lock((folder / "source" / "nca-anki.lock").read_text(encoding="utf-8"), "")
    return [e for e in lock.entries if e.topic == topic]


def notes(col) -> dict[str, str]:
    return dict(col.db.all("select guid, flds from notes"))


@settings(derandomize=True, max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(edits)
def test_a_build_gives_correct_decks_or_freezes_the_topic_exactly(built_bank, changes):
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "project"
        shutil.copytree(built_bank, root)
        before = {name: (root / "dist" / name).read_bytes() for name in DECK_OF.values()}
        locked = {name: lock_entries(root, TOPIC_OF[name]) for name in FILES}
        for name, edit in changes:
            path = root / "source" / name
            path.write_text(apply(path.read_text(encoding="utf-8"), edit), encoding="utf-8")

        status, err = run(root)

        assert status in (0, 1), err
        assert "Traceback" not in err
        errors = [line for line in err.splitlines() if ": error[" in line]
        assert (status == 1) == bool(errors), err
        for line in errors:
            assert re.match(r"^source/[^:]+\.txt:[1-9]\d*: error\[E\d{3}\]: ", line), line
        failed = {name for name in FILES if any(line.startswith(f"source/{name}:")
                                                for line in errors)}
        for name in failed:  # frozen whole: deck bytes, lock entries, identities
            assert (root / "dist" / DECK_OF[name]).read_bytes() == before[DECK_OF[name]]
            assert lock_entries(root, TOPIC_OF[name]) == locked[name]

        col = open_collection(root / "anki" / "collection.anki2")
        try:
            for data in before.values():
                (root / "old.apkg").write_bytes(data)
                import_package(col, root / "old.apkg")
            published = notes(col)
            added = 0
            for name in FILES:
                counts = import_package(col, root / "dist" / DECK_OF[name])
                assert counts.conflicting == 0
                added += counts.new
                if name not in failed:
                    expected_new = sum(1 for n, (kind, _) in changes
                                       if n == name and kind == "footer")
                    assert counts.new == expected_new, (name, changes, err)
            assert len(notes(col)) == len(published) + added
            assert note_type_names(col).count("NCA Multiple Choice (nca-anki)") == 1
            # Nothing that is structure reached a card.
            for fields in notes(col).values():
                for field in fields.split("\x1f"):
                    assert not re.search(r"(^|>)\s*(Question\s*#?\d+\s*[:.)]|Correct answer:)",
                                         field, re.IGNORECASE), field
                    assert "Questions and Answers" not in field
        finally:
            col.close()
