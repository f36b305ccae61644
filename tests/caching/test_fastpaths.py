"""The fast paths change no output: the no-op replay (nca_anki/caching/replay.py) answers exactly
what the full build would, and only when nothing changed; forked workers
(nca_anki/parallel.py) write the same decks and lock as one process; the progress bar
shows only on a terminal, and only for a build that takes a while."""

from __future__ import annotations

import io
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CACHE, REPO, archive_entries, options, state_file
import nca_anki.edges as edges
from nca_anki.build import BuildOptions, build
from nca_anki.files import CACHE_FOLDERS, DECKS_NAME, PARSED_NAME, PIECES_NAME
from nca_anki.caching.replay import replay
from nca_anki.publishing.sink import ComparingSink, Sink

sys.path.insert(0, str(REPO / "bench"))
from benchmark import write_part
from conftest import copy_project

AI = "nca-ai-deep-learning-frameworks-4.txt"


def state(root: Path) -> dict[str, bytes]:
    """Every file the build writes, by path: decks, lock and cache."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for folder in ("dist", "source") for p in (root / folder).rglob("*")
            if p.is_file() and not p.name.endswith(".txt")}


def generated_bank(root: Path, topics: int = 3, parts: int = 2, per_part: int = 40) -> None:
    source = root / "source"
    shutil.rmtree(source)
    source.mkdir()
    for t in range(topics):
        for p in range(1, parts + 1):
            write_part(source / f"t{t}-{p}.txt", f"Bench Topic {t} {p}",
                       random.Random(t * 100 + p), per_part)


# --- replay --------------------------------------------------------------------------------

@pytest.mark.parametrize("bank", ["seeds", "generated"])
def test_a_replayed_no_op_reports_exactly_what_the_full_build_reports(project, bank):
    if bank == "generated":
        generated_bank(project)
    assert build(options()).ok
    assert replay(options(), Sink()) is not None  # the build recorded its state
    full = build(options())  # the full pipeline (it reuses every topic, writes nothing)
    assert full.ok and {t.status for t in full.topics} == {"unchanged"}
    replayed = replay(options(), Sink())
    assert replayed is not None
    assert replayed.topics == full.topics
    assert replayed.diagnostics == full.diagnostics
    if bank == "seeds":
        assert len(replayed.diagnostics) == 22  # the seeds' warnings (18, and 2 questions asked twice) are replayed, not lost


@pytest.mark.parametrize("change", [
    "edit a source", "add a source", "delete a source", "touch the settings",
    "edit a template", "add a template", "edit the lock", "edit a deck", "delete a deck",
    "add a stray deck", "corrupt the cache"])
def test_any_change_to_what_the_build_reads_or_wrote_runs_the_full_build(project, change):
    assert build(options()).ok
    assert replay(options(), Sink()) is not None
    source, dist = project / "source", project / "dist"
    if change == "edit a source":
        path = source / AI
        path.write_bytes(path.read_bytes().replace(b"Which NVIDIA GPU", b"Which  NVIDIA GPU", 1))
    elif change == "add a source":
        shutil.copy(source / AI, source / "copy.txt")
    elif change == "delete a source":
        (source / AI).unlink()
    elif change == "touch the settings":
        (source / "nca-anki.toml").write_text("# nothing\n", encoding="utf-8")
    elif change == "edit a template":
        with (project / "templates" / "style.css").open("a", encoding="utf-8") as css:
            css.write("\n/* edited */\n")
    elif change == "add a template":
        (project / "templates" / "partials").mkdir()
        (project / "templates" / "partials" / "x.html").write_text("x", encoding="utf-8")
    elif change == "edit the lock":
        with (source / "nca-anki.lock").open("a", encoding="utf-8") as lock:
            lock.write("\n")
    elif change == "edit a deck":
        deck = next(dist.glob("*.apkg"))
        deck.write_bytes(deck.read_bytes() + b"\0")
    elif change == "delete a deck":
        next(dist.glob("*.apkg")).unlink()
    elif change == "add a stray deck":
        (dist / "old-topic.apkg").write_bytes(b"PK")
    elif change == "corrupt the cache":
        state_file(Path.cwd()).write_text("{", encoding="utf-8")
    assert replay(options(), Sink()) is None


def test_a_build_with_events_records_nothing_to_replay_until_a_quiet_rebuild(project):
    """'Question removed' is news once: a replay must not repeat it, nor lose it."""
    assert build(options()).ok
    path = project / "source" / AI
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("Question 7:")], encoding="utf-8")
    removing = build(options())
    assert removing.ok and removing.removed
    assert replay(options(), Sink()) is None  # its report has a warning that would not recur
    quiet = build(options())
    assert not quiet.removed
    assert not any("question removed" in d.message for d in quiet.diagnostics)
    replayed = replay(options(), Sink())
    assert replayed is not None and replayed.diagnostics == quiet.diagnostics


def test_a_failed_build_is_never_replayed(project):
    assert build(options()).ok
    (project / "templates" / "choices.html").write_text("{{ choices | no_such_filter }}",
                                                         encoding="utf-8")
    assert not build(options()).ok
    assert replay(options(), Sink()) is None
    assert not build(options()).ok  # still the full build, still the error


def test_the_cache_records_the_state_and_replays_it_through_the_cli(project, cli):
    assert cli().status == 0
    first = cli()
    assert first.status == 0
    cache = json.loads(state_file(project).read_text(encoding="utf-8"))
    assert cache["replay"]["state"] and len(cache["replay"]["topics"]) == 3
    again = cli()
    assert (again.status, again.out, again.err) == (first.status, first.out, first.err)
    assert again.out.count("unchanged") == 6  # "(7 unchanged) -> ... unchanged", per topic


def test_a_no_op_through_the_command_line_does_not_load_the_pipeline(project):
    """The point of replay.py: a no-op costs reading and hashing, not importing genanki,
    Jinja and Markdown."""
    assert build(options()).ok
    probe = ("import sys; from nca_anki.cli import main; status = main([]); "
             "print(status, sorted(m for m in ('genanki', 'jinja2', 'markdown_it', 'nh3') "
             "if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=project, check=True)
    assert run.stdout.splitlines()[-1] == "0 []"
    (project / "source" / AI).write_text((project / "source" / AI).read_text(
        encoding="utf-8").replace("Which NVIDIA GPU", "Which NVIDIA  GPU", 1), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=project, check=True)
    assert run.stdout.splitlines()[-1] == "0 ['genanki', 'jinja2', 'nh3']"  # this topic's texts need no Markdown engine


# --- parallel workers ----------------------------------------------------------------------

@pytest.mark.parametrize("bank", ["seeds", "generated"])
def test_forked_workers_write_the_same_decks_and_lock_as_one_process(tmp_path, bank):
    built = {}
    for jobs in (1, 2):
        root = tmp_path / f"jobs-{jobs}"
        copy_project(root)
        if bank == "generated":
            generated_bank(root, topics=4, per_part=60)
        report = build(BuildOptions(root / "source", root / "templates", root / "dist",
                                    now=1_800_000_000, jobs=jobs, cache=root / CACHE))
        assert report.ok
        built[jobs] = ({p.name: archive_entries(p) for p in (root / "dist").glob("*.apkg")},
                       (root / "source" / "nca-anki.lock").read_bytes(),
                       [(t.deck_name, t.new, t.status) for t in report.topics],
                       [str(d).replace(str(root), "") for d in report.diagnostics])
    assert built[1] == built[2]
    assert len(built[1][0]) >= 3


def test_a_worker_s_error_fails_its_topic_alone(project, monkeypatch):
    """A deck that cannot be written, found in a worker, is reported like any other."""
    assert build(options()).ok
    (project / "source" / AI).write_text((project / "source" / AI).read_text(
        encoding="utf-8").replace("Which NVIDIA GPU", "Which NVIDIA  GPU", 1), encoding="utf-8")
    target = project / "dist" / "ai-deep-learning-frameworks.apkg"
    target.unlink()
    target.mkdir()  # a folder where the deck goes: the write fails
    report = build(options(jobs=2))
    assert not report.ok
    assert [t.status for t in report.topics] == ["failed", "unchanged", "unchanged"]
    assert any("ai-deep-learning-frameworks.apkg" in d.path and d.is_error
               for d in report.diagnostics)


# --- progress ------------------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_on_a_terminal_once_a_build_takes_a_while(project, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(edges, "PROGRESS_AFTER_SECONDS", 0.0)
    bars = edges.ProgressBars(terminal)
    assert build(options(), bars).ok
    bars.close()
    shown = terminal.getvalue()
    assert "rendering" in shown and "writing decks" in shown and "/19 " in shown


def test_a_quick_build_or_a_pipe_shows_no_progress(project, monkeypatch):
    terminal = _Terminal()
    bars = edges.ProgressBars(terminal)  # the default: two seconds' grace
    assert build(options(), bars).ok
    bars.close()
    assert terminal.getvalue() == ""
    monkeypatch.setattr(edges, "PROGRESS_AFTER_SECONDS", 0.0)
    pipe = io.StringIO()
    bars = edges.ProgressBars(pipe)
    shutil.rmtree(project / "dist")
    assert build(options(), bars).ok
    bars.close()
    assert pipe.getvalue() == ""


# --- parse cache ---------------------------------------------------------------------------

def test_sources_read_back_from_the_parse_cache_build_exactly_what_parsing_builds(tmp_path):
    """Edit one topic: the other files come from the parse cache. The same edit with no
    parse cache must give the same decks, lock, counts and diagnostics."""
    outcomes = []
    for use_cache in (True, False):
        root = tmp_path / f"cache-{use_cache}"
        copy_project(root)
        opts = BuildOptions(root / "source", root / "templates", root / "dist",
                            now=1_800_000_000, cache=root / CACHE)
        assert build(opts).ok
        assert len(list((root / CACHE / PARSED_NAME).glob("*.json"))) == 3
        if not use_cache:
            shutil.rmtree(root / CACHE / PARSED_NAME)
        path = root / "source" / AI
        path.write_text(path.read_text(encoding="utf-8").replace(
            "Which NVIDIA GPU", "Which NVIDIA  GPU", 1), encoding="utf-8")
        report = build(BuildOptions(root / "source", root / "templates", root / "dist",
                                    now=1_800_000_100, cache=root / CACHE))
        assert report.ok
        outcomes.append(({p.name: archive_entries(p) for p in (root / "dist").glob("*.apkg")},
                         (root / "source" / "nca-anki.lock").read_bytes(),
                         [(t.deck_name, t.new, t.changed, t.unchanged, t.status)
                          for t in report.topics],
                         [str(d).replace(root.as_posix(), "") for d in report.diagnostics]))
    assert outcomes[0] == outcomes[1]
    assert [changed for _, _, changed, _, _ in outcomes[0][2]] == [1, 0, 0]


def test_only_changed_files_are_parsed_again(project, monkeypatch):
    assert build(options()).ok
    import nca_anki.inputs as pipeline
    parsed: list[str] = []
    real = pipeline.parse

    def parse(text, path):
        parsed.append(path)
        return real(text, path)

    monkeypatch.setattr(pipeline, "parse", parse)
    assert build(options()).ok
    assert parsed == []
    path = project / "source" / AI
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert build(options()).ok
    assert parsed == [f"source/{AI}"]


def test_a_corrupt_parse_cache_entry_is_parsed_again_with_a_warning(project):
    assert build(options()).ok
    entries = sorted((project / CACHE / PARSED_NAME).glob("*.json"))
    good = entries[0].read_bytes()
    entries[0].write_text('{"format": "nca-anki-parsed-4", "code', encoding="utf-8")
    report = build(options())
    assert report.ok
    assert [d.message.split(" (")[0] for d in report.diagnostics if PARSED_NAME in d.path] \
        == ["parse cache entry ignored"]
    assert entries[0].read_bytes() == good  # parsed again and rewritten
    head, _, questions = good.decode().partition("\n")
    foreign = json.loads(head)
    foreign["code"] = "another version"
    entries[0].write_text(json.dumps(foreign) + "\n" + questions, encoding="utf-8")
    report = build(options())
    assert report.ok and not any(PARSED_NAME in d.path for d in report.diagnostics)
    assert entries[0].read_bytes() == good
    entries[0].write_text(head + "\n" + questions.replace("GPU", "CPU", 1), encoding="utf-8")
    report = build(options())  # questions that do not match the header's hash
    assert [d.message.split(" (")[1] for d in report.diagnostics if PARSED_NAME in d.path] \
        == ["ValueError: its questions do not match its hash); parsed again"]
    assert entries[0].read_bytes() == good


def test_a_rebuild_builds_only_the_questions_of_topics_it_rebuilds(project, monkeypatch):
    """The parse cache hands back questions unbuilt; counts, answer positions and lint
    come from each entry's header, so an edit builds only its own topic's questions."""
    import nca_anki.caching.entries as cache
    assert build(options()).ok
    built: list[str] = []
    real = cache._CachedQuestions._questions

    def questions(self):
        if self._built is None:
            built.append(self._shown)
        return real(self)

    monkeypatch.setattr(cache._CachedQuestions, "_questions", questions)
    path = project / "source" / AI
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    report = build(options())
    assert report.ok and [t.status for t in report.topics] == ["unchanged"] * 3
    assert built == []  # the edited file was parsed, the others never built
    (project / "templates" / "style.css").write_text("/* new */", encoding="utf-8")
    assert build(options()).ok  # a template edit rebuilds every topic: all are built
    assert sorted(built) == sorted(f"source/{p.name}"
                                   for p in (project / "source").glob("*.txt"))


def test_entries_of_files_no_longer_read_are_deleted(project):
    assert build(options()).ok
    (project / "source" / AI).unlink()
    build(options())
    assert len(list((project / CACHE / PARSED_NAME).glob("*.json"))) == 2


def _reword_ai_question(project: Path) -> None:
    path = project / "source" / AI
    path.write_text(path.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first", "Which NVIDIA GPU architecture was the first"),
        encoding="utf-8")


def test_the_index_reads_back_only_the_decks_that_changed(project, monkeypatch):
    """What the index needs from each deck is kept under the deck's SHA-256, and the
    bundle's deflated pieces under a hash of what they deflate: after one topic's edit
    only that deck's collection is read again; the index and the bundle are the same
    bytes as those --check works out from every deck, without either cache."""
    import nca_anki.reading.published as published
    assert build(options()).ok
    assert sorted(p.name for p in (project / CACHE / DECKS_NAME).glob("*.json")) == [
        "ai-deep-learning-frameworks.apkg.json",
        "deep-learning-training-techniques-and-optimization.apkg.json",
        "neural-network-applications-and-frameworks.apkg.json"]
    read: list[int] = []
    real = published.facts

    def facts(collection: bytes):
        read.append(len(collection))
        return real(collection)

    monkeypatch.setattr(published, "facts", facts)
    _reword_ai_question(project)
    assert build(options()).ok
    assert len(read) == 1
    assert list((project / CACHE / PIECES_NAME).glob("*.z"))
    shutil.rmtree(project / CACHE / DECKS_NAME)
    read.clear()
    report = build(options(), sink=ComparingSink())  # every deck read: the index is what they give
    assert report.ok and not report.stale_files and len(read) == 3
    assert not (project / CACHE / DECKS_NAME).exists()  # --check and --verify write nothing


def test_the_index_does_not_read_back_a_deck_it_saw_built(project, monkeypatch):
    """The worker that builds a deck hands over what the index needs from it, so a full
    build inflates and queries each deck once, not once more to index it; the index it
    writes is what --check works out by reading every deck."""
    import nca_anki.publishing.decks as build_module  # where each deck is packaged
    import nca_anki.reading.published as published
    queried: list[int] = []
    handed: list[int] = []
    real_facts, real_handover = published.facts, build_module.deck_facts

    def facts(collection: bytes):
        queried.append(len(collection))
        return real_facts(collection)

    def handover(package: bytes):
        handed.append(len(package))
        return real_handover(package)

    monkeypatch.setattr(published, "facts", facts)
    monkeypatch.setattr(build_module, "deck_facts", handover)
    assert build(options()).ok
    assert len(handed) == 3 and len(queried) == 3  # each deck once, by its builder
    queried.clear()
    report = build(options(), sink=ComparingSink())
    assert report.ok and not report.stale_files and len(queried) == 3


def test_a_damaged_or_foreign_deck_cache_entry_is_read_again(project):
    assert build(options()).ok
    entry = project / CACHE / DECKS_NAME / "neural-network-applications-and-frameworks.apkg.json"
    good = entry.read_bytes()
    head, _, notes = good.decode().partition("\n")
    entry.write_text(head + "\n" + notes.replace("nca-", "nca-x", 1), encoding="utf-8")
    _reword_ai_question(project)  # a rebuild that indexes again; this deck is unchanged
    report = build(options())
    assert report.ok
    assert entry.read_bytes() == good  # read again and rewritten
    assert [d.message for d in report.diagnostics if DECKS_NAME in d.path] == [
        "deck cache entry ignored (ValueError: its notes do not match its hash); the deck is "
        "read again"]
    foreign = json.loads(head)
    foreign["deck"] = "0" * 64  # the entry of another deck file
    entry.write_text(json.dumps(foreign) + "\n" + notes, encoding="utf-8")
    path = project / "source" / AI
    path.write_text(path.read_text(encoding="utf-8").replace("was the first", "was first"),
                    encoding="utf-8")
    report = build(options())
    assert report.ok and not any(DECKS_NAME in d.path for d in report.diagnostics)
    assert entry.read_bytes() == good  # not trusted: read again
    shutil.rmtree(project / CACHE / DECKS_NAME)
    check = build(options(), sink=ComparingSink())  # every deck read: the index is what they give
    assert check.ok and not check.stale_files


def test_a_file_where_a_cache_folder_belongs_is_said_once_and_costs_only_time(project):
    assert build(options()).ok
    for name, _ in CACHE_FOLDERS:
        shutil.rmtree(project / CACHE / name)
        (project / CACHE / name).write_text("not a folder", encoding="utf-8")
    _reword_ai_question(project)
    report = build(options())
    assert report.ok
    assert sorted((d.path, d.message) for d in report.diagnostics if ".nca-anki-" in d.path) \
        == [(f"{CACHE}/{name}", "not a folder, so this cache cannot be kept (builds only take "
             "longer); delete it") for name in sorted(n for n, _ in CACHE_FOLDERS)]
    check = build(options(), sink=ComparingSink())  # what the sources build, worked out without caches
    assert check.ok and not check.stale_files
    assert {t.status for t in check.topics} == {"unchanged"}


def test_the_only_edited_topic_s_deck_is_read_for_matching(project, monkeypatch):
    """A reworded question needs the published texts for similarity: only its topic's
    deck is unpacked, not every deck, and of it only the text of the question the hashes
    left unpaired (not its six others); the reworded question keeps its identity."""
    assert build(options()).ok
    import nca_anki.identity.recover as recover
    import nca_anki.reading.published as published
    lock = project / "source" / "nca-anki.lock"
    guids = [line.split()[1] for line in lock.read_text(encoding="utf-8").splitlines()
             if line.startswith("Q ")]
    opened: list[str] = []
    texts: list[str] = []
    real_deck, real_entry = published.read_deck, recover._entry
    # The decks are read once (reading/published.py); which one is unpacked, by its bytes.
    names = {p.read_bytes(): p.name for p in (project / "dist").glob("*.apkg")}

    def read_deck(package):
        opened.append(names.get(package, "?"))
        return real_deck(package)

    def entry(topic, guid, *rest):
        texts.append(guid)
        return real_entry(topic, guid, *rest)

    monkeypatch.setattr(published, "read_deck", read_deck)
    monkeypatch.setattr(recover, "_entry", entry)
    _reword_ai_question(project)
    report = build(options())
    assert report.ok and [t.changed for t in report.topics] == [1, 0, 0]
    assert opened == ["ai-deep-learning-frameworks.apkg"]
    assert len(texts) == 1 and texts[0] in guids
    assert [line.split()[1] for line in lock.read_text(encoding="utf-8").splitlines()
            if line.startswith("Q ")] == guids


@pytest.mark.parametrize("value", ["0", "-1", "two", ""])
def test_jobs_must_be_a_whole_number_of_at_least_one(project, cli, value):
    run = cli("--jobs", value)
    assert run.status == 2
    assert f"argument --jobs/-j: expected a whole number of at least 1, got {value!r}" in run.err
    assert not (project / "dist").exists()


def test_jobs_one_builds_in_this_process_alone(project, cli, monkeypatch):
    import nca_anki.parallel as parallel

    def no_fork(*args, **kwargs):
        raise AssertionError("forked with --jobs 1")

    monkeypatch.setattr(parallel.multiprocessing, "get_context", no_fork)
    assert cli("--jobs", "1").status == 0
