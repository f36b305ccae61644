"""Texts compared as the learner sees them (nca_anki/reading/seen.py): two choices the card
shows alike are one choice said twice, an answer line names the choice it looks like, a
question repeated is repeated however its invisible characters differ."""

from __future__ import annotations

import unicodedata

import pytest

from nca_anki.reading.parse import parse
from nca_anki.reading.seen import seen

TITLE = "Sample Topic 3 — Questions and Answers"

# Each pair: what the learner sees twice, written two ways.
ALIKE = {
    "zero-width space": ("alpha", "al\u200bpha"),
    "zero-width non-joiner": ("alpha", "alpha\u200c"),
    "zero-width joiner": ("alpha", "\u200dalpha"),
    "word joiner": ("alpha", "al\u2060pha"),
    "byte-order mark inside": ("alpha", "alp\ufeffha"),
    "soft hyphen": ("alpha", "al\u00adpha"),
    "variation selector": ("alpha ❤", "alpha ❤\ufe0f"),
    "left-to-right mark": ("alpha", "alpha\u200e"),
    "right-to-left mark": ("alpha", "al\u200fpha"),
    "bidi embedding": ("alpha", "\u202aalpha\u202c"),
    "bidi isolate": ("alpha", "\u2066alpha\u2069"),
    "NFC and NFD": ("café", unicodedata.normalize("NFD", "café")),
    "no-break space": ("alpha beta", "alpha\u00a0beta"),
    "thin space": ("alpha beta", "alpha\u2009beta"),
    "ideographic space": ("alpha beta", "alpha\u3000beta"),
    "tab": ("alpha beta", "alpha\tbeta"),
    "run of spaces": ("alpha beta", "alpha    beta"),
    "named character reference": ("R&D", "R&amp;D"),
    "numeric character reference": ("α", "&#945;"),
}
# Each pair: what the learner sees as two different choices.
APART = {
    "case": ("declare -a", "declare -A"),
    "markup": ("alpha", "**alpha**"),
    "code": ("None", "`None`"),
    "a look-alike letter": ("alpha", "аlpha"),  # Cyrillic а: a different word to a reader
    "a space between words": ("al pha", "alpha"),
    "superscript": ("x2", "x²"),  # NFKC would make them one: never used
}


@pytest.mark.parametrize("one, other", ALIKE.values(), ids=ALIKE)
def test_the_key_makes_alike_what_the_learner_sees_alike(one: str, other: str) -> None:
    assert seen(one) == seen(other)


@pytest.mark.parametrize("one, other", APART.values(), ids=APART)
def test_the_key_keeps_apart_what_the_learner_tells_apart(one: str, other: str) -> None:
    assert seen(one) != seen(other)


def _file(*body: str) -> str:
    return "\n".join((TITLE, *body))


def _codes(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in parse(text, "q.txt").diagnostics if d.is_error]


@pytest.mark.parametrize("one, other", ALIKE.values(), ids=ALIKE)
def test_two_choices_the_learner_sees_alike_are_a_repeated_choice(one: str, other: str) -> None:
    text = _file("Question 1: Which?", f"- {one} (Correct answer)", f"- {other}", "- gamma",
                 f"Correct answer: {one}", "Because.")
    result = parse(text, "q.txt")
    assert [(d.code, d.line) for d in result.diagnostics if d.is_error] == [("E118", 4)]
    assert result.file.questions == ()  # the topic keeps its last good deck


def test_the_repeated_choice_error_names_the_invisible_character() -> None:
    text = _file("Question 1: Which?", "- alpha (Correct answer)", "- al\u200bpha", "- beta",
                 "Correct answer: alpha", "Because.")
    [problem] = [d for d in parse(text, "q.txt").diagnostics if d.is_error]
    assert "U+200B (ZERO WIDTH SPACE)" in problem.message
    assert "also at line 3" in problem.message


@pytest.mark.parametrize("one, other", APART.values(), ids=APART)
def test_choices_the_learner_tells_apart_are_two_choices(one: str, other: str) -> None:
    text = _file("Question 1: Which?", f"- {one} (Correct answer)", f"- {other}", "- gamma",
                 f"Correct answer: {one}", "Because.")
    assert _codes(text) == []


@pytest.mark.parametrize("one, other", ALIKE.values(), ids=ALIKE)
def test_an_answer_line_names_the_choice_it_looks_like(one: str, other: str) -> None:
    text = _file("Question 1: Which?", f"- {one} (Correct answer)", "- gamma",
                 f"Correct answer: {other}", "Because.")
    result = parse(text, "q.txt")
    assert _codes(text) == []
    assert [c.correct for c in result.file.questions[0].choices] == [True, False]


def test_an_answer_line_that_differs_in_case_and_an_invisible_character_says_case() -> None:
    text = _file("Question 1: Which?", "- Alpha (Correct answer)", "- gamma",
                 "Correct answer: al\u200bpha", "Because.")
    [problem] = [d for d in parse(text, "q.txt").diagnostics if d.is_error]
    assert problem.code == "E121" and "differs only in case" in problem.message


def test_several_answers_are_matched_to_their_choices_as_seen() -> None:
    text = _file("Question 1: Which two? (Choose two.)", "- alpha beta (Correct answer)",
                 "- gamma (Correct answer)", "- delta", "Correct answer: gamma\u00a0",
                 "Correct answer: alpha\u2009\u200bbeta", "Because.")
    assert _codes(text) == []


@pytest.mark.parametrize("one, other", ALIKE.values(), ids=ALIKE)
def test_a_question_repeated_but_for_what_no_one_sees_is_repeated(one: str, other: str) -> None:
    text = _file("Question 1: What is it?", f"- {one} (Correct answer)", "- gamma",
                 f"Correct answer: {one}", "Because.",
                 "Question 2: What is it?", f"- {other} (Correct answer)", "- gamma",
                 f"Correct answer: {other}", "Because.")
    assert sorted(_codes(text)) == [("E130", 2), ("E130", 7)]


def test_a_prompt_with_an_invisible_character_is_the_same_prompt() -> None:
    text = _file("Question 1: What is \u200bit?", "- alpha (Correct answer)", "- gamma",
                 "Correct answer: alpha", "Because.",
                 "Question 2: What is it?", "- alpha (Correct answer)", "- gamma",
                 "Correct answer: alpha", "Because.")
    assert sorted(_codes(text)) == [("E130", 2), ("E130", 7)]
