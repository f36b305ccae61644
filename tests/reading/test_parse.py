"""Tests for nca_anki.reading.parse: question text in, ParsedFile plus positioned diagnostics out."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nca_anki.reading.decode import decode_source
from nca_anki.diagnostics import Severity
from nca_anki.reading.lines import MARK_RE, correct_mark
from nca_anki.reading.parse import parse
from nca_anki.records import Choice

from conftest import REPO

SOURCE = REPO / "source"
PATH = "q.txt"
TITLE = "Sample Topic 3 — Questions and Answers"


def doc(*lines: str) -> str:
    """A file whose line N (1-based) is ``lines[N - 1]``."""
    return "\n".join(lines)


def question(number: int = 1, prompt: str | None = None,
             choices: tuple[str, ...] = ("3", "4 (Correct answer)", "5"),
             answer: str | None = "4",
             explanation: tuple[str, ...] = ("Two plus two is four.",)) -> list[str]:
    # Each number its own prompt: a question repeated word for word is an error.
    if prompt is None:
        prompt = "What is 2 + 2?" if number == 1 else f"What is 2 + 2, case {number}?"
    lines = [f"Question {number}: {prompt}", *(f"- {c}" for c in choices)]
    if answer is not None:
        lines.append(f"Correct answer: {answer}")
    return [*lines, *explanation]


def diags(result, severity: Severity | None = None) -> list[tuple[int, str, str]]:
    return sorted((d.line, d.severity.value, d.message) for d in result.diagnostics
                  if severity is None or d.severity is severity)


def errors(result) -> list[tuple[int, str, str]]:
    return diags(result, Severity.ERROR)


def warnings_(result) -> list[tuple[int, str, str]]:
    return diags(result, Severity.WARNING)


def numbers(result) -> list[int]:
    return [q.number for q in result.file.questions]


# --- the real source files ----------------------------------------------------------------

REAL = {
    "deep-learning-training-techniques-and-optimization-2.txt": dict(
        count=6, title="Deep Learning Training Techniques and Optimization 2",
        name="Deep Learning Training Techniques and Optimization", part=2,
        prompt="What is knowledge distillation in deep learning?",
        choices=("Extracting knowledge from datasets using unsupervised methods",
                 "Training a smaller student model to mimic the soft output probabilities "
                 "of a larger teacher model",
                 "Compressing model weights through quantization",
                 "Using ensemble predictions to label unlabeled data"),
        last_explanation="Warm-up gradually increases the learning rate from zero, "
                         "stabilizing early training when model parameters and optimizer "
                         "state estimates are poorly initialized."),
    "nca-ai-deep-learning-frameworks-4.txt": dict(
        count=7, title="NCA AI & Deep Learning Frameworks 4",
        name="NCA AI & Deep Learning Frameworks", part=4,
        prompt="What problem does gradient clipping solve during training of deep neural "
               "networks, particularly RNNs?",
        choices=("Vanishing gradients caused by deep networks",
                 "Exploding gradients that cause parameter updates to become excessively "
                 "large",
                 "Overfitting due to large weight magnitudes",
                 "Slow convergence caused by sparse gradients"),
        last_explanation="DALI (Data Loading Library) moves data preprocessing and "
                         "augmentation operations to the GPU, eliminating CPU bottlenecks "
                         "in training pipelines."),
    "neural-network-applications-and-frameworks-2.txt": dict(
        count=6, title="Neural Network Neural Network Applications and Frameworks 2",
        name="Neural Network Neural Network Applications and Frameworks", part=2,
        prompt="What is model quantization in the context of deploying neural networks?",
        choices=("Measuring model performance with specific metrics",
                 "Reducing numerical precision of weights (e.g., from FP32 to INT8) to "
                 "decrease model size and inference latency",
                 "Counting the number of parameters in a model",
                 "Converting a model to run on quantum computing hardware"),
        last_explanation="TensorFlow Lite is a lightweight runtime for deploying trained "
                         "TensorFlow models on mobile (Android/iOS) and embedded "
                         "(microcontrollers) devices with optimized performance."),
}


def parse_real(name: str):
    path = SOURCE / name
    decoded = decode_source(path.read_bytes(), str(path))
    assert decoded.diagnostics == ()
    return parse(decoded.text, str(path))


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_title_name_part_and_question_count(name):
    want = REAL[name]
    result = parse_real(name)
    assert result.file.path == str(SOURCE / name)
    assert result.file.title == want["title"]
    assert result.file.name == want["name"]
    assert result.file.part == want["part"]
    assert numbers(result) == list(range(1, want["count"] + 1))
    assert errors(result) == []


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_first_question(name):
    want = REAL[name]
    first = parse_real(name).file.questions[0]
    assert first.line == 2
    assert first.prompt == want["prompt"]
    assert tuple(c.text for c in first.choices) == want["choices"]
    assert [c.line for c in first.choices] == [3, 4, 5, 6]
    assert first.correct_indexes == (1,)
    assert first.explanation and "\n" not in first.explanation


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_every_question_has_four_choices_one_correct_and_an_explanation(name):
    for q in parse_real(name).file.questions:
        assert len(q.choices) == 4, q.number
        assert len(q.correct_indexes) == 1, q.number
        assert q.explanation, q.number
        assert "Correct answer" not in q.explanation, q.number


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_footer_is_neither_a_question_nor_part_of_the_last_explanation(name):
    want = REAL[name]
    questions = parse_real(name).file.questions
    assert questions[-1].explanation == want["last_explanation"]
    assert all(want["title"] not in q.explanation for q in questions)
    assert want["prompt"] not in questions[-1].explanation


def test_real_files_without_damage_have_no_diagnostics():
    for name in ("deep-learning-training-techniques-and-optimization-2.txt",
                 "nca-ai-deep-learning-frameworks-4.txt"):
        assert parse_real(name).diagnostics == (), name


REPAIRED_BETA = ("damaged character 'β' between words, the same encoding damage as the "
                 "title's separator; read as '—'. Write '—' in the source file")
DAMAGED_TITLE = ("damaged character 'β' where the title's dash separator belongs (encoding "
                 "damage); read as '—'")


def test_real_file_with_damaged_beta_repairs_it_at_title_and_explanation_lines():
    name = "neural-network-applications-and-frameworks-2.txt"
    result = parse_real(name)
    assert diags(result) == [(1, "warning", DAMAGED_TITLE), (29, "warning", REPAIRED_BETA)]
    q4 = result.file.questions[3]
    assert q4.number == 4
    assert "without centralizing data — each device trains locally" in q4.explanation
    assert all("β" not in q.explanation for q in result.file.questions)


# --- title line ---------------------------------------------------------------------------

@pytest.mark.parametrize("sep", ["—", "–", "-", "--", "―"])
def test_title_separator_variants(sep):
    result = parse(doc(f"Sample Topic 3 {sep} Questions and Answers", *question()), PATH)
    assert (result.file.title, result.file.name, result.file.part) == (
        "Sample Topic 3", "Sample Topic", 3)
    assert result.diagnostics == ()


def test_title_suffix_is_case_insensitive():
    result = parse(doc("Sample Topic 3 — questions and answers", *question()), PATH)
    assert result.file.title == "Sample Topic 3"
    assert result.diagnostics == ()


def test_damaged_title_separator_is_read_as_a_dash_with_a_warning():
    result = parse(doc("Sample Topic 3 β Questions and Answers", *question()), PATH)
    assert (result.file.title, result.file.name, result.file.part) == (
        "Sample Topic 3", "Sample Topic", 3)
    assert diags(result) == [(1, "warning", DAMAGED_TITLE)]


def test_damaged_character_between_words_elsewhere_is_repaired_with_a_warning():
    text = doc("Sample Topic 3 β Questions and Answers",
               *question(explanation=("First line.", "Data stays local β each device trains.",
                                      "Adam uses β1 = 0.9, with β = 0.9; see β-VAE and (β).",
                                      "Phones (e.g. Android) β and **laptops** β `x`.")))
    result = parse(text, PATH)
    assert diags(result) == [(1, "warning", DAMAGED_TITLE), (8, "warning", REPAIRED_BETA),
                             (10, "warning", REPAIRED_BETA)]
    assert result.file.questions[0].explanation == (
        "First line.\nData stays local — each device trains.\n"
        "Adam uses β1 = 0.9, with β = 0.9; see β-VAE and (β).\n"
        "Phones (e.g. Android) — and **laptops** — `x`.")


def test_repaired_damage_in_a_choice_and_its_answer_line_still_agrees():
    text = doc("Sample Topic 3 β Questions and Answers", "Question 1: Data β where?",
               "- Local β private (Correct answer)", "- Central",
               "Correct answer: Local β private", "Because.")
    result = parse(text, PATH)
    assert diags(result) == [(1, "warning", DAMAGED_TITLE), (2, "warning", REPAIRED_BETA),
                             (3, "warning", REPAIRED_BETA), (5, "warning", REPAIRED_BETA)]
    (q,) = result.file.questions
    assert (q.prompt, q.choices[0].text) == ("Data — where?", "Local — private")


def test_greek_letter_between_words_is_not_reported_when_the_title_is_intact():
    result = parse(doc(TITLE, *question(explanation=("Rate β is small.",))), PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].explanation == "Rate β is small."


def test_title_without_part_number_is_part_1_with_a_warning():
    result = parse(doc("Sample Topic — Questions and Answers", *question()), PATH)
    assert (result.file.title, result.file.name, result.file.part) == (
        "Sample Topic", "Sample Topic", 1)
    assert diags(result) == [
        (1, "warning", "title has no part number at its end; taken as part 1")]


def test_title_without_suffix_is_taken_whole_with_a_warning():
    result = parse(doc("Sample Topic 3", *question()), PATH)
    assert (result.file.title, result.file.name, result.file.part) == (
        "Sample Topic 3", "Sample Topic", 3)
    assert diags(result) == [
        (1, "warning", "title line does not end with '— Questions and Answers'; the whole "
                       "line is taken as the title")]


def test_title_after_blank_lines_is_found_with_a_warning():
    result = parse(doc("", "  ", TITLE, *question()), PATH)
    assert result.file.title == "Sample Topic 3"
    assert diags(result) == [
        (3, "warning", "title is not on the first line; blank lines before it ignored")]
    assert result.file.questions[0].line == 4


def test_title_without_separator_drops_the_suffix_whatever_the_last_word():
    short = parse(doc("Intro to NLP Questions and Answers", *question()), PATH)
    assert short.file.title == "Intro to NLP"  # works today
    long = parse(doc("Intro to Transformers Questions and Answers", *question()), PATH)
    assert long.file.title == "Intro to Transformers"


def test_damaged_title_after_blank_lines_is_reported_once():
    result = parse(doc("", "Sample Topic 3 β Questions and Answers", *question()), PATH)
    assert [(line, msg.split(" ")[0]) for line, _, msg in diags(result)] == [
        (2, "damaged"), (2, "title")]


# --- errors -------------------------------------------------------------------------------

def test_question_without_choices_is_an_error_at_its_line_and_others_remain():
    text = doc(TITLE,
               *question(1),                                        # lines 2-7
               "Question 2: What is 3 + 3?", "Correct answer: 6",   # lines 8-9
               *question(3))                                        # lines 10-15
    result = parse(text, PATH)
    assert errors(result) == [
        (8, "error", "Question 2 has no choices; list them as '- <choice>' lines after the "
                     "prompt")]
    assert numbers(result) == [1, 3]
    assert result.file.questions[1].line == 10


def test_only_one_choice_is_an_error():
    result = parse(doc(TITLE, *question(choices=("4 (Correct answer)",))), PATH)
    assert errors(result) == [
        (2, "error", "Question 1 has only one choice; a multiple-choice question needs at "
                     "least two")]
    assert result.file.questions == ()


def test_no_choice_marked_correct_is_an_error_naming_the_answer_line_choice():
    result = parse(doc(TITLE, *question(choices=("3", "4", "5"))), PATH)
    assert errors(result) == [
        (2, "error", "Question 1 has no choice ending in '(Correct answer)'; the 'Correct "
                     "answer:' line names the choice at line 4")]
    assert result.file.questions == ()


def test_no_choice_marked_and_answer_matching_nothing_has_no_hint():
    result = parse(doc(TITLE, *question(choices=("3", "4", "5"), answer="7")), PATH)
    assert errors(result) == [
        (2, "error", "Question 1 has no choice ending in '(Correct answer)'")]


def marked_but_unnamed(choice: str) -> str:
    return (f"choice marked '(Correct answer)' but no 'Correct answer:' line names it; add "
            f"'Correct answer: {choice}' after the choices (one line per correct choice), or "
            "remove the mark")


def test_marks_and_answer_lines_that_name_other_choices_are_an_error_at_each_place():
    text = doc(TITLE, *question(choices=("3 (Correct answer)", "4", "5 (Correct answer)")))
    result = parse(text, PATH)
    assert errors(result) == [
        (3, "error", marked_but_unnamed("3")),
        (5, "error", marked_but_unnamed("5")),
        (6, "error", "'Correct answer: 4' names the choice at line 4, which is not marked "
                     "'(Correct answer)'; mark that choice too, or delete this line")]
    assert result.file.questions == ()


# --- several correct answers ----------------------------------------------------------------

def several(choices: tuple[str, ...], answers: tuple[str, ...],
            explanation: tuple[str, ...] = ("Both are.",)) -> str:
    return doc(TITLE, "Question 1: Which two are even? (Choose two.)",
               *(f"- {c}" for c in choices), *(f"Correct answer: {a}" for a in answers),
               *explanation)


def test_a_question_may_have_several_correct_answers_named_in_any_order():
    result = parse(several(("2 (Correct answer)", "3", "4 (Correct answer)", "5"),
                           ("4", "2")), PATH)
    assert diags(result) == []
    (q,) = result.file.questions
    assert q.correct_indexes == (0, 2) and q.explanation == "Both are."
    assert result.file.positions == (-1,)  # the cluster lint counts single answers only


def test_blank_lines_may_separate_the_answer_lines_but_not_the_explanation():
    text = several(("2 (Correct answer)", "3", "4 (Correct answer)"), ("2",),
                   ("", "Correct answer: 4", "", "Two and four."))
    (q,) = parse(text, PATH).file.questions
    assert q.correct_indexes == (0, 2) and q.explanation == "Two and four."
    late = several(("2 (Correct answer)", "3", "4 (Correct answer)"), ("2",),
                   ("Two is.", "Correct answer: 4"))
    result = parse(late, PATH)
    assert [line for line, *_ in errors(result)] == [5, 8]  # the unnamed mark, the late line
    assert "inside Question 1's explanation" in errors(result)[1][2]


def test_a_marked_choice_without_its_answer_line_is_an_error_at_the_choice():
    result = parse(several(("2 (Correct answer)", "3", "4 (Correct answer)"), ("2",)), PATH)
    assert errors(result) == [(5, "error", marked_but_unnamed("4"))]
    assert result.file.questions == ()


def test_an_answer_line_naming_an_unmarked_choice_is_an_error_at_that_line():
    result = parse(several(("2 (Correct answer)", "3", "4"), ("2", "4")), PATH)
    assert errors(result) == [
        (7, "error", "'Correct answer: 4' names the choice at line 5, which is not marked "
                     "'(Correct answer)'; mark that choice too, or delete this line")]


def test_an_answer_line_naming_no_choice_or_one_twice_is_an_error_at_that_line():
    result = parse(several(("2 (Correct answer)", "3", "4 (Correct answer)", "6 (Correct answer)"),
                           ("2", "8", "4", "2")), PATH)
    assert errors(result) == [
        # The one marked choice no line names: the line was meant for it.
        (8, "error", "'Correct answer: 8' disagrees with the choice marked '(Correct "
                     "answer)' at line 6: '6'; copy the marked choice exactly"),
        (10, "error", "'Correct answer: 2' names the same choice as line 7; delete one of "
                      "them")]
    lost = parse(several(("2 (Correct answer)", "3", "4 (Correct answer)", "6 (Correct answer)"),
                         ("2", "8", "9")), PATH)
    assert [m for _, _, m in errors(lost)] == [
        f"'Correct answer: {n}' names none of Question 1's choices; copy the text of a "
        "choice marked '(Correct answer)'" for n in (8, 9)]


def test_the_case_only_difference_is_named_among_several_answers():
    result = parse(several(("ReLU (Correct answer)", "tanh (Correct answer)", "step"),
                           ("relu", "tanh")), PATH)
    assert errors(result) == [
        (6, "error", "'Correct answer: relu' differs only in case from the choice marked "
                     "'(Correct answer)' at line 3: 'ReLU'; letter case can change what a "
                     "choice means: copy the marked choice exactly")]


def test_answer_line_disagreeing_with_marked_choice_is_an_error_at_the_answer_line():
    result = parse(doc(TITLE, *question(answer="5")), PATH)
    assert errors(result) == [
        (6, "error", "'Correct answer: 5' disagrees with the choice marked '(Correct "
                     "answer)' at line 4: '4'; copy the marked choice exactly")]
    assert result.file.questions == ()


def test_answer_line_comparison_ignores_spacing():
    text = doc(TITLE, *question(choices=("a", "Big  Model (Correct answer)"),
                                answer="Big Model"))
    result = parse(text, PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].choices[1] == Choice("Big  Model", True)


def test_answer_line_differing_only_in_case_is_an_error_at_its_line():
    # The card would teach "declare -A" while the author wrote "declare -a" as the answer.
    text = doc(TITLE, *question(choices=("declare -a", "declare -A (Correct answer)"),
                                answer="declare -a"))
    result = parse(text, PATH)
    assert errors(result) == [
        (5, "error", "'Correct answer: declare -a' differs only in case from the choice "
                     "marked '(Correct answer)' at line 4: 'declare -A'; letter case "
                     "can change what a choice means: copy the marked choice exactly")]
    assert result.file.questions == ()


def test_missing_correct_answer_line_is_an_error_at_the_question_line():
    text = doc(TITLE, *question(1, answer=None, explanation=()), *question(2))
    result = parse(text, PATH)
    assert errors(result) == [
        (2, "error", "Question 1 has no 'Correct answer: <choice>' line after its choices")]
    assert numbers(result) == [2]


@pytest.mark.parametrize("empty", ["-", "- ", "- (Correct answer)", "-   (correct answer)"])
def test_empty_choice_is_an_error_at_its_line(empty):
    text = doc(TITLE, "Question 1: Pick", "- a (Correct answer)", empty, "- c",
               "Correct answer: a", "Because.")
    result = parse(text, PATH)
    assert (4, "error", "choice is empty") in errors(result)
    assert result.file.questions == ()


def test_empty_prompt_is_an_error_at_the_question_line():
    text = doc(TITLE, *question(1, prompt=""), *question(2))
    result = parse(text, PATH)
    assert errors(result) == [(2, "error", "Question 1 has no prompt")]
    assert numbers(result) == [2]


def test_stray_text_among_choices_is_an_error_at_its_line():
    text = doc(TITLE, "Question 1: Pick", "- a (Correct answer)", "stray words", "- b",
               "Correct answer: a", "Because.")
    result = parse(text, PATH)
    assert errors(result) == [
        (4, "error", "unexpected text among the choices; expected '- <choice>' or "
                     "'Correct answer: <choice>'")]
    assert result.file.questions == ()


def test_blank_lines_among_choices_are_fine():
    text = doc(TITLE, "Question 1: Pick", "", "- a (Correct answer)", "", "- b", "",
               "Correct answer: a", "Because.")
    result = parse(text, PATH)
    assert result.diagnostics == ()
    assert [c.line for c in result.file.questions[0].choices] == [4, 6]


@pytest.mark.parametrize("text", ["", "\n", "  \n\t\n"])
def test_empty_file_is_an_error(text):
    result = parse(text, PATH)
    assert diags(result) == [
        (1, "error", "file is empty; expected a first line '<title> — Questions and "
                     "Answers'")]
    assert result.file.questions == ()
    assert result.file.title == ""


def test_questions_without_a_title_line_is_an_error_at_line_1():
    result = parse(doc(*question(1), *question(2)), PATH)
    assert diags(result) == [
        (1, "error", "missing title line; expected '<title> — Questions and Answers' before "
                     "the first question")]
    assert result.file.title == ""
    assert numbers(result) == [1, 2]  # still parsed, so their own mistakes are reported too


def test_title_without_questions_is_an_error():
    result = parse(doc(TITLE, "", "Nothing here."), PATH)
    assert errors(result) == [
        (1, "error", "no questions found; expected 'Question 1: <prompt>' lines")]
    assert result.file.title == "Sample Topic 3"


def test_every_error_in_a_file_is_reported_in_one_pass():
    text = doc(TITLE,
               *question(1, choices=("3", "4")),                       # 2-6: none marked
               *question(2, prompt=""),                                # 7-12: no prompt
               *question(3, answer="3"),                               # 13-18: disagrees
               *question(4))                                           # 19-24: fine
    result = parse(text, PATH)
    assert [line for line, _, _ in errors(result)] == [2, 7, 17]
    assert numbers(result) == [4]


# --- warnings -----------------------------------------------------------------------------

def test_out_of_sequence_number_is_a_warning_and_the_question_is_kept():
    result = parse(doc(TITLE, *question(1), *question(3)), PATH)
    assert diags(result) == [
        (8, "warning", "Question 3 is numbered out of sequence (expected Question 2)")]
    assert numbers(result) == [1, 3]


def test_text_before_the_first_question_is_a_warning():
    result = parse(doc(TITLE, "Some introduction.", "", *question()), PATH)
    assert diags(result) == [
        (2, "warning", "text before the first 'Question N:' line is ignored")]
    assert result.file.questions[0].prompt == "What is 2 + 2?"
    assert result.file.questions[0].line == 4


def test_missing_explanation_is_a_warning():
    result = parse(doc(TITLE, *question(1, explanation=()), *question(2)), PATH)
    assert diags(result) == [(2, "warning", "Question 1 has no explanation")]
    assert result.file.questions[0].explanation == ""


def test_duplicate_choice_is_an_error_at_the_repeat():
    result = parse(doc(TITLE, *question(choices=("3", "4 (Correct answer)", " 3 "))), PATH)
    assert diags(result) == [(5, "error", "Question 1 lists the choice '3' twice (also at "
                                          "line 3); delete one")]


@pytest.mark.parametrize("choices", [("declare -a (Correct answer)", "declare -A"),
                                     ("grep -E", "grep -e (Correct answer)"),
                                     ("'dict' (Correct answer)", "'Dict'")])
def test_choices_that_differ_in_case_are_two_choices(choices):
    result = parse(doc(TITLE, *question(choices=choices,
                                        answer=next(c for c in choices if "(" in c)
                                        .removesuffix(" (Correct answer)"))), PATH)
    assert result.diagnostics == ()
    assert [c.text for c in result.file.questions[0].choices] == [
        c.removesuffix(" (Correct answer)") for c in choices]


# --- content ------------------------------------------------------------------------------

def test_question_fields_and_positions():
    result = parse(doc(TITLE, *question()), PATH)
    (q,) = result.file.questions
    assert (q.number, q.prompt, q.explanation) == (1, "What is 2 + 2?",
                                                    "Two plus two is four.")
    assert q.choices == (Choice("3", False), Choice("4", True), Choice("5", False))
    assert [c.line for c in q.choices] == [3, 4, 5]
    assert (q.path, q.line) == (PATH, 2)
    assert q.correct_indexes == (1,)


def test_question_number_may_end_with_a_dot():
    result = parse(doc(TITLE, "Question 1. Pick", "- a (Correct answer)", "- b",
                       "Correct answer: a", "E"), PATH)
    assert result.file.questions[0].prompt == "Pick"
    assert result.diagnostics == ()


def test_multi_line_prompt_is_kept():
    result = parse(doc(TITLE, "Question 1: What is", "the answer?", "- a (Correct answer)",
                       "- b", "Correct answer: a", "E"), PATH)
    assert result.file.questions[0].prompt == "What is\nthe answer?"


def test_multi_paragraph_explanation_keeps_blank_lines():
    text = doc(TITLE, *question(1, explanation=("First paragraph.", "", "Second paragraph.",
                                                "    code line", "", "")), *question(2))
    result = parse(text, PATH)
    assert result.file.questions[0].explanation == (
        "First paragraph.\n\nSecond paragraph.\n    code line")
    assert result.diagnostics == ()


@pytest.mark.parametrize("marker", ["(Correct answer)", "(correct answer)",
                                    "(CORRECT ANSWER)", "( Correct  Answer )",
                                    "(Correct answer)   "])
def test_correct_answer_marker_is_case_and_space_insensitive(marker):
    result = parse(doc(TITLE, "Question 1: Pick", "- a", f"- b {marker}",
                       "Correct answer: b", "E"), PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].choices == (Choice("a", False), Choice("b", True))


def test_marker_not_at_the_end_of_the_choice_does_not_count():
    result = parse(doc(TITLE, "Question 1: Pick", "- a (Correct answer) really",
                       "- b (Correct answer)", "Correct answer: b", "E"), PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].choices[0] == Choice("a (Correct answer) really", False)


def test_markdown_and_html_are_kept_verbatim():
    text = doc(TITLE,
               "Question 1: What does **`<b>`** do & why?",
               "- Makes text <b>bold</b> (Correct answer)",
               "- <script>alert(1)</script>",
               "Correct answer: Makes text <b>bold</b>",
               "Use `a < b && c > d`; see [docs](http://x/?a=1&b=2).",
               "",
               "* item one",
               "* item two")
    result = parse(text, PATH)
    assert result.diagnostics == ()
    (q,) = result.file.questions
    assert q.prompt == "What does **`<b>`** do & why?"
    assert [c.text for c in q.choices] == ["Makes text <b>bold</b>",
                                           "<script>alert(1)</script>"]
    assert q.explanation == ("Use `a < b && c > d`; see [docs](http://x/?a=1&b=2).\n\n"
                             "* item one\n* item two")


def test_footer_title_then_first_prompt_is_stripped():
    text = doc(TITLE, *question(1), *question(2, prompt="Other?"), "", "Sample Topic 3",
               "What is 2 + 2?", "")
    result = parse(text, PATH)
    assert result.diagnostics == ()
    assert numbers(result) == [1, 2]
    assert result.file.questions[-1].explanation == "Two plus two is four."


def test_footer_title_alone_is_stripped():
    result = parse(doc(TITLE, *question(1), "Sample Topic 3"), PATH)
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_text_resembling_the_footer_mid_explanation_is_kept():
    # Followed by two more lines it is not the footer's shape (title, then one line, end).
    result = parse(doc(TITLE, *question(1, explanation=("Sample Topic 3", "More.", "Even more."))),
                   PATH)
    assert result.file.questions[0].explanation == "Sample Topic 3\nMore.\nEven more."
    assert result.diagnostics == ()


# --- mistyped structure: never card text -------------------------------------------------

def two_questions(header: str) -> str:
    """Question 1 at lines 2-7; ``header`` at line 8 starts Question 2 (lines 8-13)."""
    return doc(TITLE, *question(1), header + " What is 3 + 3?", "- 5", "- 6 (Correct answer)",
               "- 7", "Correct answer: 6", "Three plus three is six.")


@pytest.mark.parametrize("header", ["QUESTION 2:", "question 2:", "Question2:", "Question #2:",
                                    "Question # 2:", "Question No. 2:", "question  2 :",
                                    "Question2."])
def test_mistyped_header_is_read_as_the_header_with_a_warning_naming_the_fix(header):
    result = parse(two_questions(header), PATH)
    assert diags(result) == [
        (8, "warning", f"{header!r} read as a question header; write 'Question 2:'")]
    assert numbers(result) == [1, 2]
    assert result.file.questions[0].explanation == "Two plus two is four."
    assert result.file.questions[1].prompt == "What is 3 + 3?"
    assert result.file.questions[1].line == 8


@pytest.mark.parametrize("char, name", [("\ufeff", "ZERO WIDTH NO-BREAK SPACE"),
                                        ("\u200b", "ZERO WIDTH SPACE"),
                                        ("\u200c", "ZERO WIDTH NON-JOINER"),
                                        ("\u200d", "ZERO WIDTH JOINER"),
                                        ("\u2060", "WORD JOINER")])
def test_invisible_character_before_a_header_is_ignored_with_a_warning(char, name):
    result = parse(two_questions(char + "Question 2:"), PATH)
    assert diags(result) == [
        (8, "warning", f"invisible character U+{ord(char):04X} ({name}) at the start of the "
                       "line; read as the question header 'Question 2:'; delete it")]
    assert numbers(result) == [1, 2]
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_several_invisible_characters_and_a_mistyped_header_each_get_a_warning():
    result = parse(two_questions(" \u200b\ufeff\u200b QUESTION 2:"), PATH)
    assert diags(result) == [
        (8, "warning", "'QUESTION 2:' read as a question header; write 'Question 2:'"),
        (8, "warning", "invisible characters U+200B (ZERO WIDTH SPACE), U+FEFF (ZERO WIDTH "
                       "NO-BREAK SPACE) at the start of the line; read as the question header "
                       "'Question 2:'; delete them")]
    assert numbers(result) == [1, 2]


@pytest.mark.parametrize("space", ["\u00a0", "\u202f", "\u3000", "\t "])
def test_whitespace_before_a_header_nbsp_included_is_just_whitespace(space):
    result = parse(two_questions(space + "Question 2:"), PATH)
    assert result.diagnostics == ()
    assert numbers(result) == [1, 2]


@pytest.mark.parametrize("header", ["Q2:", "Q 2:", "q2.", "Q2)", "Qn 2:", "Ques. 2:",
                                    "Question 2)", "QUESTION 2.", "question 2.",
                                    "Question 2\n"])
def test_header_like_line_that_may_be_text_is_an_error_at_its_line(header):
    result = parse(two_questions(header), PATH)
    header = header.strip()
    # One error: the choices and 'Correct answer:' line after it are not reported again.
    assert diags(result) == [
        (8, "error", f"{header!r} looks like a mistyped question header; write 'Question 2: "
                     "<prompt>' if it starts a question, or reword the line")]
    assert result.file.questions == ()  # the topic is not built: nothing reaches a card


@pytest.mark.parametrize("line", ["Q3 revenue grew.", "Q4", "Questions 3 and 4: both wrong.",
                                  "question 3 asked about X.", "Quantization 8: bits",
                                  "Qubits: 3", "Q&A: 3"])
def test_text_that_only_starts_like_a_header_stays_explanation(line):
    result = parse(doc(TITLE, *question(1, explanation=("Intro.", line, "End."))), PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].explanation == f"Intro.\n{line}\nEnd."


def test_question_without_a_header_inside_an_explanation_is_an_error_at_its_marked_choice():
    text = doc(TITLE, *question(1),                       # 2-7
               "What is 3 + 3?", "- 5", "- 6 (Correct answer)", "- 7",   # 8-11
               "Correct answer: 6", "Three plus three is six.")          # 12-13
    result = parse(text, PATH)
    assert diags(result) == [
        (10, "error", "line ending in '(Correct answer)' inside Question 1's explanation; "
                      "start its question with a 'Question N: <prompt>' line above it, or "
                      "delete the line"),
        (12, "error", "'Correct answer:' line inside Question 1's explanation; start its "
                      "question with a 'Question N: <prompt>' line above it, or delete the "
                      "line")]
    assert result.file.questions == ()


def test_second_correct_answer_line_is_an_error_not_explanation():
    result = parse(doc(TITLE, *question(1, explanation=("Because.", "correct answer: 5"))),
                   PATH)
    assert errors(result) == [
        (8, "error", "'Correct answer:' line inside Question 1's explanation; start its "
                     "question with a 'Question N: <prompt>' line above it, or delete the "
                     "line")]
    assert result.file.questions == ()


def test_a_marked_line_in_the_prompt_that_is_not_a_choice_is_an_error():
    text = doc(TITLE, "Question 1: Pick", "a (Correct answer)", "- b", "- c (Correct answer)",
               "Correct answer: c", "Because.")
    result = parse(text, PATH)
    assert errors(result) == [
        (3, "error", "line ending in '(Correct answer)' is not a choice; write it as "
                     "'- <choice> (Correct answer)'")]
    assert result.file.questions == ()


def test_invisible_characters_before_choices_answer_and_title_are_ignored_with_warnings():
    text = doc("\u200b" + TITLE, "Question 1: Pick", "\ufeff- a (Correct answer)", "- b",
               "\u2060Correct answer: a", "Because.")
    result = parse(text, PATH)
    assert diags(result) == [
        (1, "warning", "invisible character U+200B (ZERO WIDTH SPACE) at the start of the "
                       "line; read as the title; delete it"),
        (3, "warning", "invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE) at the start "
                       "of the line; read as a choice; delete it"),
        (5, "warning", "invisible character U+2060 (WORD JOINER) at the start of the line; "
                       "read as the 'Correct answer:' line; delete it")]
    assert result.file.title == "Sample Topic 3"
    (q,) = result.file.questions
    assert (q.choices, q.explanation) == ((Choice("a", True), Choice("b", False)), "Because.")


def test_mistyped_first_header_is_read_and_not_ignored_as_text_before_the_questions():
    result = parse(doc(TITLE, "QUESTION 1: What is 2 + 2?", *question(2)[1:]), PATH)
    assert diags(result) == [
        (2, "warning", "'QUESTION 1:' read as a question header; write 'Question 1:'")]
    assert numbers(result) == [1]


def test_mistyped_header_on_the_first_line_is_a_missing_title():
    result = parse(doc("question 1: What is 2 + 2?", *question(2)[1:]), PATH)
    assert diags(result) == [
        (1, "error", "missing title line; expected '<title> — Questions and Answers' before "
                     "the first question"),
        (1, "warning", "'question 1:' read as a question header; write 'Question 1:'")]
    assert numbers(result) == [1]


# --- the footer ---------------------------------------------------------------------------

STALE_FOOTER = ("footer repeats 'What is 2 + 2?' but Question 1 is now 'What is 9 + 9?'; "
                "update or delete the footer")


def test_stale_footer_prompt_is_dropped_with_a_warning_at_its_line():
    # An author inserted a new Question 1 and did not update the footer.
    text = doc(TITLE, *question(1, prompt="What is 9 + 9?"), *question(2, prompt="Other?"),
               "Sample Topic 3", "What is 2 + 2?", "", "")   # footer at lines 14-15
    result = parse(text, PATH)
    assert diags(result) == [(15, "warning", STALE_FOOTER)]
    assert numbers(result) == [1, 2]
    assert result.file.questions[-1].explanation == "Two plus two is four."


@pytest.mark.parametrize("footer_title", [
    "Sample Topic 3 — Questions and Answers", "Sample Topic 3 - Questions and Answers",
    "Sample Topic 3 – questions and answers", "  Sample  Topic 3  ", "Sample Topic 3 —",
    "Sample Topic 3—Questions and Answers", "\u200bSample Topic 3"])
def test_footer_title_variants_are_recognised(footer_title):
    text = doc(TITLE, *question(1), footer_title, "What is 2 + 2?")
    result = parse(text, PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_footer_prompt_may_differ_in_spacing_and_blank_lines_may_separate_it():
    text = doc(TITLE, *question(1), "", "Sample Topic 3", "", "  What is  2 + 2? ", "")
    result = parse(text, PATH)
    assert result.diagnostics == ()
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_stale_footer_title_from_another_part_is_dropped_with_a_warning():
    text = doc(TITLE, *question(1), "Sample Topic 2", "What is 2 + 2?")
    result = parse(text, PATH)
    assert diags(result) == [
        (8, "warning", "footer repeats the title 'Sample Topic 2' but the title is now "
                       "'Sample Topic 3'; update or delete the footer")]
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_stale_footer_with_a_whole_other_title_line_is_dropped_with_two_warnings():
    text = doc(TITLE, *question(1, prompt="What is 9 + 9?"),
               "Old Name 1 — Questions and Answers", "What is 2 + 2?")
    result = parse(text, PATH)
    assert diags(result) == [
        (8, "warning", "footer repeats the title 'Old Name 1 — Questions and Answers' but the "
                       "title is now 'Sample Topic 3'; update or delete the footer"),
        (9, "warning", STALE_FOOTER)]
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_footer_after_a_question_without_answer_line_is_not_among_its_choices():
    text = doc(TITLE, *question(1), "Question 2: Q?", "- a (Correct answer)", "- b",
               "Sample Topic 3", "What is 2 + 2?")
    result = parse(text, PATH)
    assert diags(result) == [
        (8, "error", "Question 2 has no 'Correct answer: <choice>' line after its choices")]


def test_a_title_like_line_before_the_last_answer_line_is_not_a_footer():
    text = doc(TITLE, "Question 1: Pick", "- a (Correct answer)", "- b", "Sample Topic 3",
               "Correct answer: a")
    result = parse(text, PATH)
    assert errors(result) == [
        (5, "error", "unexpected text among the choices; expected '- <choice>' or 'Correct "
                     "answer: <choice>'")]


def test_footer_in_a_file_with_a_damaged_title_is_recognised_without_repair_warnings():
    text = doc("Sample Topic 3 β Questions and Answers", *question(1),
               "Sample Topic 3 β Questions and Answers", "What is 2 + 2?")
    result = parse(text, PATH)
    assert diags(result) == [(1, "warning", DAMAGED_TITLE)]
    assert result.file.questions[0].explanation == "Two plus two is four."


def test_a_question_after_a_title_like_line_is_a_question_not_a_footer():
    text = doc(TITLE, *question(1), "Sample Topic 3", "Question 2: What is 3 + 3?",
               "- 6 (Correct answer)", "- 7", "Correct answer: 6", "Six.")
    result = parse(text, PATH)
    assert numbers(result) == [1, 2]
    assert result.file.questions[0].explanation == "Two plus two is four.\nSample Topic 3"


def test_real_file_with_a_new_first_question_and_a_stale_footer():
    name = "nca-ai-deep-learning-frameworks-4.txt"
    lines = (SOURCE / name).read_text(encoding="utf-8").split("\n")
    new = ["Question 1: What does NCCL provide for multi-GPU training?",
           "- A model file format", "- Collective communication (Correct answer)",
           "Correct answer: Collective communication", "NCCL implements all-reduce."]
    renumbered = [re.sub(r"^Question (\d+):", lambda m: f"Question {int(m[1]) + 1}:", line)
                  for line in lines]
    text = "\n".join([renumbered[0], *new, *renumbered[1:]])
    result = parse(text, name)
    footer_prompt_line = len(lines) + len(new)
    assert diags(result) == [
        (footer_prompt_line, "warning", "footer repeats 'What problem does gradient clipping "
                                        "solve during training o…' but Question 1 "
                                        "is now 'What does NCCL provide for multi-GPU "
                                        "training?'; update or delete the footer")]
    assert result.file.questions[-1].explanation == REAL[name]["last_explanation"]


# --- where title problems are reported ----------------------------------------------------

@pytest.mark.parametrize("title, messages", [
    ("Sample Topic 3", ["title line does not end with '— Questions and Answers'; the whole "
                        "line is taken as the title"]),
    ("Sample Topic — Questions and Answers", ["title has no part number at its end; taken "
                                              "as part 1"]),
    ("— Questions and Answers", ["title is empty"]),
    ("Sample Topic 3 β Questions and Answers", [DAMAGED_TITLE]),
    ("\u200bSample Topic 3 — Questions and Answers", [
        "invisible character U+200B (ZERO WIDTH SPACE) at the start of the line; read as "
        "the title; delete it"]),
])
def test_every_title_problem_is_reported_at_the_titles_real_line(title, messages):
    result = parse(doc("", "  ", title, *question()), PATH)
    assert diags(result) == sorted(
        [(3, "warning", "title is not on the first line; blank lines before it ignored")]
        + [(3, "error" if m == "title is empty" else "warning", m) for m in messages])
    assert result.file.title_line == 3


def test_title_line_is_recorded_in_the_parsed_file():
    assert parse(doc(TITLE, *question()), PATH).file.title_line == 1
    assert parse(doc("", TITLE, *question()), PATH).file.title_line == 2
    assert parse(doc("", *question()), PATH).file.title_line == 0
    assert parse("", PATH).file.title_line == 0


def test_missing_title_after_blank_lines_is_one_error_at_the_first_question():
    result = parse(doc("", "", *question()), PATH)
    assert diags(result) == [
        (3, "error", "missing title line; expected '<title> — Questions and Answers' before "
                     "the first question")]
    assert numbers(result) == [1]


def test_title_without_questions_after_blank_lines_is_reported_at_the_title():
    result = parse(doc("", TITLE, "Nothing here."), PATH)
    assert errors(result) == [
        (2, "error", "no questions found; expected 'Question 1: <prompt>' lines")]


# --- properties ---------------------------------------------------------------------------

_LINE = st.one_of(
    st.builds(lambda n, t: f"Question {n}: {t}", st.integers(0, 12), st.text(max_size=12)),
    st.builds(lambda n: f"Question {n}:", st.integers(0, 12)),
    st.builds(lambda t, m: f"- {t}{m}", st.sampled_from(["a", "b", "", "a ", "A"]),
              st.sampled_from(["", " (Correct answer)", " (correct answer)", "(Correct answer)"])),
    st.builds(lambda t: f"Correct answer: {t}", st.sampled_from(["a", "b", "", "A", "c"])),
    st.sampled_from(["", " ", "-", "Title 2 — Questions and Answers",
                     "Title 2 β Questions and Answers", "Title 2", "x β y",
                     "Questions and Answers", "Correct answer:"]),
    st.text(max_size=20),
    st.builds(lambda head, n, tail: f"{head}{n}{tail}",
              st.sampled_from(["QUESTION ", "question ", "Question", "Question #", "Q", "Q ",
                               "Qn ", "\u200bQuestion ", "\ufeffquestion ", "\xa0Question ",
                               "\u200b\u2060Q"]),
              st.integers(0, 12), st.sampled_from([": x", ":", ". y", ")", "", " z", ".", ":a"])),
    st.sampled_from(["Sample Topic 3", "Title 2", "Title 2 - questions and answers", "x",
                     "\u200b- a (Correct answer)", "* a (Correct answer)", "a (Correct answer)",
                     "\u200bCorrect answer: a", "data β each", "β1 = 0.9", " β ", "β",
                     "\ufeff", "\u200b"]),
)
_PLAUSIBLE = st.lists(_LINE, max_size=40).map("\n".join)
# Independent of the parser's own patterns: what must never reach a card's explanation.
_STRUCTURE = re.compile(r"^[\s\u200b-\u200d\u2060\ufeff]*(question\s*#?\s*\d+\s*:|correct\s+"
                        r"answer\s*:)|\(\s*correct\s+answer\s*\)\s*$", re.IGNORECASE)


def _check_invariants(text: str) -> None:
    result = parse(text, PATH)
    n_lines = len(text.split("\n"))
    for d in result.diagnostics:
        assert 0 <= d.line <= n_lines, d
        assert d.path == PATH
    for q in result.file.questions:
        assert len(q.choices) >= 2
        assert len(q.correct_indexes) == 1
        assert all(c.text for c in q.choices)
        assert q.prompt
        assert 1 <= q.line <= n_lines
        assert not any(_STRUCTURE.search(line) for line in q.explanation.split("\n")), q
    assert result.file.part >= 0


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_parse_never_raises_on_arbitrary_text(text):
    _check_invariants(text)


@settings(max_examples=300, deadline=None)
@given(_PLAUSIBLE)
def test_parse_never_raises_on_plausible_lines(text):
    _check_invariants(text)


_WORD = st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=8)


@st.composite
def _well_formed(draw):
    specs = []
    for _ in range(draw(st.integers(1, 5))):
        texts = draw(st.lists(_WORD, min_size=2, max_size=5,
                              unique_by=lambda w: w.casefold()))
        # Each prompt its own (a question repeated word for word is an error).
        specs.append((f"P{len(specs)} " + draw(_WORD) + "?", tuple("C " + t for t in texts),
                      draw(st.integers(0, len(texts) - 1)), "E " + draw(_WORD)))
    return specs


@settings(max_examples=200, deadline=None)
@given(_well_formed())
def test_well_formed_files_round_trip_without_diagnostics(specs):
    lines = [TITLE]
    for n, (prompt, choices, correct, explanation) in enumerate(specs, start=1):
        lines.append(f"Question {n}: {prompt}")
        lines += [f"- {c}" + (" (Correct answer)" if i == correct else "")
                  for i, c in enumerate(choices)]
        lines += [f"Correct answer: {choices[correct]}", explanation, ""]
    result = parse("\n".join(lines), PATH)
    assert result.diagnostics == ()
    assert [(q.prompt, tuple(c.text for c in q.choices), q.correct_indexes[0], q.explanation)
            for q in result.file.questions] == specs


def test_a_prompt_line_starting_with_a_minus_number_is_not_a_choice():
    result = parse(doc("Sample Topic 1 — Questions and Answers", "Question 1: Which is true?",
                       "-1 squared is 1, so", "- it is odd (Correct answer)", "- it is even",
                       "Correct answer: it is odd", "Because."), PATH)
    (question,) = result.file.questions
    assert question.prompt == "Which is true?\n-1 squared is 1, so"
    assert [c.text for c in question.choices] == ["it is odd", "it is even"]


def test_short_non_ascii_word_ending_a_title_without_part_number_is_kept():
    result = parse(doc("AI 入門 Questions and Answers", *question()), PATH)
    assert result.file.title == "AI 入門"
    assert not [d for d in result.diagnostics if "damaged" in d.message]


@settings(max_examples=500, derandomize=True)
@given(st.text(alphabet=" \t\u00a0\u2003()xCcORrEeTtAaNnSsWw", max_size=40))
def test_the_quick_mark_check_finds_exactly_what_the_pattern_finds(text: str) -> None:
    """``correct_mark`` looks at the last character before searching: it must find the
    same mark as the search alone, whitespace of every kind included."""
    full = MARK_RE.search(text)
    quick = correct_mark(text)
    assert (quick.span() if quick else None) == (full.span() if full else None)
    assert correct_mark(text + " (correct\u00a0ANSWER)\u2003") is not None


@pytest.mark.parametrize("first", ["– INT4", "— INT4", "* INT4", "+ INT4", "• INT4", "-INT4",
                                   "A) INT4", "a. INT4"])
def test_a_first_choice_written_another_way_is_read_as_a_choice_with_a_warning(first):
    # Autocorrect and other formats: the first choice used to join the prompt silently.
    result = parse(doc(TITLE, "Question 1: Which precision halves INT8's memory?", first,
                       "- INT8", "- FP16 (Correct answer)", "Correct answer: FP16",
                       "Because."), PATH)
    assert errors(result) == []
    (q,) = result.file.questions
    assert q.prompt == "Which precision halves INT8's memory?"
    assert [c.text for c in q.choices] == ["INT4", "INT8", "FP16"]
    mark = first.split("INT4")[0].strip()
    assert warnings_(result) == [(3, "warning", f"choice written with {mark!r}; read as a "
                                  "choice. Write it as '- INT4'")]


def test_a_markdown_list_in_a_prompt_stays_the_prompts():
    result = parse(doc(TITLE, "Question 1: Given these settings:", "* batch 32", "* lr 0.1",
                       "", "which is safe?", "- A (Correct answer)", "- B", "Correct answer: A",
                       "Because."), PATH)
    assert errors(result) == [] and warnings_(result) == []
    assert result.file.questions[0].prompt.count("* ") == 2


def test_a_choice_bullet_among_choices_is_read_as_a_choice():
    result = parse(doc(TITLE, "Question 1: Pick one", "- A (Correct answer)", "• B", "- C",
                       "Correct answer: A", "Because."), PATH)
    assert errors(result) == []
    assert [c.text for c in result.file.questions[0].choices] == ["A", "B", "C"]


def test_git_conflict_markers_are_errors_at_their_lines():
    result = parse(doc(TITLE, *question(1), "<<<<<<< HEAD", *question(2, "What is 3 + 3?",
                       ("5", "6 (Correct answer)"), "6"), "=======",
                       *question(2, "What is 3 + 4?", ("7 (Correct answer)", "8"), "7"),
                       ">>>>>>> theirs"), PATH)
    marker_lines = [n for n, _, m in errors(result) if m.startswith("merge conflict marker")]
    assert marker_lines == [8, 14, 20]


def test_a_lone_row_of_equals_signs_is_not_a_conflict():
    result = parse(doc(TITLE, *question(1, explanation=("Heading", "=======", "text"))), PATH)
    assert not [m for _, _, m in errors(result) if "merge conflict" in m]


def test_a_question_pasted_twice_is_an_error_at_both_copies():
    result = parse(doc(TITLE, *question(1), *question(2, "What is 2 + 2?")), PATH)
    assert errors(result) == [(2, "error", "Question 1 is repeated word for word by Question 2 "
                                            "(line 8); delete one"),
                              (8, "error", "Question 2 repeats Question 1 (line 2) word for "
                                            "word; delete one")]
    assert result.file.questions == ()


def test_the_correct_answer_listed_twice_is_an_error():
    result = parse(doc(TITLE, *question(1, choices=("3", "4 (Correct answer)", "4"))), PATH)
    assert errors(result) == [(5, "error", "Question 1 lists the choice '4' twice (also at "
                                            "line 4); delete one")]


def test_a_file_saved_decomposed_reads_as_the_same_text():
    import unicodedata

    text = doc("Réseaux 2 — Questions and Answers", *question(1, prompt="Qu'est-ce qu'un réseau?"))
    composed = decode_source(text.encode(), PATH).text
    decomposed = decode_source(unicodedata.normalize("NFD", text).encode(), PATH).text
    assert decomposed == composed == text


def test_questions_appended_after_the_footer_keep_it_off_the_card():
    result = parse(doc(TITLE, *question(1), "Sample Topic 3", "What is 2 + 2?",
                       *question(2)), PATH)
    assert errors(result) == []
    first, second = result.file.questions
    assert first.explanation == "Two plus two is four."
    assert second.number == 2
    assert [m for _, _, m in warnings_(result)] == [
        "the footer (the title and the first prompt again) is followed by more questions, "
        "so it is not the end of the file; it is left off the card above: move it to the "
        "end or delete it"]


def test_an_explanation_ending_like_another_parts_title_keeps_its_lines():
    result = parse(doc(TITLE, *question(1, explanation=("Two plus two is four.",
                                                        "Sample Topic 4",
                                                        "covers the rest."))), PATH)
    assert diags(result) == []
    assert result.file.questions[0].explanation == ("Two plus two is four.\nSample Topic 4\n"
                                                    "covers the rest.")


# --- code in the prompt and under choices ---------------------------------------------------

CODE_CHOICES = """Python Testing 1 — Questions and Answers
Question 1: Which is the proper format for a doctest?
- first

```python
def add(a, b):
    \"\"\"add(1, 2) == 3\"\"\"
```

- second (Correct answer)

```python
def add(a, b):
    \"\"\"
    >>> add(1, 2)
    3
    \"\"\"
```
- third
    add(1, 2) -> 3
    - not a choice
- fourth
Correct answer: second
A doctest is an interactive session in the docstring.
"""


def test_a_fenced_block_or_indented_lines_under_a_choice_belong_to_it():
    result = parse(CODE_CHOICES, PATH)
    assert result.diagnostics == ()
    first, second, third, fourth = result.file.questions[0].choices
    assert first.text == 'first\n```python\ndef add(a, b):\n    """add(1, 2) == 3"""\n```'
    assert second.correct and second.line == 10 and second.text.startswith("second\n```python")
    assert second.text.endswith('    """\n```')
    # indented lines: a blank line makes them Markdown's indented code block
    assert third.text == "third\n\n    add(1, 2) -> 3\n    - not a choice"
    assert fourth.text == "fourth" and not fourth.correct


def test_the_answer_line_may_name_a_code_carrying_choice_by_its_first_line():
    assert parse(CODE_CHOICES, PATH).file.questions[0].correct_indexes == (1,)
    wrong = parse(CODE_CHOICES.replace("Correct answer: second", "Correct answer: third"), PATH)
    assert errors(wrong) == [(23, "error", "'Correct answer: third' disagrees with the choice "
                                           "marked '(Correct answer)' at line 10: 'second'; copy the marked choice exactly")]


def test_list_lines_inside_a_code_block_in_the_prompt_are_code_not_choices():
    text = doc(TITLE, "Question 1: What does this YAML define?", "```yaml", "- name: train",
               "  gpus: 8", "- name: eval", "```", "- A list of two jobs (Correct answer)",
               "- A mapping", "Correct answer: A list of two jobs", "Items of a list.")
    question, = parse(text, PATH).file.questions
    assert question.prompt.splitlines()[1:4] == ["```yaml", "- name: train", "  gpus: 8"]
    assert [c.text for c in question.choices] == ["A list of two jobs", "A mapping"]


@pytest.mark.parametrize("where", ["prompt", "choice"])
def test_a_code_block_that_never_closes_is_one_error_at_its_first_line(where):
    lines = [TITLE, "Question 1: What is printed?", "- 1 (Correct answer)", "- 2", "```python",
             "print(1)", "Correct answer: 1", "It prints one.", *question(2)]
    if where == "prompt":
        lines = [TITLE, "Question 1: What is printed?", "```python", "print(1)",
                 "- 1 (Correct answer)", "- 2", "Correct answer: 1", "It prints one.",
                 *question(2)]
    result = parse(doc(*lines), PATH)
    fence = lines.index("```python") + 1
    assert errors(result) == [(fence, "error", "the code block opened here with ``` never "
                               "closes, so Question 1's later lines were read as code; end the "
                               "block with a line of ``` alone")]
    assert numbers(result) == [2]


# --- issue 35: an author's mistakes named where they are -------------------------------------

@pytest.mark.parametrize("written", ["Qestion 3:", "Quesiton 3:", "Questoin 3:", "qustion 3:",
                                     "Quetsion 3:"])
def test_a_misspelt_header_is_the_one_error_at_its_own_line(written):
    """Item 3: "Qestion 3:" on line 11 gave two errors at lines 13 and 16, inside
    Question 2's explanation, and never named line 11."""
    lines = [TITLE, *question(1), *question(2), *question(3), *question(4)]
    at = lines.index("Question 3: What is 2 + 2, case 3?")
    lines[at] = lines[at].replace("Question 3:", written)
    result = parse(doc(*lines), "t-3.txt")
    assert [(line, code) for line, code in
            sorted((d.line, d.code) for d in result.diagnostics)] == [(at + 1, "E114")]
    assert f"{written!r} looks like a mistyped question header" in errors(result)[0][2]


@pytest.mark.parametrize("written", ["Quiz 3:", "Frage 3:", "Item number 3:"])
def test_a_header_in_other_words_is_named_at_its_line(written):
    lines = [TITLE, *question(1), *question(2), *question(3)]
    at = lines.index("Question 3: What is 2 + 2, case 3?")
    lines[at] = lines[at].replace("Question 3:", written)
    result = parse(doc(*lines), "t-3.txt")
    (only,) = errors(result)
    assert only[0] == at + 1 and f"{written!r} is read as text of Question 2's explanation" \
        in only[2] and "write 'Question 3: <prompt>'" in only[2]
    assert not [d for d in result.diagnostics if d.code == "W121"]


def test_an_unclosed_code_block_in_an_explanation_is_an_error_at_its_fence():
    """Item 4: closed silently at the next question (exit 0); in a prompt it is E119."""
    lines = [TITLE, *question(1, explanation=("See:", "```python", "x = 1")), *question(2)]
    result = parse(doc(*lines), "t-3.txt")
    ((line, _, message),) = errors(result)
    assert line == 8 and "in Question 1's explanation never closes" in message


def test_question_lines_inside_a_closed_code_block_of_an_explanation_are_code():
    lines = [TITLE, *question(1, explanation=(
        "A log:", "```", "Correct answer: 4", "- 4 (Correct answer)", "```")), *question(2)]
    result = parse(doc(*lines), "t-3.txt")
    assert errors(result) == []
    assert "Correct answer: 4" in result.file.questions[0].explanation


def test_a_difference_at_the_end_of_a_long_answer_is_shown():
    """Item 5: both texts were cut at the same place, before the typo, and looked alike."""
    long = ("Training with 16-bit floats for computation while maintaining 32-bit master "
            "weights for numerical stability")
    lines = [TITLE, *question(1, choices=("FP64 everywhere", f"{long} (Correct answer)"),
                              answer=long.replace("stability", "stabilty"))]
    result = parse(doc(*lines), "t-3.txt")
    ((_, _, message),) = errors(result)
    assert "…master weights for numerical stabilty'" in message
    assert "'…master weights for numerical stability'" in message
    assert "differs only in case" not in message


def test_choices_that_share_a_first_line_are_told_apart_by_the_mark():
    """Item 5: a choice that is only ":" over a code block was said to differ "only in
    case" from ":"."""
    lines = [TITLE, "Question 1: Which prints 2?", "- :", "    print(1)",
             "- : (Correct answer)", "    print(2)", "- :", "    print(3)",
             "Correct answer: :", "Because."]
    result = parse(doc(*lines), "t-3.txt")
    assert errors(result) == []
    assert [c.correct for c in result.file.questions[0].choices] == [False, True, False]
