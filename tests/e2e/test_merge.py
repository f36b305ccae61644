"""Two authors on two branches, merged with real git: the lock and the sources never
conflict, the merged build keeps every identity, and learners of either branch who import
the merged decks get no duplicates (a real Anki collection)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from nca_anki.files import is_bundle

from anki_client import import_package, open_collection
from conftest import REPO
from nca_anki.cli import main
from nca_anki.identity.lockfile import load_lock
from conftest import copy_project, edit

pytestmark = pytest.mark.anki  # every test here imports into a real collection

AI = "nca-ai-deep-learning-frameworks-4.txt"
TRAINING = "deep-learning-training-techniques-and-optimization-2.txt"
NEURAL = "neural-network-applications-and-frameworks-2.txt"
GIT_ENV = {"GIT_AUTHOR_NAME": "Author", "GIT_AUTHOR_EMAIL": "a@example.org",
           "GIT_COMMITTER_NAME": "Author", "GIT_COMMITTER_EMAIL": "a@example.org",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          check=check, env={**os.environ, **GIT_ENV})


def build(repo: Path) -> None:
    before = Path.cwd()
    os.chdir(repo)
    try:
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(err := io.StringIO()):
            status = main([])
    finally:
        os.chdir(before)
    assert status == 0, err.getvalue()


def add_question(path: Path, prompt: str, answer: str) -> None:
    """Append a question before the file's footer (its last two lines)."""
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    number = len(re.findall(r"^Question \d+:", "\n".join(lines), re.MULTILINE)) + 1
    new = [f"Question {number}: {prompt}", f"- {answer} (Correct answer)", "- Something else",
           "- Neither", f"Correct answer: {answer}", "Added on a branch."]
    path.write_text("\n".join(lines[:-2] + new + lines[-2:]) + "\n", encoding="utf-8")


def guids(repo: Path) -> set[str]:
    lock, problems = load_lock((repo / "source" / "nca-anki.lock").read_text(encoding="utf-8"),
                               "lock")
    return {e.guid for e in lock.entries if e.removed is None}


def decks_at(repo: Path, ref: str, into: Path) -> list[Path]:
    into.mkdir(parents=True)
    paths = []
    for name in git(repo, "ls-tree", "--name-only", f"{ref}:dist").stdout.split():
        if not name.endswith(".apkg") or is_bundle(name):  # the per-topic decks
            continue
        data = subprocess.run(["git", "show", f"{ref}:dist/{name}"], cwd=repo, check=True,
                              capture_output=True).stdout
        (into / name).write_bytes(data)
        paths.append(into / name)
    return paths


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    copy_project(root)
    shutil.copy(REPO / ".gitattributes", root / ".gitattributes")
    shutil.copy(REPO / ".gitignore", root / ".gitignore")
    build(root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "base")
    return root


def test_parallel_branches_merge_without_conflict_and_keep_every_identity(repo, tmp_path):
    base = guids(repo)
    git(repo, "checkout", "-q", "-b", "a")
    add_question(repo / "source" / AI, "Which interconnect links GPUs inside a DGX node?",
                 "NVLink")
    edit(repo / "source" / TRAINING, "What is mixed precision training?",
         "What is mixed-precision training?")
    build(repo)
    git(repo, "commit", "-q", "-am", "a: one new question, one edit")
    on_a = guids(repo)

    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "b")
    add_question(repo / "source" / NEURAL, "Which NVIDIA SDK serves models in production?",
                 "Triton Inference Server")
    edit(repo / "source" / TRAINING, "What is cosine annealing", "What is cosine-annealing")
    build(repo)
    git(repo, "commit", "-q", "-am", "b: one new question, another edit")
    on_b = guids(repo)

    tips = {name: git(repo, "rev-parse", name).stdout.strip() for name in ("a", "b")}
    git(repo, "checkout", "-q", "a")
    merge = git(repo, "merge", "-q", "--no-edit", "b", check=False)
    conflicted = set(git(repo, "diff", "--name-only", "--diff-filter=U").stdout.split())
    # Only the built output may conflict; the README's way out: take either, rebuild.
    assert all(name.startswith("dist/") for name in conflicted), merge
    assert "source/nca-anki.lock" not in conflicted
    assert "<<<<<<<" not in (repo / "source" / "nca-anki.lock").read_text(encoding="utf-8")
    git(repo, "checkout", "--ours", "--", "dist")
    build(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit")

    merged = guids(repo)
    assert merged == on_a | on_b and len(merged) == len(base) + 2
    assert base <= merged  # both edited questions kept their identities
    # The manifest and changelog are a's ("ours"). The rebuild finds b's edit against a's
    # deck of that topic; b's new question came in b's deck (merged without conflict),
    # which a's record was not written for: it is listed from the deck's own times.
    newest = (repo / "dist" / "CHANGELOG.md").read_text(encoding="utf-8").split("\n## ")[1]
    for news in ("Added: Which interconnect links GPUs inside a DGX node?",
                 "Added or changed: Which NVIDIA SDK serves models in production?",
                 "Changed: What is mixed-precision training?",
                 "Changed: What is cosine-annealing"):
        assert news in newest, newest

    for branch_ref, tip in tips.items():
        col = open_collection(tmp_path / branch_ref / "collection.anki2")
        try:
            for deck in decks_at(repo, tip, tmp_path / branch_ref / "decks"):
                import_package(col, deck)
            before = col.note_count()
            for deck in decks_at(repo, "HEAD", tmp_path / branch_ref / "merged"):
                assert import_package(col, deck).conflicting == 0
            assert col.note_count() == before + 1 == len(merged)  # the other branch's one
        finally:
            col.close()
