"""Every question an import reads is written or left out by an error at its own place
(issue 46: "every question left out named at its own line in the input"): driven through
many odd banks of every format, the fixtures of tests/importing and some of our own, the
counts always add up (read = converted + refused), each refusal is at its own place, and
the files on disk hold every question converted (none written over another)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import test_csv_detect as csv_cases
import test_gift_moodle_damage as damage_cases
import test_markdown_text as markdown_cases
from conftest import REPO, as_read, built_and_imported
from nca_anki.importing import convert as convert_module
from nca_anki.importing.run import import_banks
from nca_anki.reading.parse import parse

FIXTURES = REPO / "tests" / "fixtures" / "import"
LOST = "a bug of the importer"


def _chapter(title: str, questions: list[tuple[str, list[str], int]]) -> str:
    """A JavaScript bank: export default {name, json: [{title, answers: [{text, valid}]}]}."""
    bank = {"name": title, "json": [
        {"title": prompt, "answers": [{"text": t, "valid": k == right}
                                      for k, t in enumerate(texts)]}
        for prompt, texts, right in questions]}
    return f"export default {json.dumps(bank, ensure_ascii=False, indent=2)}\n"


# Banks of our own: what tends to go missing between reading and writing.
OWN = {
    # Two topics whose titles are in another script: one slug "topic" wrote the second
    # topic's file over the first's.
    "two Cyrillic topics": {
        "seti.js": _chapter("Сети", [("Какой порт у HTTP?", ["80", "22", "25"], 0),
                                     ("Какой порт у SSH?", ["21", "22"], 1)]),
        "bazy.js": _chapter("Базы данных", [("Что такое SQL?", ["язык", "сеть"], 0)]),
    },
    # Titles that differ only in punctuation make one file name: one topic.
    "titles of one slug": {
        "a.json": json.dumps({"title": "Networks: Basics", "questions": [
            {"question": "Which layer routes?", "options": ["Network", "Link"], "answer": 0}]}),
        "b.json": json.dumps({"title": "Networks - Basics", "questions": [
            {"question": "Which layer frames?", "options": ["Link", "Network"], "answer": 0}]}),
    },
    "refusals of every kind in one list": {
        "odd.json": json.dumps([
            {"question": "Which is even?", "options": ["2", "3"], "answer": 0},
            {"question": "Which is even?", "options": ["2", "3"], "answer": 0},  # repeat
            {"question": "Which twice?", "options": ["same", "other", "same"], "answer": 1},
            {"question": "Which none?", "options": ["a", "b"]},  # no answer
            {"question": "Which one only?", "options": ["a"], "answer": 0},
            {"question": "Which of many?", "options": [str(k) for k in range(12)],
             "answer": 3},
            {"question": "Which shows a picture? ![x](missing.png)", "options": ["a", "b"],
             "answer": 0},
            {"question": "Which is odd?", "options": ["2", "3"], "answer": 1}]),
    },
    "one line of JSON, many refusals on it": {
        # the mark written into a choice's text: the question file reads "x" twice
        "line.json": json.dumps([{"q": "Which twice?", "a": ["x", "y", "x (Correct answer)"],
                                  "ok": 0}] * 3
                                + [{"q": "Which fine?", "a": ["x", "y"], "ok": 1}]),
    },
    "markdown with a repeat and a choice-less heading": {
        "page.md": "# Quiz\n\n## Which is red?\n- [x] Mars\n- [ ] Venus\n\n"
                   "## Which is red?\n- [x] Mars\n- [ ] Venus\n\n## What is blue?\n\n"
                   "## Which is big?\n- [x] Jupiter\n- [ ] Mercury\n",
    },
    "yaml, aiken and csv side by side": {
        "q.yaml": "- question: Which sea is salty?\n  answers: [Dead Sea, Lake Baikal]\n"
                  "  answer: 0\n- question: Which lake is deep?\n  answers: [Baikal, Baikal]"
                  "\n  answer: 0\n",
        "q.txt": "Which river is long?\nA. Nile\nB. Thames\nANSWER: A\n\n"
                 "Which river is short?\nA. River Reprua\nB. River Reprua\nANSWER: B\n",
        "q.csv": "Question,A,B,Answer\nWhich desert is cold?,Gobi,Sahara,A\n"
                 "Which desert is hot?,Sahara,,\n",
    },
}


def _cases() -> list[tuple[str, dict[str, str | bytes]]]:
    cases: list[tuple[str, dict[str, str | bytes]]] = [
        (f"fixture {path.name}", {path.name: path.read_bytes()})
        for path in sorted(FIXTURES.glob("*.*"))]
    cases += [(f"own: {what}", dict(files)) for what, files in OWN.items()]
    cases += [(f"gift: {c[0]}", {"bank.gift": c[1]}) for c in damage_cases.GIFT_DAMAGE]
    cases += [(f"gift credit: {c[0]}", {"bank.gift": c[1]}) for c in damage_cases.GIFT_CREDIT]
    cases += [(f"markdown: {what}", {"bank.md": text})
              for what, text in markdown_cases.SHAPES.items()]
    cases += [(f"markdown damaged: {what}", {"bank.md": text.replace("{header}", "####")})
              for what, text in markdown_cases.CHECKBOX_DAMAGED.items()]
    cases += [(f"csv: {what}", {"bank.csv": case[0]})
              for what, case in csv_cases.UNCLOSED.items()]
    cases += [(f"separated: {what}", {case[0]: case[1]})
              for what, case in csv_cases.SEPARATED.items()]
    cases += [(f"misleading: {what}", {case[0]: case[1]})
              for what, case in csv_cases.MISLEADING.items()]
    return cases


CASES = _cases()


def _on_disk(out: Path) -> int:
    """The questions the files in ``out`` hold, as the build reads them."""
    return sum(len(parse(p.read_text(encoding="utf-8"), p.name).file.questions)
               for p in out.glob("*.txt"))


def _imported(tmp_path: Path, files: dict[str, str | bytes]):
    names = []
    for name, text in files.items():
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        names.append(path.as_posix())
    if (FIXTURES / "images").is_dir():  # the fixtures' pictures, beside them
        for image in (FIXTURES / "images").iterdir():
            (tmp_path / "in" / "images").mkdir(exist_ok=True)
            (tmp_path / "in" / "images" / image.name).write_bytes(image.read_bytes())
    return import_banks(names, None, tmp_path / "out", None)


def _assert_accounted(imported, out: Path) -> None:
    converted = sum(part.questions for part in imported.written)
    assert imported.read == converted + imported.not_converted, imported.problems
    places = [(d.path, d.line, d.message) for d in imported.refusals]
    assert len(set(places)) == len(places), places
    assert all(d.line > 0 for d in imported.refusals), imported.refusals
    assert not [d for d in imported.problems if LOST in d.message]
    assert len({part.name for part in imported.written}) == len(imported.written)
    assert _on_disk(out) == converted


@pytest.mark.parametrize("files", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_every_question_read_is_written_or_refused_at_its_place(tmp_path, files):
    imported = _imported(tmp_path, files)
    _assert_accounted(imported, tmp_path / "out")


def test_two_topics_in_another_script_are_two_files_each_whole(tmp_path):
    imported = _imported(tmp_path, OWN["two Cyrillic topics"])
    assert sorted(part.topic for part in imported.written) == ["Базы данных", "Сети"]
    assert imported.read == 3 and _on_disk(tmp_path / "out") == 3
    assert len(list((tmp_path / "out").glob("*.txt"))) == 2


def test_titles_the_same_but_for_punctuation_are_one_topic_of_two_parts(tmp_path):
    imported = _imported(tmp_path, OWN["titles of one slug"])
    assert [(p.name, p.topic, p.part) for p in imported.written] == [
        ("networks-basics-1.txt", "Networks: Basics", 1),
        ("networks-basics-2.txt", "Networks: Basics", 2)]
    assert _on_disk(tmp_path / "out") == 2


def test_a_question_lost_between_reading_and_writing_is_said_at_its_place(tmp_path,
                                                                         monkeypatch):
    # A conversion that drops a question with no word (a bug) is caught where readings
    # become written questions: the question is named at its place, as our bug.
    real = convert_module._written

    def dropping(title, part, items, name):
        return real(title, part, items[1:], name)

    monkeypatch.setattr(convert_module, "_written", dropping)
    bank = tmp_path / "in" / "two.json"
    bank.parent.mkdir()
    bank.write_text(json.dumps([
        {"question": "Which is first?", "options": ["one", "two"], "answer": 0},
        {"question": "Which is second?", "options": ["one", "two"], "answer": 1}],
        indent=1), encoding="utf-8")
    imported = import_banks([bank.as_posix()], None, tmp_path / "out", None)
    [lost] = [d for d in imported.problems if LOST in d.message]
    assert (lost.code, lost.line) == ("E704", 2)
    assert imported.read == 2 and imported.not_converted == 1
    assert sum(part.questions for part in imported.written) == 1


def test_a_repeat_of_a_question_left_out_does_not_say_the_first_was_converted(tmp_path):
    imported = _imported(tmp_path, OWN["one line of JSON, many refusals on it"])
    said = sorted(d.message for d in imported.refusals)
    assert said[0].startswith("[0] cannot be written as a question file: choice C")
    assert [m.split(";", 1)[1] for m in said[1:]] == [
        " neither was converted (the first says why)"] * 2


def _in_anki(tmp_path: Path) -> dict[str, list[str]]:
    """Build tmp_path/out and import its decks into a new collection: each card's prompt
    and its choices as shown, sorted, "*" before each the card counts right."""
    _, decks = built_and_imported(tmp_path, source="out")
    return {prompt: sorted(choices) for cards in decks.values()
            for prompt, choices, _ in map(as_read, cards)}


@pytest.mark.anki
def test_a_quiz_about_markup_in_two_scripts_arrives_in_anki_whole(tmp_path):
    # Choices that are only a tag, or a Markdown mark alone, render to nothing but for
    # their text; two Cyrillic topics are two decks, neither written over the other.
    files = {
        "tags.json": json.dumps([
            {"question": "Which tag breaks a line?", "choices": ["<hr>", "<br>", "<p>"],
             "answer": "<br>"},
            {"question": "Which tag marks a key to press?",
             "choices": ["<kbd></kbd>", "<sub></sub>", "<em></em>"], "answer": "<kbd></kbd>"},
            {"question": "Which sign starts a bullet in Markdown?",
             "choices": ["#", "-", ">"], "answer": "-"},
            {"question": "<br>", "choices": ["a line break", "a rule"],
             "answer": "a line break"}]),
        **OWN["two Cyrillic topics"]}
    imported = _imported(tmp_path, files)
    _assert_accounted(imported, tmp_path / "out")
    assert imported.not_converted == 0, imported.problems
    cards = _in_anki(tmp_path)
    assert cards["Which tag breaks a line?"] == ["*<br>", "<hr>", "<p>"]
    assert cards["Which tag marks a key to press?"] == [
        "*<kbd></kbd>", "<em></em>", "<sub></sub>"]
    assert cards["Which sign starts a bullet in Markdown?"] == ["#", "*-", ">"]
    assert cards["<br>"] == ["*a line break", "a rule"]
    assert cards["Какой порт у SSH?"] == ["*22", "21"]
    assert cards["Что такое SQL?"] == ["*язык", "сеть"]
    assert len(cards) == 7


@pytest.mark.parametrize("page, written", [
    ("The &lt;br&gt; tag breaks a line", "The \\<br> tag breaks a line"),
    ("&lt;sub&gt;2&lt;/sub&gt; is <b>low</b>", "\\<sub>2\\</sub> is **low**"),
    ("&#60;KBD&#62;Esc&lt;/kbd&gt;", "\\<KBD>Esc\\</kbd>"),
    ("<code>&lt;br&gt;</code> in code", "`<br>` in code"),  # code is text anyway
    ("a &lt;div&gt; stays", "a <div> stays"),  # a card shows it as text: no escape needed
    ("H<sub>2</sub>O", "H₂O"),
])
def test_a_tag_a_page_wrote_escaped_is_text_in_the_question_file(page, written):
    from nca_anki.cards.markup import Markdown
    from nca_anki.importing.bank import html_to_markdown

    assert html_to_markdown(page) == written
    shown = Markdown().inline(written).html
    assert "<br>" not in shown and "<kbd>" not in shown.casefold()


def _many(n: int) -> None:
    """A conversion of ``n`` questions, every other one a repeat, and a page of ``n``
    escaped tags and code spans in one text."""
    from nca_anki.importing.bank import Choice, Item, Reading, Section, html_to_markdown
    from nca_anki.importing.convert import convert

    items = tuple(Item(prompt=f"Which is number {k // 2}?", explanation="", path="b.json",
                       line=k + 1, choices=(Choice(f"n{k // 2}", True), Choice("x", False)))
                  for k in range(n))
    done = convert([Reading((Section(title="Many", items=items, path="b.json"),))])
    assert sum(p.questions for p in done.parts) == (n + 1) // 2
    html_to_markdown("&lt;br&gt; `&lt;sub&gt;` " * n)


def test_the_ledger_and_escaped_tags_are_linear():
    from growth import least_cpu

    short = least_cpu(lambda: _many(500))
    long = least_cpu(lambda: _many(2_000))
    assert long < 8 * max(short, 0.02), (short, long)


def test_a_file_that_cannot_be_written_says_how_many_questions_were_not(tmp_path,
                                                                        monkeypatch):
    from nca_anki.importing import run
    from nca_anki.publishing.output import WriteError, write_atomic

    def full(path, data, durable=True):
        if path.name.startswith("second"):
            raise WriteError(path, "No space left on device")
        return write_atomic(path, data, durable)

    monkeypatch.setattr(run, "write_atomic", full)
    files = {f"{name}.json": json.dumps({"title": name.capitalize(), "questions": [
        {"question": f"Which {name} {k}?", "options": ["yes", "no", "maybe"], "answer": 0}
        for k in range(n)]}) for name, n in (("first", 1), ("second", 2), ("third", 3))}
    imported = _imported(tmp_path, files)
    [failed] = [d for d in imported.problems if d.code == "E501"]
    assert failed.message == ("No space left on device; its 2 questions were not written, "
                              "nor the 3 of 1 file after it")
    assert sum(p.questions for p in imported.written) == 1
