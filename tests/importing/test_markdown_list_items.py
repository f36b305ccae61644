"""Questions written as a list's items, their choices on the item's next lines (issue 46,
round five): "* **Q1:** …" over "a) …" lines, the right one in bold; choices numbered
"1:", "1)" or "(1)" whose answer is given by its number ("##### Answer: 2" inside a
<details> block) or by bold; and a page of open questions around them, said once."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import written_questions
from growth import least_cpu
from nca_anki.importing import lettered, markdown, page


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


BULLETED = """Here are some garden questions, the answers in bold:

* **Q1:** How many petals has a common buttercup?
  a) three
  b) four
  **c) five**
  d) six

* **Q2:** Which of these is a root vegetable?
  a) lettuce
  **b) parsnip**
  c) celery

* **Q3:** Pick the best sentence:
Options:
THE ROSES IS RED.
**THE ROSES ARE RED.**

* **Q4:** Which bird sings at dawn?
  **a) blackbird**
  b) penguin
"""


def test_bulleted_questions_with_lettered_lines_and_a_bold_answer_are_read(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "garden.md", BULLETED)
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("How many petals has a common buttercup?", ["three", "four", "*five", "six"]),
        ("Which of these is a root vegetable?", ["lettuce", "*parsnip", "celery"]),
        ("Which bird sings at dawn?", ["*blackbird", "penguin"]),
    ]
    # The third, numbered between the others but with no lettered choices, is said at its
    # line; it does not become the second's explanation.
    assert f"{bank}:14: error[E702]: the question 'Pick the best sentence:', numbered " \
        "between the questions around it, has no lettered choices" in done.err
    assert "W701" not in done.err and "file without questions" not in done.err
    assert all(q[2] == "" for q in written_questions(tmp_path / "source"))


NUMBERED_BOLD = """1. Which metal is liquid at room temperature?
   (1) iron
   **(2) mercury**
   (3) copper

2. Which gas do we breathe out?
   1) oxygen
   2) nitrogen
   **3) carbon dioxide**
"""


def test_numbered_choices_under_a_numbered_item_the_right_one_bold(tmp_path, cli):
    _, done = _import(cli, tmp_path, "metals.md", NUMBERED_BOLD)
    assert done.status == 0, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("Which metal is liquid at room temperature?", ["iron", "*mercury", "copper"]),
        ("Which gas do we breathe out?", ["oxygen", "nitrogen", "*carbon dioxide"]),
    ]


def _open(n: int) -> str:
    return f"{n}. ### Why do leaves change colour in autumn?\n\n   Chlorophyll breaks down.\n\n"


def _coding(n: int, right: int) -> str:
    return (f"#### {n}. What does this print?\n\n```python\nprint({n} * 2)\n```\n\n"
            f"- 1: {n}\n- 2: {n * 2}\n- 3: {n * 3}\n\n"
            "<details><summary><b>Answer</b></summary>\n<p>\n\n"
            f"##### Answer: {right}\n\nIt doubles {n}.\n\n</p>\n</details>\n\n---\n\n")


def test_numbered_choices_answered_by_number_among_open_questions(tmp_path, cli):
    text = "# Interview\n\n### Table of Contents\n\n<!-- TOC_START -->\n| 1 | x |\n" \
        "<!-- TOC_END -->\n\n" + "".join(_open(n) for n in range(1, 9)) \
        + "### Coding\n\n" + _coding(1, 2) + _coding(2, 2)
    bank, done = _import(cli, tmp_path, "interview.md", text)
    assert list(written_questions(tmp_path / "source")) == [
        ("What does this print?\n\n```python\nprint(1 * 2)\n```", ["1", "*2", "3"],
         "It doubles 1."),
        ("What does this print?\n\n```python\nprint(2 * 2)\n```", ["2", "*4", "6"],
         "It doubles 2."),
    ]
    # The open questions are said once, truly, at the first; the contents' comments open
    # no answer.
    assert done.err.count("W712") == 1 and "8 headings that ask" in done.err
    assert f"{bank}:9: warning[W712]" in done.err
    assert "Table of Contents" not in done.err and "W701" not in done.err


def test_a_numbered_list_of_steps_with_a_bold_step_stays_text():
    """Bold marks the right choice only under text that asks: "in two ways," over a
    list whose second step is all in bold is no question."""
    lines = ["You can do it in two ways,", "1. **first way:** this", "2. **second way**"]
    assert lettered._numbered_as_lettered(lines, [False] * 3) == lines
    asked = ["Which way?", "1. first way", "2. **second way**"]
    assert lettered._numbered_as_lettered(asked, [False] * 3)[1:] == [
        "A. first way", "B. **second way**"]


@pytest.mark.parametrize("unit", [
    "- 1: x\n- 2: y\n##### Answer: 2\n",
    "Which?\n1) x\n**2) y**\n",
    "1. a\n   1. b\n      1. c\n",
    "* **Q1:** Which?\n  a) x\n  **b) y**\n\n",
])
def test_numbered_choices_and_bulleted_questions_read_in_linear_time(unit):
    def read(count: int) -> None:
        markdown.read(unit * count, "big.md")

    short = least_cpu(lambda: read(1_000))
    long = least_cpu(lambda: read(4_000))
    assert long < 8 * max(short, 0.05), (unit, short, long)


def test_the_nesting_of_numbered_lines_is_looked_at_once_each():
    text = "".join(" " * depth + "1. x\n" for depth in range(3_000))
    short = least_cpu(lambda: lettered._numbered_as_lettered(
        text.split("\n")[:1_000], page.code_lines(text)[:1_000]))
    long = least_cpu(lambda: lettered._numbered_as_lettered(
        text.split("\n"), page.code_lines(text)))
    assert long < 8 * max(short, 0.05), (short, long)


def test_lettered_choices_that_nothing_answers_are_said_at_their_line(tmp_path, cli):
    """A file of lettered choices with no answer line, no bold and no key is not "a file
    without questions": where the choices are and what is missing is said (E703)."""
    bank, done = _import(cli, tmp_path, "pets.md", "Pets\n\nQ1) Name a pet\na) cat\nb) lion\n"
                         "\nQ2) Name a bird\na) crow\nb) bat\n")
    assert done.status == 1
    assert f"{bank}:4: error[E703]: 2 lists of lettered choices (the first here: 'a) cat') " \
        "but no answer line" in done.err


def test_a_list_of_links_numbered_above_the_questions_is_no_question(tmp_path, cli):
    """Numbered lines with no choices are questions left out only between two questions
    that have choices; a numbered list of sources at the top is text."""
    bank, done = _import(cli, tmp_path, "sources.md", "1. https://example.org/one\n"
                         "2. https://example.org/two\n3. https://example.org/three\n\n"
                         "4. Which is a fruit?\nA. pear\nB. brick\nAnswer: A\n")
    assert done.status == 0, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("Which is a fruit?", ["*pear", "brick"])]


def test_choices_that_start_at_b_are_said_at_the_question(tmp_path, cli):
    """"A." written on the question's line leaves choices B to D: the question is said at
    its line with where its choices start, not refused for a letter of "0 choices"."""
    bank, done = _import(cli, tmp_path, "start.md", "1. Which is a fruit?\nA. pear\nB. brick\n"
                         "Answer: A\n\n2. Which is a metal?   - A. tin\n- B. wool\n- C. silk\n"
                         "\nAnswer: A\n")
    assert f"{bank}:6: error[E702]: the lettered choices under this question start at line 7" \
        in done.err
    assert "0 choices" not in done.err


def test_only_the_right_letters_listed_under_the_choices(tmp_path, cli):
    """Under "__Suggested Answers__", a list holding only the right letter, marked
    ("- B - Correct"), answers the question as the full list of letters does."""
    _, done = _import(cli, tmp_path, "pick.md", "__Practice Question__\n\nPick one.\n\n"
                      "A. first\nB. second\nC. third\n\n__Suggested Answers__\n\n"
                      "- B - Correct\n")
    assert done.status == 0, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("Pick one.", ["first", "*second", "third"])]


def test_a_bracketed_label_in_a_quote_leaves_the_explanation(tmp_path, cli):
    """"> **【分析】**<br>" over the quoted analysis: the label goes, its line with it; the
    quote stays a quote."""
    _, done = _import(cli, tmp_path, "fenxi.md", "### 1. 下面哪个是偶数（）\n- [ ] A. 3\n"
                      "- [x] B. 4\n\n> **【分析】**<br>\n> 4 能被 2 整除。\n")
    assert done.status == 0, done.err
    (question,) = written_questions(tmp_path / "source")
    assert "分析" not in question[2] and "4 能被 2 整除" in question[2]


def test_a_numbered_list_inside_the_answer_block_is_no_question(tmp_path, cli):
    """A <details> block holds the answer and explanation, never choices: its "It happens
    in two cases:" over "1. …" and "2. **…**" stays the explanation."""
    text = _coding(1, 2).replace("It doubles 1.", "It happens in two cases:\n1. **first** "
                                 "of all\n2. **second**\n\nThat is all.")
    _, done = _import(cli, tmp_path, "cases.md", "# Code\n\n" + text)
    assert done.status == 0, done.err
    ((_, choices, explanation),) = written_questions(tmp_path / "source")
    assert choices == ["1", "*2", "3"] and "That is all." in explanation


def test_labels_left_out_of_checkbox_choices_are_said_once(tmp_path, cli):
    """"- [x] A. 4": the card letters its choices itself, so the typed letters go, as in
    the Moodle and structured readers, and that is said once for the file (W716)."""
    bank, done = _import(cli, tmp_path, "even.md", "### 1. Which is even?\n- [ ] A. 3\n"
                         "- [x] B. 4\n\n### 2. Which is odd?\n- [x] (a) 3\n- [ ] (b) 4\n")
    assert done.status == 0, done.err
    assert [q[1] for q in written_questions(tmp_path / "source")] == [["3", "*4"], ["*3", "4"]]
    assert done.err.count("W716") == 1
    assert f"{bank}:2: warning[W716]: the '- [ ]' choices of 2 questions start with their " \
        "own letters ('A. …' first)" in done.err


def test_an_unnumbered_bulleted_question_over_its_lettered_lines(tmp_path, cli):
    """"* Which …?" whose item goes on with "a) …" lines, the right one in bold: a
    question without a number is still one."""
    _, done = _import(cli, tmp_path, "legs.md", "* What has four legs?\n  a) a bird\n"
                      "  **b) a cat**\n  c) a fish\n\n* Which is a colour?\n  a) dog\n"
                      "  **b) red**\n")
    assert done.status == 0, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("What has four legs?", ["a bird", "*a cat", "a fish"]),
        ("Which is a colour?", ["dog", "*red"])]


def test_answered_choices_under_no_header_are_said_at_the_first(tmp_path, cli):
    """Choices with a bold answer under lines that neither ask nor are numbered: no
    question is read, and that is said where the choices are, with why (E702)."""
    bank, done = _import(cli, tmp_path, "pets.md", "Pets\n\nName a pet\na) cat\n**b) dog**\n"
                         "\nName a bird\na) crow\n**b) owl**\n")
    assert done.status == 1
    assert f"{bank}:4: error[E702]: 2 lists of lettered choices (the first here: 'a) cat') " \
        "and their answers, but no question's header" in done.err


def test_choices_in_small_letters_on_the_question_line_the_right_one_bold(tmp_path, cli):
    """"1. Which …? a) x **b) y** c) z": the numbered line holds its choices; the bold one
    is right. Small letters are read so on a question's numbered line only."""
    _, done = _import(cli, tmp_path, "inline.md", "1. How many legs has a cat? a) two "
                      "b) three **c) four** d) five\n2. Which is a colour? a) dog **b) red** "
                      "c) run\n")
    assert done.status == 0, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("How many legs has a cat?", ["two", "three", "*four", "five"]),
        ("Which is a colour?", ["dog", "*red", "run"])]


def test_eleven_inline_letters_in_a_row_are_no_crash():
    line = "1. Pick: " + " ".join(f"{c}) x" for c in "ABCDEFGHIJ") + " A) y B) z"
    assert len(lettered._inline_cuts(line)) == 10
    markdown.read(line + "\nAnswer: B\n", "many.md")
