"""What an import holds while it converts a large bank (issue 46, 3): a question already
clean is not copied, a written part's layout is worked out when a message asks for it
(not a tuple per line), the repeat check holds no second copy of each question's words,
and a reader's leftovers (Markdown blocks, an XML tree) are let go of once the file is
read. bench/import_speed.py measures the memory itself; these hold the behaviour."""

from __future__ import annotations

import gc
import weakref

import pytest

from nca_anki.importing import convert as conversion, moodle_xml, page
from nca_anki.importing.bank import Choice, Item, Reading, Section
from nca_anki.importing.convert import Layout, _clean, _render, _with_images, convert
from nca_anki.importing.run import import_banks


def _item(prompt: str, *choices: tuple[str, bool], explanation: str = "", line: int = 1
          ) -> Item:
    return Item(prompt=prompt, explanation=explanation, path="bank.md", line=line,
                choices=tuple(Choice(text, right) for text, right in choices))


def test_a_clean_question_is_the_same_object_and_a_messy_one_is_cleaned() -> None:
    clean = _item("Which port does SSH use?", ("22", True), ("80", False),
                  explanation="Port 22.")
    assert _clean(clean) is clean
    images = conversion._Images(lambda given, image: "", {})
    assert _with_images(clean, images) == (clean, "", False)
    messy = _item("\nWhich port does SSH use?  \n", ("22 ", True), ("80", False),
                  explanation="Port 22.   \n\n")
    cleaned = _clean(messy)
    assert cleaned.prompt == "Which port does SSH use?"
    assert [c.text for c in cleaned.choices] == ["22", "80"]
    assert cleaned.choices[1] is messy.choices[1]  # a clean choice is kept as it is
    assert cleaned.explanation == "Port 22."


def test_the_layout_names_each_line_of_a_written_part_as_the_text_has_it() -> None:
    first = _item("Which lines print `b`?\nGiven:", ("`print(b)`", True),
                  ("`print(a)`\n    # code below", False), explanation="It prints b.\nSee above.")
    second = _item("Which one is right?", ("Yes: one", False), ("Yes: one two", True), line=9)
    text, spans, layout = _render("Python", 2, [first, second])
    assert text == (
        "Python 2 — Questions and Answers\n"
        "Question 1: Which lines print `b`?\nGiven:\n"
        "- `print(b)` (Correct answer)\n- `print(a)`\n    # code below\n"
        "Correct answer: `print(b)`\nIt prints b.\nSee above.\n\n"
        "Question 2: Which one is right?\n- Yes: one\n- Yes: one two (Correct answer)\n"
        "Correct answer: Yes: one two\n")
    roles = [layout[n] for n in range(len(layout))]
    assert roles == [
        (-1, "its topic title"), (0, "its prompt"), (0, "its prompt"), (0, "choice A"),
        (0, "choice B"), (0, "choice B"), (0, "the mark on choice A"),
        (0, "its explanation"), (0, "its explanation"), (0, "its end"),
        (1, "its prompt"), (1, "choice A"), (1, "choice B"), (1, "the mark on choice B"),
        (1, "its end")]
    assert len(layout) == len(text.split("\n"))  # the blank line after the last included
    assert spans == [(2, 9), (11, 14)]
    assert layout[len(layout)] == layout[-1] == (-1, "its topic title")  # no such line
    assert Layout([], [], 1)[0] == (-1, "its topic title")


def test_a_part_without_questions_is_its_title_alone() -> None:
    text, spans, layout = _render("Python", 1, [])
    assert (text, spans, len(layout)) == ("Python 1 — Questions and Answers\n", [], 1)


def _reading(*items: Item) -> list[Reading]:
    return [Reading((Section(title="Networking", items=items, path="bank.md"),))]


def test_a_repeat_is_found_by_its_words_even_when_every_question_shares_a_hash(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conversion, "hash", lambda words: 7, raising=False)
    items = (_item("What is NCCL?", ("A library", True), ("A compiler", False)),
             _item("What is MPI?", ("A standard", True), ("A compiler", False), line=5),
             _item("What is  NCCL?", ("A  library", True), ("A compiler", False), line=9))
    done = convert(_reading(*items))
    assert [p.questions for p in done.parts] == [2]
    assert [(d.line, d.message) for d in done.problems] == [
        (9, "repeats the question at line 1 word for word; only the first was converted")]


def test_a_markdown_bank_s_blocks_are_not_kept_after_it_is_read(tmp_path) -> None:
    bank = tmp_path / "bank.md"
    bank.write_text("# Networking\n\n#### Q1. Which port does SSH use?\n- [x] 22\n- [ ] 80\n",
                    encoding="utf-8")
    done = import_banks([str(bank)], None, tmp_path / "out", None)
    assert done.written and not done.refusals
    assert page.blocks.cache_info().currsize == 0


def test_an_xml_tree_is_let_go_of_without_the_cycle_collector() -> None:
    text = ('<?xml version="1.0"?>\n<quiz><question type="multichoice"><questiontext>'
            '<text>Which port?</text></questiontext></question></quiz>\n')
    was = gc.isenabled()
    gc.disable()
    try:
        tree = moodle_xml._Tree(text)
        gone = weakref.ref(tree)
        assert tree.root.tag == "quiz" and tree.lines[tree.root] == 2
        del tree
        assert gone() is None
    finally:
        if was:
            gc.enable()
