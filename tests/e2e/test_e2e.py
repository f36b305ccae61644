"""End to end: build real packages and import them into a real Anki collection.

No mock stands in for Anki here: ``anki_client`` drives the official ``anki`` package (the
Rust backend of Anki desktop). Expected content is read from the source files with a
simple independent reading of the format, not from the parser under test.
"""

from __future__ import annotations

import html
import re
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

from anki_client import (cards_in_deck, deck_names, html_to_text, import_package, note_type_names,
                         open_collection, review_all_new, revlog_count)
from conftest import REPO
from conftest import CACHE, archive_entries
from nca_anki.files import CACHE_FOLDERS, INDEX_FILES, is_bundle
from nca_anki.reading.published import read_deck
from nca_anki.records import NOTE_TYPE_NAME
from conftest import edit

DECKS = {
    "nca-ai-deep-learning-frameworks-4.txt":
        ("NCA::AI & Deep Learning Frameworks", "ai-deep-learning-frameworks.apkg", 7),
    "deep-learning-training-techniques-and-optimization-2.txt":
        ("NCA::Deep Learning Training Techniques and Optimization",
         "deep-learning-training-techniques-and-optimization.apkg", 6),
    "neural-network-applications-and-frameworks-2.txt":
        ("NCA::Neural Network Applications and Frameworks",
         "neural-network-applications-and-frameworks.apkg", 6),
}


def read_questions(path: Path) -> list[dict]:
    """An independent, minimal reading of a well-formed question file."""
    questions: list[dict] = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if m := re.match(r"Question \d+: (.*)", line):
            questions.append({"prompt": m.group(1), "choices": [], "explanation": []})
        elif questions and line.startswith("- ") and not questions[-1]["explanation"]:
            text = line[2:]
            correct = text.endswith(" (Correct answer)")
            text = text.removesuffix(" (Correct answer)")
            questions[-1]["choices"].append(text)
            if correct:
                questions[-1]["answer"] = text
        elif questions and line.startswith("Correct answer: "):
            questions[-1]["explanation"].append("")
        elif questions and questions[-1]["explanation"]:
            questions[-1]["explanation"].append(line)
    for q in questions:
        q["explanation"] = " ".join(line for line in q["explanation"] if line).strip()
    return questions


def text(fragment: str) -> str:
    return html_to_text(html.escape(fragment))


# The note type's own script, the only script a card may carry (templates/card.js).
# The card's script (templates/card.js, minified into the note type: its first statement).
_CARD_SCRIPT_RE = re.compile(r"<script>\s*window\.NcaMcq=\(function\(\).*?</script>",
                             re.DOTALL)


def without_card_script(card_html: str) -> str:
    return _CARD_SCRIPT_RE.sub("", card_html)


def static_letters(card_html: str) -> dict[str, str]:
    """Choice text -> the letter the card shows it under without JavaScript."""
    return {html_to_text(body): label for label, body in re.findall(
        r'<span class="nca-label">([A-J])</span> <span class="nca-text">(.*?)</span></li>',
        card_html)}


@pytest.fixture
def col(tmp_path: Path):
    collection = open_collection(tmp_path / "anki" / "collection.anki2")
    yield collection
    collection.close()


@pytest.mark.anki
def test_seed_decks_import_with_clean_names_and_full_cards(project, cli, col):
    run = cli()
    assert run.status == 0, run.err
    built = sorted(p.name for p in (project / "dist").glob("*.apkg"))
    assert built == sorted([*(apkg for _, apkg, _ in DECKS.values()), "nca_all_topics.apkg"])
    positions: Counter[str] = Counter()

    for source_name, (deck, apkg, count) in DECKS.items():
        counts = import_package(col, project / "dist" / apkg)
        assert counts.new == count
        cards = cards_in_deck(col, deck)
        assert len(cards) == count
        expected = read_questions(project / "source" / source_name)
        assert len(expected) == count  # the footer is not a question
        for card, q in zip(cards, expected, strict=True):
            front = html_to_text(card.question_html)
            back = html_to_text(card.answer_html)
            assert text(q["prompt"]) in front
            for choice in q["choices"]:
                assert text(choice) in front
            # Nothing on the front gives the answer away.
            assert "correct" not in front.lower()
            assert "data-answer" not in without_card_script(card.question_html)
            assert text(q["explanation"][:40]) not in front
            # Every choice is labelled once; the back names and marks the correct one by
            # the letter the card shows it under.
            letters = static_letters(card.question_html)
            assert sorted(letters) == sorted(text(c) for c in q["choices"])
            assert sorted(letters.values()) == list("ABCDEFGHIJ"[:len(q["choices"])])
            letter = letters[text(q["answer"])]
            assert f"Answer: {letter}" in back
            assert f'data-answer="{letter}"' in card.answer_html
            assert text(q["answer"]) in back
            assert text(q["explanation"][:60]) in back
            assert card.fields["Answer"] == letter
            positions[letter] += 1

    # The static order gives nothing away: no letter holds more than 40% of the answers.
    assert sum(positions.values()) == 19
    assert max(positions.values()) / 19 <= 0.4, positions

    names = set(deck_names(col))
    assert {deck for deck, _, _ in DECKS.values()} <= names
    for name in names:
        assert "Questions and Answers" not in name
        assert not re.search(r"\d$", name)
        assert "Neural Network Neural Network" not in name
        assert "β" not in name
    assert note_type_names(col).count(NOTE_TYPE_NAME) == 1


def insert_question_at_top(path: Path) -> None:
    """Insert a question before Question 1 and renumber every question after it."""
    lines = path.read_bytes().decode("utf-8").split("\n")
    renumbered = [re.sub(r"^Question (\d+):", lambda m: f"Question {int(m.group(1)) + 1}:", line)
                  for line in lines]
    new = ["Question 1: What does NCCL provide for multi-GPU training?",
           "- A model file format", "- Optimised collective communication such as all-reduce "
           "(Correct answer)", "- A data-loading library",
           "Correct answer: Optimised collective communication such as all-reduce",
           "NCCL implements collectives like all-reduce over NVLink and InfiniBand."]
    path.write_bytes("\n".join(renumbered[:1] + new + renumbered[1:]).encode("utf-8"))


@pytest.mark.anki
def test_rebuild_after_edits_updates_notes_in_place_keeping_history(
        project, cli, col, monkeypatch):
    deck, apkg, count = DECKS["nca-ai-deep-learning-frameworks-4.txt"]
    source = project / "source" / "nca-ai-deep-learning-frameworks-4.txt"
    assert cli().status == 0
    import_package(col, project / "dist" / apkg)
    assert review_all_new(col, deck) == count
    before = {c.guid: c for c in cards_in_deck(col, deck)}
    history = revlog_count(col)
    assert history == count
    note_types = note_type_names(col)
    decks = deck_names(col)

    edit(source, "Which NVIDIA GPU architecture first introduced",
         "Which NVIDIA GPU architecture was the first to introduce")
    edit(source, "eliminating CPU bottlenecks in training pipelines.",
         "removing CPU bottlenecks from training pipelines.")
    insert_question_at_top(source)
    run = cli()
    assert run.status == 0, run.err
    assert "8 questions (1 new, 2 changed, 5 unchanged)" in run.out

    counts = import_package(col, project / "dist" / apkg)
    assert (counts.new, counts.updated, counts.duplicate, counts.conflicting) == (1, 2, 5, 0)
    after = {c.guid: c for c in cards_in_deck(col, deck)}
    assert len(after) == count + 1
    assert set(before) < set(after)
    for guid, old in before.items():
        new = after[guid]
        assert (new.card_id, new.reps, new.ivl, new.due, new.queue) == \
            (old.card_id, old.reps, old.ivl, old.due, old.queue)
    assert revlog_count(col) == history
    assert note_type_names(col) == note_types
    assert deck_names(col) == decks
    texts = " ".join(html_to_text(c.question_html) for c in after.values())
    assert "was the first to introduce" in texts
    backs = " ".join(html_to_text(c.answer_html) for c in after.values())
    assert "removing CPU bottlenecks from training pipelines." in backs
    changed = [g for g in before if after[g].note_mod != before[g].note_mod]
    assert len(changed) == 2
    assert all(after[g].note_mod > before[g].note_mod for g in changed)
    assert all(after[g].note_mod <= time.time() for g in after)


FIXTURES = REPO / "tests" / "fixtures"


def a_learner_of(col, decks: Path) -> tuple[dict, list[str]]:
    """``col`` as a learner's who imported the three seed decks in ``decks`` and reviewed
    every card once: its cards by GUID, and its note type names."""
    old_decks = sorted(decks.glob("*.apkg"))
    assert len(old_decks) == 3
    for path in old_decks:
        assert import_package(col, path).new > 0
    assert sum(review_all_new(col, deck) for deck, _, _ in DECKS.values()) == 19
    before = {c.guid: c for deck, _, _ in DECKS.values() for c in cards_in_deck(col, deck)}
    return before, note_type_names(col)


def rebuilt_and_reimported(project: Path, cli, col) -> Counter:
    """Build the project, import its three seed decks into ``col``: Anki's counts."""
    assert cli().status == 0
    totals: Counter = Counter()
    for _, apkg, _ in DECKS.values():
        counts = import_package(col, project / "dist" / apkg)
        totals.update(new=counts.new, updated=counts.updated, conflicting=counts.conflicting,
                      duplicate=counts.duplicate)
    return totals


def reimported_in_place(project: Path, cli, col, before: dict, note_types: list) -> list:
    """Rebuild and re-import over ``col`` (a learner of older decks: a_learner_of), check
    that nothing was added or duplicated and every card kept its identity and history, and
    return today's cards."""
    totals = rebuilt_and_reimported(project, cli, col)
    assert totals["new"] == 0 and totals["conflicting"] == 0
    after = {c.guid: c for deck, _, _ in DECKS.values() for c in cards_in_deck(col, deck)}
    assert set(after) == set(before) and col.note_count() == 19
    for guid, old in before.items():
        new = after[guid]
        assert (new.card_id, new.note_id, new.reps, new.ivl, new.due) == \
            (old.card_id, old.note_id, old.reps, old.ivl, old.due)
    assert note_type_names(col) == note_types  # no "+" copy of the note type
    assert revlog_count(col) == 19
    return list(after.values())


@pytest.mark.anki
def test_new_card_reaches_learners_of_the_first_decks_in_place(project, cli, col):
    """Learners who imported the first published decks (tests/fixtures/decks-v0.1, copied
    from dist/ before the interactive card) re-import the new ones: the same notes are
    updated, the note type is replaced in place, nothing conflicts, history stays."""
    before, note_types = a_learner_of(col, FIXTURES / "decks-v0.1")
    assert "NcaMcq" not in next(iter(before.values())).question_html

    assert rebuilt_and_reimported(project, cli, col) == Counter(updated=19)
    after = {c.guid: c for deck, _, _ in DECKS.values() for c in cards_in_deck(col, deck)}
    assert set(after) == set(before)
    for guid, old in before.items():
        new = after[guid]
        assert (new.card_id, new.reps, new.ivl, new.due, new.queue) == \
            (old.card_id, old.reps, old.ivl, old.due, old.queue)
        assert 'NcaMcq.start("front", {' in new.question_html
        assert 'NcaMcq.start("back", {' in new.answer_html
    assert revlog_count(col) == 19
    assert note_type_names(col) == note_types  # no "+" copy of the note type
    assert note_types.count(NOTE_TYPE_NAME) == 1


@pytest.mark.anki
def test_learners_of_the_decks_before_commonmark_get_the_new_card_in_place(project, cli, col):
    """tests/fixtures/decks-before-commonmark holds dist/ as committed before issue 21
    (6266cbd: Python-Markdown, bold prompts, no code colours). Re-importing today's decks
    updates the note type in place (its id, fields and template names kept): no "+" copy,
    no new note, every card's history kept."""
    before, note_types = a_learner_of(col, FIXTURES / "decks-before-commonmark")
    assert "nca-prose" not in next(iter(before.values())).css
    for new in reimported_in_place(project, cli, col, before, note_types):
        assert ".nca-prose" in new.css and "--nca-code-keyword" in new.css


@pytest.mark.anki
def test_learner_edit_survives_rebuild_of_other_questions(project, cli, col):
    deck, apkg, _ = DECKS["deep-learning-training-techniques-and-optimization-2.txt"]
    source = project / "source" / "deep-learning-training-techniques-and-optimization-2.txt"
    assert cli().status == 0
    import_package(col, project / "dist" / apkg)
    first = cards_in_deck(col, deck)[0]
    note = col.get_note(first.note_id)
    note["Explanation"] = "my own mnemonic"
    col.update_note(note)

    edit(source, "What is cosine annealing", "What is cosine-annealing")
    assert cli().status == 0
    counts = import_package(col, project / "dist" / apkg)
    assert counts.updated == 1
    assert cards_in_deck(col, deck)[0].fields["Explanation"] == "my own mnemonic"


@pytest.mark.anki
def test_template_edit_updates_the_note_type_in_place(project, cli, col):
    deck, apkg, _ = DECKS["deep-learning-training-techniques-and-optimization-2.txt"]
    assert cli().status == 0
    import_package(col, project / "dist" / apkg)
    names = note_type_names(col)
    css = project / "templates" / "style.css"
    css.write_text(css.read_text() + "\n.nca-prompt { letter-spacing: 0.01em; }\n")
    run = cli()
    assert run.status == 0
    assert run.out.startswith("card templates changed: the decks carry the new layout\n")
    counts = import_package(col, project / "dist" / apkg)
    assert counts.conflicting == 0 and counts.new == 0
    assert note_type_names(col) == names
    assert "letter-spacing: 0.01em" in cards_in_deck(col, deck)[0].css


def test_same_source_gives_identical_bytes_in_other_folders_and_times(project, cli, tmp_path,
                                                                      monkeypatch):
    assert cli().status == 0
    first = published(project / "dist")
    time.sleep(1.1)
    other = tmp_path / "elsewhere" / "clone"
    shutil.copytree(project / "source", other / "source")
    shutil.copytree(project / "templates", other / "templates")
    monkeypatch.chdir(other)
    assert cli().status == 0
    second = published(other / "dist")
    assert first == second
    assert sorted(first) == sorted([*(apkg for _, apkg, _ in DECKS.values()),
                                    "nca_all_topics.apkg", "CHANGELOG.md", "README.md",
                                    "manifest.json"])


def published(dist: Path) -> dict[str, bytes]:
    """Every published file in ``dist`` (not the git-ignored caches), by name."""
    return {p.name: p.read_bytes() for p in dist.iterdir()
            if p.is_file() and not p.name.startswith(".")}


def test_committed_decks_match_the_committed_source(project, cli):
    """dist/ in the repository is what its source/ builds over the published dist/ (the
    versions' record and retired questions live there): nobody forgot to rebuild. Built
    from the source alone, every note is still the same."""
    from conftest import REPO
    committed = {p.name: archive_entries(p) for p in (REPO / "dist").glob("*.apkg")}
    index = {name: (REPO / "dist" / name).read_bytes() for name in INDEX_FILES}
    assert cli().status == 0
    assert {p.name: [(n.guid, n.mod, n.fields) for n in read_deck(p.read_bytes()).notes]
            for p in (project / "dist").glob("*.apkg") if not is_bundle(p.name)} == {
        p.name: [(n.guid, n.mod, n.fields) for n in read_deck(p.read_bytes()).notes]
        for p in (REPO / "dist").glob("*.apkg") if not is_bundle(p.name)}
    shutil.rmtree(project / "dist")
    shutil.copytree(REPO / "dist", project / "dist",
                    ignore=shutil.ignore_patterns(".*"))  # as a fresh clone has it
    assert cli().status == 0
    assert committed == {p.name: archive_entries(p) for p in (project / "dist").glob("*.apkg")}
    assert index == {name: (project / "dist" / name).read_bytes() for name in INDEX_FILES}


@pytest.mark.anki
def test_broken_topic_keeps_its_last_good_deck_and_others_build(project, cli, col):
    assert cli().status == 0
    dist = project / "dist"
    broken_deck = dist / "neural-network-applications-and-frameworks.apkg"
    good_before = broken_deck.read_bytes()
    mtime = broken_deck.stat().st_mtime_ns

    broken = project / "source" / "neural-network-applications-and-frameworks-2.txt"
    edit(broken, "Correct answer: Automated methods to discover optimal architecture "
         "configurations using search algorithms",
         "Correct answer: Manually designing optimal neural network architectures")
    lines = broken.read_text(encoding="utf-8").split("\n")
    q5 = lines.index(next(line for line in lines if line.startswith("Question 5:")))
    del lines[q5 + 1:q5 + 5]  # Question 5 loses its four choices
    broken.write_text("\n".join(lines), encoding="utf-8")
    other = project / "source" / "deep-learning-training-techniques-and-optimization-2.txt"
    edit(other, "What is mixed precision training?", "What is mixed-precision training?")

    run = cli()
    assert run.status == 1
    path = "source/neural-network-applications-and-frameworks-2.txt"
    errors = [line for line in run.err.splitlines() if ": error[" in line]
    assert errors == [
        f"{path}:14: error[E121]: 'Correct answer: Manually designing optimal neural network "
        "architectures' disagrees with the choice marked '(Correct answer)' at line 11: "
        "'Automated methods to discover optimal architecture configurations using search …'; "
        "copy the marked choice exactly",
        f"{path}:{q5 + 1}: error[E117]: Question 5 has no choices; list them as '- <choice>' "
        "lines after the prompt",
    ]
    assert "Traceback" not in run.err
    assert broken_deck.read_bytes() == good_before
    assert broken_deck.stat().st_mtime_ns == mtime
    assert "NCA::Neural Network Applications and Frameworks: failed" in run.out
    assert re.search(r"Optimization: 6 questions \(1 changed, 5 unchanged\) -> \S+ written",
                     run.out)
    assert "AI & Deep Learning Frameworks: 7 questions (7 unchanged)" in run.out
    counts = import_package(col, broken_deck)  # the kept deck is still a good deck
    assert counts.new == 6


def test_hostile_titles_write_only_inside_the_output_folder(project, cli, tmp_path):
    source = project / "source"
    body = ("Question 1: Q?\n- a (Correct answer)\n- b\nCorrect answer: a\nBecause.\n")
    (source / "slash.txt").write_text(f"TCP/IP: Basics 1 — Questions and Answers\n{body}")
    (source / "dots.txt").write_text(f"../../../escape 1 — Questions and Answers\n{body}")
    before = set(tmp_path.rglob("*"))
    run = cli()
    assert run.status == 0, run.err
    created = {p for p in set(tmp_path.rglob("*")) - before if p.is_file()}
    dist = (project / "dist").resolve()
    assert created - {source / "nca-anki.lock"}
    # Besides the decks, the lock and the project's cache: the render cache's key, in the
    # user's own cache folder (the test's: conftest sets XDG_CACHE_HOME).
    key = (tmp_path / "user-cache" / "nca-anki" / "render.key").resolve()
    for path in created - {source / "nca-anki.lock"}:
        cache = (project / CACHE).resolve()
        folders = (dist, cache, *(cache / name for name, _ in CACHE_FOLDERS))
        assert path.resolve().parent in folders or path.resolve() == key, path
    assert (project / "dist" / "tcp-ip-basics.apkg").is_file()
    assert (project / "dist" / "escape.apkg").is_file()


@pytest.mark.anki
def test_source_markup_is_shown_as_text_in_anki(project, cli, col):
    source = project / "source"
    (source / "xss.txt").write_text(
        "Web Safety 1 — Questions and Answers\n"
        "Question 1: Is <script>alert(1)</script> `<b>code</b>` **bold**?\n"
        "- <img src=x onerror=alert(2)> (Correct answer)\n"
        "- [link](javascript:alert(3))\n"
        "Correct answer: <img src=x onerror=alert(2)>\n"
        "Explanation with <iframe src=evil></iframe>\n", encoding="utf-8")
    assert cli().status == 0
    import_package(col, project / "dist" / "web-safety.apkg")
    card, = cards_in_deck(col, "NCA::Web Safety")
    for rendered in (card.question_html, card.answer_html):
        assert rendered.count("<script") == 1  # the card's own script
        rendered = without_card_script(rendered)
        assert "<script" not in rendered and "<img" not in rendered
        assert "<iframe" not in rendered and "href" not in rendered.lower()
    # CommonMark makes no link to a javascript: address: the text is shown as written.
    assert "[link](javascript:alert(3))" in card.question_html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in card.question_html
    assert "<code>&lt;b&gt;code&lt;/b&gt;</code>" in card.question_html
    assert "<strong>bold</strong>" in card.question_html


def test_build_leaves_no_temporary_files(project, cli, tmp_path, monkeypatch):
    # A private temp folder: the system one is shared with every other process.
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert cli().status == 0
    assert cli().status == 0
    assert list(temp.iterdir()) == []
    for folder in (project / "dist", project / "source"):
        assert not [p for p in folder.iterdir() if p.name.startswith(".")]




@pytest.mark.anki
def test_media_tags_in_question_text_are_words_not_media_in_anki(project, cli, col):
    # "[sound:x.mp3]" in a question about Anki would be an audio player for a missing
    # file; "[anki:tts]" would speak. Both are shown as the text they are.
    path = project / "source" / "nca-ai-deep-learning-frameworks-4.txt"
    text = path.read_text(encoding="utf-8")
    text = text.replace("What problem does gradient clipping solve",
                        "After [sound:x.mp3] and [anki:tts lang=en_US]hi[/anki:tts], what "
                        "problem does gradient clipping solve")
    path.write_text(text, encoding="utf-8")
    assert cli().status == 0
    import_package(col, project / "dist" / "ai-deep-learning-frameworks.apkg")
    (card,) = [c for c in col.find_cards("gradient clipping")
               if "sound" in col.get_card(c).note()["Prompt"]]
    output = col.get_card(card).render_output(reload=True)
    assert output.question_av_tags == [] and output.answer_av_tags == []
    shown = html_to_text(output.question_text)
    assert "After [sound:x.mp3] and [anki:tts lang=en_US]hi[/anki:tts], what problem" in shown


@pytest.mark.anki
def test_learners_of_the_decks_before_several_answers_get_the_new_card_in_place(project, cli,
                                                                                 col):
    """tests/fixtures/decks-before-several-answers holds dist/ as published before issues
    22 and 23 (0c97e0d: one answer, keys 1-9 and A-J, no media). Re-importing today's
    decks updates every note in place, the note type in place (no "+" copy), history kept,
    and the cards carry today's card (Alt+digit keys, tap targets, several answers)."""
    before, note_types = a_learner_of(col, FIXTURES / "decks-before-several-answers")
    assert "LETTER_KEYS" in next(iter(before.values())).question_html
    for new in reimported_in_place(project, cli, col, before, note_types):
        assert "LETTER_KEYS" not in new.question_html and "tappable" in new.question_html
        assert "min-height: 44px" in new.css and "data-nca-choose" in new.question_html
