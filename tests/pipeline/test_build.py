"""The pipeline as a library: which topics build, what is kept, what the lock records."""

from __future__ import annotations

import dataclasses

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from conftest import REPO
from conftest import options as library_options
from nca_anki.build import BuildOptions, build
from nca_anki.files import is_bundle
from nca_anki.identity.lockfile import load_lock
from nca_anki.publishing.sink import ComparingSink
from nca_anki.records import prompt_id
from nca_anki.reading.published import read_deck

AI = "nca-ai-deep-learning-frameworks-4.txt"
AI_DECK = "ai-deep-learning-frameworks.apkg"


def options(root: Path, **kwargs) -> BuildOptions:
    """Options as the CLI passes them, relative to the project folder (the current one)."""
    assert Path.cwd() == root
    return library_options(**kwargs)


def lock_entries(root: Path) -> list[dict]:
    lock, _ = load_lock((root / "source" / "nca-anki.lock").read_text(encoding="utf-8"), "")
    return [dataclasses.asdict(e) for e in lock.entries]


def test_unreadable_title_keeps_the_topic_its_questions_belong_to(project):
    assert build(options(project)).ok
    deck = (project / "dist" / AI_DECK).read_bytes()
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    source = project / "source" / AI
    lines = source.read_text(encoding="utf-8").split("\n")
    source.write_text("\n".join(lines[1:]), encoding="utf-8")  # the title line is gone

    report = build(options(project))
    assert not report.ok
    assert [str(d) for d in report.diagnostics if d.is_error] == [
        f"source/{AI}:1: error[E111]: missing title line; expected '<title> — Questions and Answers'"
        " before the first question"]
    status = {t.deck_name: t.status for t in report.topics}
    assert status["NCA::AI & Deep Learning Frameworks"] == "failed"
    assert (project / "dist" / AI_DECK).read_bytes() == deck
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock
    assert not report.removed


def test_one_unwritable_deck_publishes_nothing_and_says_so(project):
    # Publishing is one transaction (transaction.py): a deck that cannot be written
    # leaves the others, the index and the lock as they were, not a half-new set.
    lock = project / "source" / "nca-anki.lock"
    before = lock.read_bytes() if lock.exists() else None
    (project / "dist" / AI_DECK).mkdir(parents=True)  # a folder where the file should go
    report = build(options(project))
    errors = [str(d) for d in report.diagnostics if d.is_error]
    assert errors == [
        "dist: error[E501]: nothing of this build was published: the decks, the index and the "
        "lock are as they were; mend the cause the other error names and build again",
        f"dist/{AI_DECK}: error[E501]: cannot write: something other than a file is in its place "
        "(a folder or a link); move it away and build again"]
    assert {t.status for t in report.topics} == {"failed"}
    assert sorted(p.name for p in (project / "dist").iterdir()) == [AI_DECK]
    assert (lock.read_bytes() if lock.exists() else None) == before
    assert not [p for p in (project / "source").iterdir() if p.name.startswith(".")]

    (project / "dist" / AI_DECK).rmdir()  # mended: the next build publishes everything
    assert build(options(project)).ok


def test_removed_question_is_reported_kept_in_the_lock_and_revived(project):
    assert build(options(project, now=1_900_000_000)).ok
    source = project / "source" / AI
    original = source.read_text(encoding="utf-8")
    start = original.index("Question 3:")
    end = original.index("Question 4:")
    removed_prompt = original[start:end].split("\n")[0].split(": ", 1)[1]
    guid = next(e["guid"] for e in lock_entries(project)
                if e["prompt_id"] == prompt_id(removed_prompt))
    source.write_text(original[:start] + original[end:], encoding="utf-8")

    report = build(options(project, now=1_900_000_100))
    assert report.ok
    assert [e.guid for e in report.removed] == [guid]
    warnings = [str(d) for d in report.diagnostics if "removed from the source" in str(d)]
    assert warnings == ["source/nca-anki.lock: warning[W304]: question removed from the "
                        "source: 'In ONNX (Open Neural Network Exchange), what is the primary…' "
                        "(topic 'AI & Deep Learning Frameworks'); its deck keeps it as withdrawn "
                        "(tag nca::retired): learners who have it see a notice on its card "
                        "after re-importing, new learners get no card"]
    entry = next(e for e in lock_entries(project) if e["guid"] == guid)
    assert entry["removed"] == 1_900_000_100

    source.write_text(original, encoding="utf-8")
    report = build(options(project, now=1_900_000_200))
    assert report.ok and not report.removed
    entry = next(e for e in lock_entries(project) if e["guid"] == guid)
    assert entry["removed"] is None
    ai = next(t for t in report.topics if t.output.endswith(AI_DECK))
    # Back with a newer mod than its retired note, so learners' copies lose the notice.
    assert (ai.new, ai.changed, ai.unchanged) == (0, 1, 6)


def test_edits_within_one_second_get_rising_mods_never_ahead_of_the_clock(project, cli):
    """The command, on the real clock, returns only once its newest time is past."""
    assert cli().status == 0
    source = project / "source" / AI
    mods = []
    for word in ("limits", "bounds", "restricts"):
        text = re.sub(r"Gradient clipping \w+", f"Gradient clipping {word}",
                      source.read_text(encoding="utf-8"), count=1)
        source.write_text(text, encoding="utf-8")
        assert cli().status == 0
        mods.append(next(e["mod"] for e in lock_entries(project)
                         if e["prompt"].startswith("What problem does gradient clip")))
        assert mods[-1] <= time.time()
    assert mods == sorted(set(mods))


def test_no_questions_is_an_error(project):
    for path in (project / "source").glob("*.txt"):
        path.unlink()
    report = build(options(project))
    assert [str(d) for d in report.diagnostics] == [
        "source: error[E103]: no question files (*.txt) found; add some or pass --source DIR"]


def test_a_deck_no_topic_builds_any_more_is_pointed_out(project):
    (project / "dist").mkdir()
    (project / "dist" / "old-topic-name.apkg").write_bytes(b"PK")
    report = build(options(project))
    assert report.ok
    assert [str(d) for d in report.diagnostics if "dist/" in d.path] == [
        "dist/old-topic-name.apkg: warning[W503]: no topic builds this deck any more; delete it if "
        "its topic was renamed or removed"]
    assert (project / "dist" / "old-topic-name.apkg").read_bytes() == b"PK"


# --- a topic with any broken file is frozen whole ------------------------------------------

PART_5 = """NCA AI & Deep Learning Frameworks 5 — Questions and Answers
Question 1: What does NCCL provide for multi-GPU training?
- A model file format
- Collective communication such as all-reduce (Correct answer)
- A data-loading library
Correct answer: Collective communication such as all-reduce
NCCL implements collectives like all-reduce over NVLink and InfiniBand.
"""


def frozen_state(root: Path, deck: str) -> tuple[bytes, int, list[dict]]:
    path = root / "dist" / deck
    entries = [e for e in lock_entries(root) if e["topic"] == "AI & Deep Learning Frameworks"]
    return path.read_bytes(), path.stat().st_mtime_ns, entries


def break_file(root: Path, how: str, monkeypatch) -> str:
    """Break the AI topic's part 4 file the way an author or a disk would."""
    path = root / "source" / AI
    if how == "empty":
        path.write_bytes(b"")
    elif how == "blank":
        path.write_text("\n\n   \n", encoding="utf-8")
    elif how == "title":
        text = path.read_text(encoding="utf-8")
        path.write_text(text[text.index("\n") + 1:], encoding="utf-8")  # the title is gone
    elif how == "unreadable":  # as a file the build may not read (tests may run as root)
        import nca_anki.files
        import nca_anki.inputs
        real = nca_anki.files.read_regular

        def read_regular(path: Path, limit: int | None = None) -> bytes:
            if Path(path).name == AI:
                raise PermissionError(13, "Permission denied")
            return real(path, limit)

        monkeypatch.setattr(nca_anki.files, "read_regular", read_regular)
        monkeypatch.setattr(nca_anki.inputs, "read_regular", read_regular)
    elif how == "question":
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("- Volta (Correct answer)", "- Volta"), encoding="utf-8")
    return f"source/{AI}"


@pytest.mark.parametrize("parts", [1, 2])
@pytest.mark.parametrize("how", ["empty", "blank", "title", "unreadable", "question"])
def test_a_topic_with_a_broken_part_keeps_its_deck_and_lock_exactly(project, monkeypatch,
                                                                    parts, how):
    if parts == 2:
        (project / "source" / "nca-ai-deep-learning-frameworks-5.txt").write_text(
            PART_5, encoding="utf-8")
    assert build(options(project)).ok
    before = frozen_state(project, AI_DECK)
    assert len(before[2]) == 7 + (parts == 2)
    time.sleep(0.01)

    broken = break_file(project, how, monkeypatch)
    report = build(options(project))

    assert not report.ok
    assert {d.path for d in report.diagnostics if d.is_error} == {broken}
    assert frozen_state(project, AI_DECK) == before  # bytes, file time, lock entries
    assert not report.removed
    assert not [d for d in report.diagnostics if "removed" in d.message
                or "no topic builds this deck" in d.message]
    status = {t.deck_name: t.status for t in report.topics}
    assert status == {"NCA::AI & Deep Learning Frameworks": "failed",
                      "NCA::Deep Learning Training Techniques and Optimization": "unchanged",
                      "NCA::Neural Network Applications and Frameworks": "unchanged"}


# --- the lock file's format -----------------------------------------------------------------

def notes_of(path: Path) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(n.guid, n.mod, n.fields) for n in read_deck(path.read_bytes()).notes]


def test_the_format_1_lock_migrates_with_every_guid_and_time_and_the_same_decks(project):
    """tests/fixtures/lock-v1 is the project as committed with its format-1 lock: source,
    templates and the decks in dist/ they built."""
    fixture = REPO / "tests" / "fixtures" / "lock-v1"
    for folder in ("source", "templates", "dist"):
        shutil.rmtree(project / folder, ignore_errors=True)
        shutil.copytree(fixture / folder, project / folder)
    old = json.loads((project / "source" / "nca-anki.lock.json").read_text(encoding="utf-8"))
    published = {p.name: notes_of(p) for p in (project / "dist").glob("*.apkg")}

    report = build(options(project, now=1_900_000_000))
    assert report.ok
    # One note's field changed since the fixture was made, by rendering alone: its
    # 150-character prompt now comes wrapped as prose (issue 21, render._prompt_field).
    reworded = {"nca-878fcf5ecb69d3f0"}
    assert sorted((t.new, t.changed) for t in report.topics) == [(0, 0), (0, 0), (0, 1)]
    assert not (project / "source" / "nca-anki.lock.json").exists()
    assert {e["guid"]: e["mod"] for e in lock_entries(project)} == {
        q["guid"]: 1_900_000_000 if q["guid"] in reworded else q["mod"]
        for q in old["questions"]}
    # The decks now carry version tags, descriptions and the newer CSS; every note keeps
    # its GUID, and every other note its mod and fields.
    def unwrapped(notes):
        return [(guid, mod if guid not in reworded else 0,
                 (re.sub(r'^<div class="nca-prose">(.*)</div>$', r"\1", fields[0]), *fields[1:]))
                for guid, mod, fields in notes]

    assert {p.name: unwrapped(notes_of(p)) for p in (project / "dist").glob("*.apkg")
            if not is_bundle(p.name)} == {name: unwrapped(notes)
                                           for name, notes in published.items()}
    assert len((project / "source" / "nca-anki.lock").read_bytes()) < \
        len((fixture / "source" / "nca-anki.lock.json").read_bytes()) / 5


def test_the_library_reads_no_clock_and_no_environment(project, monkeypatch):
    """build() is a function of its arguments: the CLI resolves SOURCE_DATE_EPOCH."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1900000000")
    (project / "source" / "nca-anki.lock").unlink()
    assert build(options(project, now=1_850_000_000)).ok
    assert {e["mod"] for e in lock_entries(project)} == {1_850_000_000}


def test_forked_workers_leave_no_state_in_the_calling_process():
    import nca_anki.parallel as parallel

    assert list(parallel.run_tasks(lambda i: i * i, 4, 2)) == [0, 1, 4, 9]
    assert parallel._Worker.task is None


def test_one_build_plans_each_topic_once_frozen_reused_or_built(project):
    """The plan (build._plan) read by every stage: a topic with an error is frozen (its
    deck and lock lines as they were), an untouched one reused, an edited one built."""
    assert build(options(project, now=1_800_000_000)).ok
    dist, source = project / "dist", project / "source"
    before = {p.name: p.read_bytes() for p in dist.glob("*.apkg")}
    lock_before = (source / "nca-anki.lock").read_text(encoding="utf-8").splitlines()
    ai = source / AI
    ai.write_text(ai.read_text(encoding="utf-8").replace("Question 2:", "Q2:", 1),
                  encoding="utf-8")
    training = source / "deep-learning-training-techniques-and-optimization-2.txt"
    training.write_text(training.read_text(encoding="utf-8").replace(
        "gradient accumulation", "gradient accumulation (GA)", 1), encoding="utf-8")
    report = build(options(project, now=1_800_086_400))
    results = {t.deck_name.split("::")[1]: t for t in report.topics}
    frozen = results["AI & Deep Learning Frameworks"]
    reused = results["Neural Network Applications and Frameworks"]
    built = results["Deep Learning Training Techniques and Optimization"]
    assert (frozen.status, frozen.new + frozen.changed + frozen.unchanged) == ("failed", 0)
    assert (reused.status, reused.unchanged) == ("unchanged", reused.questions)
    assert (built.status, built.changed) == ("written", 1)
    after = {p.name: p.read_bytes() for p in dist.glob("*.apkg")}
    kept = ("ai-deep-learning-frameworks.apkg", "neural-network-applications-and-frameworks.apkg")
    assert [after[n] == before[n] for n in kept] == [True, True]
    assert after["deep-learning-training-techniques-and-optimization.apkg"] != before[
        "deep-learning-training-techniques-and-optimization.apkg"]
    lock_after = (source / "nca-anki.lock").read_text(encoding="utf-8").splitlines()
    # Only the edited question's line: the frozen topic's lines are as they were.
    changed = sorted(set(lock_before) ^ set(lock_after))
    assert len(changed) == 2 and len({line.split()[1] for line in changed}) == 1
    assert "accumulation (GA)" in next(line for line in changed if line in lock_after)


def test_a_full_temporary_folder_during_the_bundle_publishes_nothing_and_says_so(
        project, monkeypatch):
    import tempfile

    assert build(options(project, now=1_900_000_000)).ok
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "What problem does gradient clipping solve", "Which problem does gradient clipping "
        "solve"), encoding="utf-8")
    before = {p: p.read_bytes() for p in [*(project / "dist").iterdir(),
                                          project / "source" / "nca-anki.lock"]}
    full = project / "full"
    full.write_text("")  # a temporary folder the bundle cannot be merged in
    monkeypatch.setattr(tempfile, "tempdir", str(full))
    report = build(options(project, now=1_900_000_100))
    errors = [str(d) for d in report.diagnostics if d.is_error]
    assert len(errors) == 2 and errors[0].startswith(
        f"dist: error[E501]: cannot make the all-topics bundle in the temporary folder {full} (")
    assert errors[0].endswith("); free space there, or set TMPDIR to a folder with room, and "
                              "build again")
    assert "nothing of this build was published" in errors[1]
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in (project / "dist").iterdir()) == sorted(
        p.name for p in before if p.parent.name == "dist")
    monkeypatch.setattr(tempfile, "tempdir", None)
    assert build(options(project, now=1_900_000_100)).ok


def test_a_file_resaved_decomposed_keeps_every_identity(project):
    # An editor that writes NFD (decomposed accents): the same text, the same questions.
    import unicodedata

    path = project / "source" / AI
    text = path.read_text(encoding="utf-8").replace(
        "What problem does gradient clipping solve", "Quel problème résout l'écrêtage, "
        "what problem does gradient clipping solve")
    path.write_text(text, encoding="utf-8")
    assert build(options(project, now=1_900_000_000)).ok
    published = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    path.write_text(unicodedata.normalize("NFD", text), encoding="utf-8")
    assert path.read_bytes() != text.encode()
    report = build(options(project, now=1_900_000_100))
    assert report.ok and not report.removed
    assert {t.new + t.changed for t in report.topics} == {0}
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == published
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_a_lock_without_its_note_type_line_takes_it_from_the_decks(project):
    # A deleted 'N' line re-dated every deck as "The card layout changed".
    assert build(options(project, now=1_900_000_000)).ok
    published = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    path = project / "source" / "nca-anki.lock"
    lock = path.read_text(encoding="utf-8")
    path.write_text("".join(line for line in lock.splitlines(keepends=True)
                            if not line.startswith("N ")), encoding="utf-8")
    report = build(options(project, now=1_900_086_400))
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == published
    assert path.read_text(encoding="utf-8") == lock
    assert report.ok and not report.templates_changed
    assert any("the note-type line ('N ...') is missing" in str(d) for d in report.diagnostics)


@pytest.mark.parametrize("damage", ["garbage", "swapped"])
def test_a_published_deck_damaged_or_swapped_freezes_its_topic(project, damage):
    # Rebuilt from it, the topic lost its withdrawn notes and listed unchanged
    # questions as "Added".
    source = project / "source" / AI
    original = source.read_text(encoding="utf-8")
    start, end = original.index("Question 3:"), original.index("Question 4:")
    source.write_text(original[:start] + original[end:], encoding="utf-8")  # one withdrawn
    assert build(options(project, now=1_900_000_000)).ok
    deck = project / "dist" / AI_DECK
    other = project / "dist" / "neural-network-applications-and-frameworks.apkg"
    deck.write_bytes(b"not a deck" if damage == "garbage" else other.read_bytes())
    before = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    report = build(options(project, now=1_900_086_400))
    errors = [str(d) for d in report.diagnostics if d.is_error]
    why = ("this published deck cannot be read (" if damage == "garbage" else
           "this published deck holds none of the questions the lock gives topic 'AI & "
           "Deep Learning Frameworks' (another topic's deck copied over it?)")
    assert len(errors) == 1 and errors[0].startswith(f"dist/{AI_DECK}: error[E502]: {why}")
    assert "git checkout -- dist/" in errors[0]
    # Nothing is published: the index cannot describe a deck that is not the topic's.
    assert {t.status for t in report.topics} == {"failed"}
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == before
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_with_the_lock_and_a_deck_deleted_the_bundle_keeps_their_identities(project):
    assert build(options(project, now=1_900_000_000)).ok
    lock_path = project / "source" / "nca-anki.lock"
    guids = {line.split(" ")[1] for line in lock_path.read_text(encoding="utf-8").splitlines()
             if line.startswith("Q ")}
    lock_path.unlink()
    (project / "dist" / AI_DECK).unlink()
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "What problem does gradient clipping solve", "Which problem does gradient clipping "
        "solve"), encoding="utf-8")
    report = build(options(project, now=1_900_086_400))
    assert report.ok
    after = {line.split(" ")[1] for line in lock_path.read_text(encoding="utf-8").splitlines()
             if line.startswith("Q ")}
    assert after == guids  # the edited question kept its GUID: no duplicate for learners
    ai = next(t for t in report.topics if t.deck_name.endswith("AI & Deep Learning Frameworks"))
    assert (ai.new, ai.changed) == (0, 1)


def test_a_question_pasted_into_another_part_of_its_topic_is_an_error(project):
    part = project / "source" / "nca-ai-deep-learning-frameworks-5.txt"
    text = (project / "source" / AI).read_text(encoding="utf-8")
    start, end = text.index("Question 2:"), text.index("Question 3:")
    part.write_text("NCA AI & Deep Learning Frameworks 5 — Questions and Answers\n"
                    + text[start:end].replace("Question 2:", "Question 1:"), encoding="utf-8")
    report = build(options(project))
    errors = [str(d) for d in report.diagnostics if d.is_error]
    assert errors == [f"source/{AI}:9: error[E130]: Question 2 is repeated word for word by "
                      "Question 1 of source/nca-ai-deep-learning-frameworks-5.txt (line 2); "
                      "delete one",
                      f"source/nca-ai-deep-learning-frameworks-5.txt:2: error[E130]: Question 1 "
                      f"repeats Question 2 of source/{AI} (line 9) word for word; delete one"]


def _apkg_reads(project: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often each .apkg in dist/ is opened for reading from now on (every read of a
    file, by open(), Path.read_bytes or zipfile, goes through io.open)."""
    import builtins
    import io
    import os

    reads: dict[str, int] = {}
    real = io.open
    dist = (project / "dist").resolve()

    def counting(file, mode="r", *args, **kwargs):
        if "r" in mode and isinstance(file, (str, bytes, os.PathLike)):
            path = Path(os.fsdecode(file)).resolve()
            if path.parent == dist and path.suffix == ".apkg":
                reads[path.name] = reads.get(path.name, 0) + 1
        return real(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", counting)
    monkeypatch.setattr(builtins, "open", counting)
    return reads


@pytest.mark.parametrize("case", ["edit", "lock lost", "check", "removed"])
def test_one_build_reads_each_published_deck_once(project, monkeypatch, case):
    """What was published is read once, before anything is written: recovery, identity,
    the versions, the sink and the index all ask that one read (an edit, a lost lock,
    --check, and a removed question, whose text only the published deck still has)."""
    assert build(options(project, cache=None)).ok
    published = sorted(p.name for p in (project / "dist").glob("*.apkg"))
    source = project / "source" / AI
    text = source.read_text(encoding="utf-8")
    if case == "lock lost":
        (project / "source" / "nca-anki.lock").unlink()
    elif case == "removed":
        first, second = [m.start() for m in re.finditer(r"^Question \d+:", text, re.M)][:2]
        source.write_text(text[:first] + text[second:], encoding="utf-8")
    else:
        source.write_text(text.replace("GPU", "G.P.U.", 1), encoding="utf-8")
    reads = _apkg_reads(project, monkeypatch)
    report = build(options(project, cache=None),
                   sink=ComparingSink() if case == "check" else None)
    assert report.diagnostics is not None
    assert not [d for d in report.diagnostics if d.is_error]
    assert reads == dict.fromkeys(published, 1)
