"""The parser's steps one at a time (lines.py, title.py, questions.py, checks.py): each a
function of what it is given, returning frozen records and its diagnostics; parse() is
their sequence (tests/reading/test_parse.py tests the whole)."""

from __future__ import annotations

import dataclasses

import pytest

from nca_anki.reading.checks import check_numbers, check_question
from nca_anki.reading.lines import header, headers, prompts
from nca_anki.reading.parse import parse
from nca_anki.reading.questions import read_questions
from nca_anki.reading.title import find_footer, read_title, repair_damage
from nca_anki.records import Choice

DAMAGED = ("Sample Topic 2 β Questions and Answers",
           "Question 1: data β each?", "- a (Correct answer)", "- b", "Correct answer: a",
           "Because.",
           "Question 2: more β words?", "- c (Correct answer)", "- d", "Correct answer: c",
           "Why β so.")


@pytest.mark.parametrize("line, number, written, readable", [
    ("Question 3: Why?", 3, "", True),
    ("QUESTION 3: Why?", 3, "QUESTION 3:", True),
    ("Question #3: Why?", 3, "Question #3:", True),
    ("Qestion 3: Why?", 3, "Qestion 3:", False),
    ("Q3: Why?", 3, "Q3:", False),
    ("Question 3) Why?", 3, "Question 3)", False)])
def test_a_header_line_is_read_with_how_it_was_written(line: str, number: int, written: str,
                                                       readable: bool) -> None:
    found = header(line)
    assert found is not None
    assert (found.number, found.prompt, found.written, found.readable) == (
        number, "Why?", written, readable)


@pytest.mark.parametrize("line", ["Q4", "released in", "- Question 3: a choice", ""])
def test_other_lines_are_no_header(line: str) -> None:
    assert header(line) is None


def test_the_prompts_are_those_of_the_headers_given() -> None:
    """Asked twice from two starts, two answers (the parser once kept its first)."""
    lines = ("Question 1: First?", "- a", "Question 2: Second?", "- b")
    assert prompts(headers(lines, 0)) == {"First?", "Second?"}
    assert prompts(headers(lines, 2)) == {"Second?"}


def test_the_repair_returns_the_repaired_lines_and_leaves_the_given_ones() -> None:
    title = read_title(DAMAGED, "q.txt")
    assert title.damaged == "β"
    repair = repair_damage(DAMAGED, title, None, "q.txt")
    assert repair.lines[1] == "Question 1: data — each?" and repair.lines[10] == "Why — so."
    assert DAMAGED[1] == "Question 1: data β each?"
    assert [(d.code, d.line) for d in repair.diagnostics] == [("W102", 2), ("W102", 7),
                                                              ("W102", 11)]
    skipped = repair_damage(DAMAGED, title, 1, "q.txt")
    assert skipped.lines[1] == DAMAGED[1] and len(skipped.diagnostics) == 2


def test_nothing_to_repair_gives_back_the_same_lines() -> None:
    lines = ("Sample Topic 2 — Questions and Answers", "Question 1: data β each?")
    title = read_title(lines, "q.txt")
    assert repair_damage(lines, title, None, "q.txt").lines is lines


def test_the_footer_is_its_own_title_or_another_parts_before_a_prompt() -> None:
    lines = (*DAMAGED, "Sample Topic 2", "data β each?")
    title = read_title(lines, "q.txt")
    footer = find_footer(lines, title, prompts(headers(lines, title.body_start)))
    assert footer is not None and footer.title_line == 12 and footer.title_matches
    other = (*DAMAGED, "Sample Topic 3", "data β each?")
    footer = find_footer(other, title, prompts(headers(other, title.body_start)))
    assert footer is not None and not footer.title_matches  # another part's, before a prompt


def test_a_repaired_header_is_repaired_on_the_card_whatever_the_footer() -> None:
    result = parse("\n".join((*DAMAGED, "Sample Topic 3", "data β each?")), "q.txt")
    assert result.file.questions[0].prompt == "data — each?"


def test_the_state_machine_gives_frozen_records_of_the_questions_as_written() -> None:
    lines = ("Question 1: Which?", "- a (Correct answer)", "– b", "Correct answer: a",
             "Because.", "Question 3: Next?", "Text before any choice")
    body = read_questions(lines, 0, len(lines), headers=headers(lines, 0),
                          lookalikes=frozenset(), inner_footer={}, path="q.txt")
    first, second = body.questions
    assert first.choices == (Choice("a", True, 2), Choice("b", False, 3))
    assert (first.answers, first.explanation) == ((("a", 4),), ((5, "Because."),))
    assert first.explaining and not first.broken
    assert second.prompt == ("Next?", "Text before any choice") and not second.choices
    assert [(d.code, d.line) for d in body.diagnostics] == [("W114", 3)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.broken = True  # type: ignore[misc]
    assert [(d.code, d.line) for d in check_numbers(body.questions, body.mistyped, "q.txt")] \
        == [("W121", 6)]


def test_a_question_is_checked_whole_and_built_or_not() -> None:
    lines = ("Question 1: Which?", "- a (Correct answer)", "- b", "Correct answer: A",
             "Question 2: Which?", "- a (Correct answer)", "- b", "Correct answer: a", "So.")
    body = read_questions(lines, 0, len(lines), headers=headers(lines, 0),
                          lookalikes=frozenset(), inner_footer={}, path="q.txt")
    wrong, right = (check_question(q, "q.txt") for q in body.questions)
    assert wrong[0] is None
    assert [(d.code, d.line) for d in wrong[1]] == [("E121", 4)]
    assert "differs only in case" in wrong[1][0].message
    assert right[0] is not None and right[1] == ()
    assert (right[0].prompt, right[0].explanation, right[0].explanation_line) == (
        "Which?", "So.", 9)
