"""Tests for nca_anki.caching.cache: unchanged topics are neither rendered nor packaged again, and
the cache is never trusted beyond what content hashes prove."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import tempfile
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import CACHE, options, state_file
from nca_anki.edges import render_key
from nca_anki.files import RENDERED_NAME
from nca_anki.publishing import decks as decks_module
from nca_anki.reading.published import collection_of, query
from nca_anki.caching.state import state_path
from nca_anki.build import build
from nca_anki.cli import main
from nca_anki.cards.render import Renderer
from conftest import copy_project

AI = "nca-ai-deep-learning-frameworks-4.txt"


def _renders(monkeypatch: pytest.MonkeyPatch, of) -> list[str]:
    """``of(topic, question)`` for every note the build renders (not taken from a cache)."""
    seen: list[str] = []
    real = Renderer.note

    def note(self, topic, part, question, layout, **options):
        seen.append(of(topic, question))
        return real(self, topic, part, question, layout, **options)

    monkeypatch.setattr(Renderer, "note", note)
    return seen


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The topic of every note the build renders."""
    return _renders(monkeypatch, lambda topic, _: topic.name)


@pytest.fixture
def packaged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The deck name of every topic the build packages again."""
    seen: list[str] = []
    real = decks_module.build_package

    def build_package(deck, note_type, note_type_mod):
        seen.append(deck.name)
        return real(deck, note_type, note_type_mod)

    monkeypatch.setattr(decks_module, "build_package", build_package)
    return seen


def decks(root: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (root / "dist").glob("*.apkg")}


def test_a_rebuild_with_nothing_changed_renders_nothing_and_touches_nothing(project, rendered):
    assert build(options()).ok
    assert len(rendered) == 19
    before, lock = decks(project), (project / "source" / "nca-anki.lock").read_bytes()
    rendered.clear()
    report = build(options())
    assert report.ok and rendered == []
    assert [(t.questions, t.unchanged, t.status) for t in report.topics] == [
        (7, 7, "unchanged"), (6, 6, "unchanged"), (6, 6, "unchanged")]
    assert decks(project) == before
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_only_the_edited_topic_is_built_again(project, rendered):
    assert build(options()).ok
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first", "Which NVIDIA GPU architecture was the first"),
        encoding="utf-8")
    rendered.clear()
    report = build(options())
    assert report.ok
    # Its deck is packaged again; of its seven questions only the edited one is rendered
    # again: the other six come from the render cache.
    assert rendered == ["AI & Deep Learning Frameworks"]
    assert [t.changed for t in report.topics] == [1, 0, 0]


def _prompts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The prompt of every note the build renders."""
    return _renders(monkeypatch, lambda _, question: question.prompt)


def _note_fields(root: Path) -> dict[str, list[str]]:
    """GUID -> fields of every note of every per-topic deck in the output folder."""
    found: dict[str, list[str]] = {}
    for deck in sorted((root / "dist").glob("*.apkg")):
        if deck.name.endswith("_all_topics.apkg"):
            continue
        for guid, fields in query(collection_of(deck.read_bytes()),
                                  "SELECT guid, flds FROM notes"):
            found[guid] = fields.split("\x1f")
    return found


@pytest.mark.parametrize("change", ["choices template", "report link", "language",
                                    "show on pick", "shuffle", "deck name"])
def test_a_note_is_rendered_again_when_anything_its_card_shows_changes(
        project, monkeypatch, change):
    """Each input a note's fields come from, changed alone between two builds, renders
    every note it reaches again, and the decks hold what a build without a cache gives."""
    assert build(options()).ok
    toml = project / "source" / "nca-anki.toml"
    settings_text = toml.read_text(encoding="utf-8") if toml.exists() else ""
    if change == "choices template":
        choices = project / "templates" / "choices.html"
        choices.write_text(choices.read_text(encoding="utf-8") + "<!-- changed -->\n",
                           encoding="utf-8")
    elif change == "report link":
        toml.write_text('report_url = "https://example.org/r?f={fingerprint}"\n'
                        + settings_text, encoding="utf-8")
    elif change == "language":
        toml.write_text('language = "de"\n' + settings_text, encoding="utf-8")
    elif change == "show on pick":
        toml.write_text('show_answer_on_pick = true\n' + settings_text, encoding="utf-8")
    elif change == "shuffle":
        toml.write_text(settings_text + '\n[shuffle]\n"AI & Deep Learning Frameworks" = false\n',
                        encoding="utf-8")
    else:
        source = project / "source" / AI
        source.write_text(source.read_text(encoding="utf-8").replace(
            "AI & Deep Learning Frameworks", "AI and Deep Learning Frameworks", 1),
            encoding="utf-8")
    seen = _prompts(monkeypatch)
    report = build(options())
    assert report.ok, report.diagnostics
    assert seen, "nothing was rendered again"
    cached = _note_fields(project)
    shutil.rmtree(project / CACHE)
    seen.clear()
    assert build(options()).ok
    assert _note_fields(project) == cached


def test_a_damaged_render_cache_entry_is_rendered_again_with_a_warning(project, monkeypatch):
    assert build(options()).ok
    entries = sorted((project / CACHE / RENDERED_NAME).glob("*.z"))
    assert len(entries) == 3  # one per topic
    for entry in entries:
        entry.write_bytes(entry.read_bytes()[:40] + b"\x00damage")
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first", "Which NVIDIA GPU architecture was the first"),
        encoding="utf-8")
    seen = _prompts(monkeypatch)
    report = build(options())
    assert report.ok
    warned = [d for d in report.diagnostics if d.code == "W601"]
    assert len(warned) == 1 and "render cache entry ignored" in warned[0].message
    assert len(seen) == 7  # the whole edited topic, rendered again
    seen.clear()
    again = build(options())  # the entry was written again whole
    assert again.ok and not [d for d in again.diagnostics if d.code == "W601"]


def test_render_cache_entries_signed_with_another_key_never_reach_a_deck(project, monkeypatch):
    """A cache folder from elsewhere (a shared zip, a restored CI cache) holds entries
    signed with another user's key: each is ignored with a warning, and even one whose
    notes were swapped for hostile HTML leaves the decks what the sources build."""
    assert build(options()).ok
    clean = _note_fields(project)
    for entry in (project / CACHE / RENDERED_NAME).glob("*.z"):
        head, _, body = zlib.decompress(entry.read_bytes()).decode().partition("\n")
        notes = json.loads(body)
        for note in notes:
            note[1][0] = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
        entry.write_bytes(zlib.compress(f"{head}\n{json.dumps(notes)}".encode()))
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first", "Which NVIDIA GPU architecture was the first"),
        encoding="utf-8")
    seen = _prompts(monkeypatch)
    report = build(options(render_key=b"another user's key, 32 bytes ok"))
    assert report.ok
    (warned,) = [d for d in report.diagnostics if d.code == "W601"]
    assert "not signed by this user's builds" in warned.message
    assert len(seen) == 7  # the edited topic's notes, all rendered again
    fields = _note_fields(project)
    assert not [f for note in fields.values() for f in note if "<script" in f or "onerror" in f]
    assert len(fields) == len(clean)
    shutil.rmtree(project / CACHE)
    assert build(options()).ok
    assert _note_fields(project) == fields  # what a build without any cache publishes


def test_the_render_key_is_made_once_for_this_user_alone(tmp_path):
    environ = {"XDG_CACHE_HOME": str(tmp_path / "home-cache")}
    key = render_key(environ)
    path = tmp_path / "home-cache" / "nca-anki" / "render.key"
    assert key is not None and len(key) == 32 and path.read_bytes() == key
    assert path.stat().st_mode & 0o777 == 0o600
    assert render_key(environ) == key
    assert render_key({"XDG_CACHE_HOME": str(tmp_path / "other")}) != key
    path.unlink()
    os.mkfifo(path)  # a pipe where the key belongs: refused at once, never waited on
    assert render_key(environ) is None
    path.unlink()
    path.write_bytes(b"short")
    assert render_key(environ) is None  # not a key: no render cache
    (tmp_path / "file").write_text("x")
    assert render_key({"XDG_CACHE_HOME": str(tmp_path / "file")}) is None


def test_the_render_cache_keeps_one_entry_per_topic_and_drops_a_topic_gone(project):
    assert build(options()).ok
    folder = project / CACHE / RENDERED_NAME
    assert len(list(folder.glob("*.z"))) == 3
    (project / "source" / AI).unlink()
    report = build(options())
    assert report.ok, report.diagnostics
    assert len(list(folder.glob("*.z"))) == 2


def test_a_template_edit_builds_every_topic(project, rendered):
    assert build(options()).ok
    css = project / "templates" / "style.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.nca-prompt { letter-spacing: 0; }\n",
                   encoding="utf-8")
    rendered.clear()
    assert build(options()).ok
    assert len(rendered) == 19


def test_new_file_times_alone_reuse_everything(project, rendered):
    # A fresh clone has new file times and the same content.
    assert build(options()).ok
    later = time.time() + 100
    for path in project.rglob("*"):
        os.utime(path, (later, later))
    rendered.clear()
    assert build(options()).ok
    assert rendered == []


@pytest.mark.parametrize("damage", [b"{not json", b'{"format": "other", "topics": {}}', b"[]"])
def test_a_corrupt_or_foreign_cache_is_ignored_with_a_warning(project, rendered, packaged,
                                                             damage):
    assert build(options()).ok
    before = decks(project)
    state_file(project).write_bytes(damage)
    rendered.clear()
    packaged.clear()
    report = build(options())
    # Every topic is packaged again; its notes come from the render cache, whose entries
    # are checked on their own.
    assert report.ok and len(packaged) == 3 and rendered == []
    (warned,) = [d for d in report.diagnostics if d.path.endswith(state_file(project).name)]
    assert warned.message.startswith("build cache ignored (")
    assert warned.message.endswith("every topic is built again and the cache rewritten")
    assert {name: data for name, (data, _) in decks(project).items()} == {
        name: data for name, (data, _) in before.items()}
    rendered.clear()
    assert build(options()).ok and rendered == []  # rewritten, trusted again


def test_a_deck_changed_or_deleted_in_the_output_is_built_again(project, packaged):
    assert build(options()).ok
    good = (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes()
    (project / "dist" / "ai-deep-learning-frameworks.apkg").write_bytes(b"tampered")
    (project / "dist" / "neural-network-applications-and-frameworks.apkg").unlink()
    # A damaged deck is not silently replaced (its withdrawn notes would be lost): the
    # build says so and publishes nothing; deleted, it is built again.
    report = build(options())
    assert [d.path for d in report.diagnostics if d.is_error] == [
        "dist/ai-deep-learning-frameworks.apkg"]
    (project / "dist" / "ai-deep-learning-frameworks.apkg").unlink()
    packaged.clear()
    assert build(options()).ok
    assert sorted(packaged) == ["NCA::AI & Deep Learning Frameworks",
                                "NCA::Neural Network Applications and Frameworks"]
    assert (project / "dist" / "ai-deep-learning-frameworks.apkg").read_bytes() == good


def test_a_setting_change_builds_that_topic_again(project, rendered):
    assert build(options()).ok
    (project / "source" / "nca-anki.toml").write_text(
        '[shuffle]\n"Neural Network Applications and Frameworks" = false\n', encoding="utf-8")
    rendered.clear()
    assert build(options()).ok
    assert set(rendered) == {"Neural Network Applications and Frameworks"}
    (project / "source" / "nca-anki.toml").write_text(
        '[shuffle]\n"Neural Network Applications and Frameworks" = false\n'
        '[show_answer_on_pick]\n"AI & Deep Learning Frameworks" = true\n', encoding="utf-8")
    rendered.clear()
    assert build(options()).ok
    assert set(rendered) == {"AI & Deep Learning Frameworks"}
    (project / "source" / "nca-anki.toml").write_text(
        'report_url = "https://example.org/?f={fingerprint}"\n[shuffle]\n'
        '"Neural Network Applications and Frameworks" = false\n'
        '[show_answer_on_pick]\n"AI & Deep Learning Frameworks" = true\n', encoding="utf-8")
    rendered.clear()
    assert build(options()).ok
    assert len(set(rendered)) == 3  # the link is on every card


def test_deleting_the_cache_only_costs_time(project, rendered, packaged):
    assert build(options()).ok
    before = decks(project)
    state_file(project).unlink()  # the state alone: every topic packaged again
    rendered.clear()
    packaged.clear()
    report = build(options())
    assert report.ok and len(packaged) == 3 and rendered == []
    assert {t.status for t in report.topics} == {"unchanged"}
    assert decks(project) == before
    shutil.rmtree(project / CACHE)  # all of it: every note rendered again too
    report = build(options())
    assert report.ok and len(rendered) == 19
    assert {t.status for t in report.topics} == {"unchanged"}
    assert decks(project) == before


# --- every cache state builds what no cache builds ---------------------------------------------

FILES = (AI, "deep-learning-training-techniques-and-optimization-2.txt",
         "neural-network-applications-and-frameworks-2.txt")
TOPICS = ("AI & Deep Learning Frameworks", "Deep Learning Training Techniques and Optimization",
          "Neural Network Applications and Frameworks")
STEPS = ("reword", "explain", "add", "remove", "css", "choices", "settings", "drop cache",
         "corrupt cache", "delete deck", "nothing")


def _change(root: Path, step: str, n: int) -> None:
    """One thing an author (or a tool, or bad luck) does between two builds."""
    source = root / "source" / FILES[n % 3]
    text = source.read_text(encoding="utf-8")
    headers = list(re.finditer(r"^Question (\d+): ", text, re.MULTILINE))
    if step == "reword":
        at = headers[n % len(headers)].end()
        source.write_text(text[:at] + f"(variant {n}) " + text[at:], encoding="utf-8")
    elif step == "explain":
        source.write_text(re.sub(r"^(Correct answer: .*\n.*)$", rf"\1 See note {n}.", text,
                                 count=1 + n % 3, flags=re.MULTILINE), encoding="utf-8")
    elif step == "add":
        source.write_text(text.rstrip("\n") + f"\n\nQuestion {len(headers) + 1}: Which library "
                          f"number {n} is it?\n- cuDNN\n- NCCL (Correct answer)\n- DALI\n"
                          "Correct answer: NCCL\nIt is NCCL.\n", encoding="utf-8")
    elif step == "remove" and len(headers) > 1:
        source.write_text(text[:headers[-1].start()], encoding="utf-8")
    elif step == "css":
        with open(root / "templates" / "style.css", "a", encoding="utf-8") as css:
            css.write(f"\n/* {n} */\n")
    elif step == "choices":
        with open(root / "templates" / "choices.html", "a", encoding="utf-8") as choices:
            choices.write(f"<!-- {n} -->\n")
    elif step == "settings":
        # Every setting a topic's cards depend on: the report link's address too.
        (root / "source" / "nca-anki.toml").write_text(
            (f'report_url = "https://example.org/{n % 3}?f={{fingerprint}}&l={{line}}"\n'
             if n % 3 else "")
            + ('language = "fr"\n' if n % 5 == 1 else "")
            + f'[shuffle]\n"{TOPICS[n % 3]}" = {"false" if n % 2 else "true"}\n'
            + f'[show_answer_on_pick]\n"{TOPICS[n % 3]}" = {"true" if n % 4 else "false"}\n',
            encoding="utf-8")
    elif step in ("drop cache", "corrupt cache"):
        # Any file of the cache: the state, a parsed file, a topic's rendered notes, a
        # deck's facts, a piece of the bundle.
        found = sorted(p for p in (root / CACHE).rglob("*")
                       if p.is_file() and p.name != "CACHEDIR.TAG")
        assert found, "the cache holds nothing to damage"
        if found:
            target = found[n % len(found)]
            if step == "drop cache":
                target.unlink()
            else:
                target.write_bytes(target.read_bytes()[:n % 50] + b"\x00{not what was kept")
    elif step == "delete deck":
        decks = sorted((root / "dist").glob("*.apkg"))
        decks[n % len(decks)].unlink()


def _published(root: Path) -> dict[str, bytes]:
    """Everything a build publishes (decks, index, lock), without its caches."""
    files = {p.relative_to(root / "dist").as_posix(): p.read_bytes()
             for p in (root / "dist").rglob("*") if p.is_file()}
    files = {name: data for name, data in files.items() if not name.startswith(".nca-anki")}
    return {**files, "lock": (root / "source" / "nca-anki.lock").read_bytes()}


@pytest.fixture(scope="module")
def built_seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("seeds") / "project"
    copy_project(root)
    assert _command(root, 1_800_000_000) == 0
    return root


def _command(root: Path, now: int) -> int:
    """build_decks.py in this process, as the user runs it (a no-op is replayed)."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(now)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return main(["--source", str(root / "source"), "--templates",
                         str(root / "templates"), "--out", str(root / "dist"),
                         "--cache-dir", str(root / CACHE)])
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


@pytest.mark.slow
@settings(derandomize=True, max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 99)), min_size=1, max_size=4))
@example([(step, n) for n, step in enumerate(STEPS)])  # every kind of change, one after another
def test_whatever_the_caches_hold_a_build_publishes_what_a_build_without_them_does(
        built_seeds: Path, steps: list[tuple[str, int]]) -> None:
    """After each change, the project built with every cache it has left (the no-op
    replay, unchanged topics, parsed files, deck facts, bundle pieces; some dropped or
    damaged) publishes the same bytes, and exits the same, as a copy of it built with no
    cache at all."""
    with tempfile.TemporaryDirectory() as temp:
        kept = Path(temp) / "kept"
        shutil.copytree(built_seeds, kept)
        for number, (step, n) in enumerate(steps, start=1):
            _change(kept, step, n)
            bare = Path(temp) / f"bare-{number}"
            shutil.copytree(kept, bare, ignore=shutil.ignore_patterns(".nca-anki*"))
            now = 1_800_000_000 + 100 * number
            assert _command(kept, now) == _command(bare, now), steps
            assert _published(kept) == _published(bare), steps


# --- where the cache lives ---------------------------------------------------------------

PUBLISHED = {"ai-deep-learning-frameworks.apkg",
             "deep-learning-training-techniques-and-optimization.apkg",
             "neural-network-applications-and-frameworks.apkg", "nca_all_topics.apkg",
             "README.md", "CHANGELOG.md", "manifest.json"}


def test_the_output_folder_holds_only_what_is_published(project, cli):
    assert cli().status == 0
    assert cli().status == 0  # a replayed no-op too
    assert set(os.listdir(project / "dist")) == PUBLISHED
    cache = project / ".nca-anki-cache"
    assert (cache / "CACHEDIR.TAG").read_bytes().startswith(
        b"Signature: 8a477f597d28d172789f06886806bc55")
    assert sorted(p.name for p in cache.iterdir() if p.is_dir()) == [
        "bundle", "decks", "parsed", "rendered"]
    assert [p.name for p in cache.glob("state-*.json")] == [state_file(project).name]


def test_the_caches_older_versions_kept_in_the_output_are_removed_by_the_next_build(
        project, cli):
    dist = project / "dist"
    dist.mkdir()
    (dist / ".nca-anki-cache.json").write_text("{}", encoding="utf-8")
    for name, suffix in ((".nca-anki-parsed", ".json"), (".nca-anki-decks", ".json"),
                         (".nca-anki-bundle", ".z")):
        (dist / name).mkdir()
        (dist / name / f"entry{suffix}").write_bytes(b"old")
        (dist / name / f".entry{suffix}.abcd1234.tmp").write_bytes(b"killed")
    olds = set(os.listdir(dist))
    assert cli("--check").status == 0
    assert set(os.listdir(dist)) == olds  # --check writes and deletes nothing
    assert cli().status == 0
    assert set(os.listdir(dist)) == PUBLISHED


def test_the_cache_folder_is_moved_by_the_option_or_the_environment(project, cli, monkeypatch):
    assert cli("--cache-dir", "../elsewhere").status == 0
    assert state_path(project.parent / "elsewhere", Path("source"), Path("templates"),
                      Path("dist")).is_file()
    assert not (project / ".nca-anki-cache").exists()
    monkeypatch.setenv("NCA_ANKI_CACHE_DIR", str(project.parent / "from-env"))
    assert cli().status == 0
    assert (project.parent / "from-env" / "CACHEDIR.TAG").is_file()
    monkeypatch.setenv("NCA_ANKI_CACHE_DIR", "")  # empty: as if unset
    assert cli().status == 0
    assert (project / ".nca-anki-cache" / "CACHEDIR.TAG").is_file()


def test_no_cache_builds_the_same_decks_and_keeps_no_cache(project, cli):
    assert cli("--no-cache").status == 0
    assert not (project / ".nca-anki-cache").exists()
    without = {p.name: p.read_bytes() for p in (project / "dist").iterdir()}
    shutil.rmtree(project / "dist")
    assert cli().status == 0
    assert {p.name: p.read_bytes() for p in (project / "dist").iterdir()} == without


@pytest.mark.parametrize("args, env, message", [
    (["--cache-dir", "dist/cache"], None,
     "dist/cache: error: --cache-dir is inside --out (dist); name a folder for the build "
     "cache outside it"),
    (["--cache-dir", "source/.cache"], None,
     "source/.cache: error: --cache-dir is inside --source (source); name a folder for the "
     "build cache outside it"),
    ([], "templates",
     "templates: error: NCA_ANKI_CACHE_DIR is inside --templates (templates); name a folder "
     "for the build cache outside it"),
    ([], "source/nca-anki.lock",
     "source/nca-anki.lock: error: NCA_ANKI_CACHE_DIR names a file, not a folder; name a "
     "folder for the build cache"),
    (["--cache-dir", "source/nca-anki.lock"], None,
     "source/nca-anki.lock: error: --cache-dir names a file, not a folder; pass --cache-dir "
     "DIR"),
    (["--cache-dir", " "], None,
     "--cache-dir: error: --cache-dir is empty; name a folder (is a shell variable unset?)"),
])
def test_a_cache_folder_among_the_inputs_or_outputs_is_a_usage_error(
        project, cli, monkeypatch, args, env, message):
    if env is not None:
        monkeypatch.setenv("NCA_ANKI_CACHE_DIR", env)
    lock = (project / "source" / "nca-anki.lock").read_bytes()
    run = cli(*args)
    assert (run.status, run.err.strip()) == (2, message)
    assert not (project / "dist").exists()
    assert (project / "source" / "nca-anki.lock").read_bytes() == lock


def test_a_cache_folder_that_cannot_be_made_is_said_once_and_the_build_goes_on(
        project, cli, tmp_path):
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    run = cli("--cache-dir", str(tmp_path / "a-file" / "cache"))
    assert run.status == 0
    said = [line for line in run.err.splitlines() if "cache" in line]
    assert said == [f"{(tmp_path / 'a-file' / 'cache').as_posix()}: warning[W601]: cannot keep the "
                    f"build cache here ({(tmp_path / 'a-file').as_posix()} is a file); built "
                    "without one, which only takes longer: pass --cache-dir DIR"]
    assert set(os.listdir(project / "dist")) == PUBLISHED


def test_a_cache_entry_folder_that_is_a_link_is_not_followed(project, tmp_path):
    # A link out of the folder we own: its target's files are never written or deleted.
    assert build(options()).ok
    elsewhere = tmp_path / "precious"
    elsewhere.mkdir()
    (elsewhere / "notes.json").write_text("mine")
    parsed = project / CACHE / "parsed"
    shutil.rmtree(parsed)
    parsed.symlink_to(elsewhere)
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    report = build(options())
    assert report.ok
    assert [str(d) for d in report.diagnostics if "build cache" in str(d)] == [
        ".nca-anki-cache: warning[W601]: cannot keep the build cache here (.nca-anki-cache/parsed "
        "is a link, and links are not followed); delete the link, or pass --cache-dir DIR"]
    assert sorted(p.name for p in elsewhere.iterdir()) == ["notes.json"]


def test_a_cache_folder_holding_someone_elses_files_is_left_alone(project, tmp_path):
    # --cache-dir naming a folder in use (a typo, a home folder): nothing read or deleted.
    theirs = tmp_path / "documents"
    (theirs / "parsed").mkdir(parents=True)
    (theirs / "parsed" / "report.json").write_text("mine")
    (theirs / "state-0123456789abcdef.json").write_text("{}")
    before = sorted((p.relative_to(theirs), p.read_bytes()) for p in theirs.rglob("*")
                    if p.is_file())
    report = build(options(cache=theirs))
    assert report.ok
    assert any("holds files but is not an nca-anki cache (no CACHEDIR.TAG); nothing in it "
               "was read or deleted); name a new or empty folder" in str(d)
               for d in report.diagnostics)
    assert sorted((p.relative_to(theirs), p.read_bytes()) for p in theirs.rglob("*")
                  if p.is_file()) == before


def test_a_note_s_key_tells_apart_texts_that_join_alike():
    """The render cache's note key is taken over the texts themselves: a prompt ending in
    what another question's first choice begins with (a control character between) is
    another key."""
    from nca_anki.records import Choice, Layout, Question
    from nca_anki.rendering import note_key

    layout = Layout(order=(0,), pinned=frozenset(), shuffle=False)
    a = Question(number=1, prompt="x\x1f1y", choices=(Choice("z", False),), explanation="e")
    b = Question(number=1, prompt="x", choices=(Choice("y\x1f0z", True),), explanation="e")
    assert note_key(1, a, layout) != note_key(1, b, layout)
    moved = Question(number=7, prompt="x\x1f1y", choices=(Choice("z", False, line=40),),
                     explanation="e", path="other.txt", line=39)  # renumbered, moved
    assert note_key(1, a, layout) == note_key(1, moved, layout) != note_key(2, a, layout)


@pytest.mark.parametrize("folder", ["parsed", RENDERED_NAME])
def test_a_named_pipe_among_the_cache_entries_is_refused_not_waited_on(project, folder):
    """Opening a named pipe waits for a writer for ever: an entry that is one is
    ignored with a warning, as a damaged one is, and the build goes on."""
    assert build(options()).ok
    entries = sorted((project / CACHE / folder).iterdir())
    assert len(entries) == 3
    for entry in entries:
        entry.unlink()
        os.mkfifo(entry)
    css = project / "templates" / "style.css"  # every topic built again: every entry read
    css.write_text(css.read_text(encoding="utf-8") + "\n/* again */\n", encoding="utf-8")
    report = build(options())
    assert report.ok
    refused = [d for d in report.diagnostics
               if d.code == "W601" and "not a regular file" in d.message]
    assert sorted(d.path for d in refused) == [e.relative_to(project).as_posix() for e in entries]


def test_a_render_cache_entry_that_inflates_past_its_bound_is_not_inflated(project, monkeypatch):
    """A foreign entry is only checked once read: one that would inflate to more than an
    entry can hold (a zip bomb) is refused at the bound, not inflated into memory."""
    assert build(options()).ok
    for entry in (project / CACHE / RENDERED_NAME).glob("*.z"):
        entry.write_bytes(zlib.compress(b"{" + b" " * (50 << 20), 9))  # 50 MB in 50 KB
    source = project / "source" / AI
    source.write_text(source.read_text(encoding="utf-8").replace(
        "Which NVIDIA GPU architecture first", "Which NVIDIA GPU architecture was the first"),
        encoding="utf-8")
    seen = _prompts(monkeypatch)
    report = build(options())
    assert report.ok
    (warned,) = [d for d in report.diagnostics if d.code == "W601"]
    assert "does not inflate to what an entry holds" in warned.message
    assert len(seen) == 7  # the edited topic, rendered again whole
