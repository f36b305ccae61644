"""Markdown banks' text arrives as written (issue 45, 1 and 2): "<", ">" and "&" in every
part of a question and in every Markdown shape are text, never tags taken away; a code
block is text, never structure; a question whose header lost its "." is read with a
warning or refused at its line, never added to the question before it. Checked on the
question files the import writes and, end to end, on the cards of a real collection."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


# Each shape with "<", ">" and "&" in the prompt, a choice, the answer line and the
# explanation, in code and out of it.
SHAPES = {
    "numbered, A) choices, Answer: C": """# CUDA

1. How do you launch `kernel<<<64, 256>>>(args)` with a `std::vector<int>` & a <T>?
A) With `kernel<<<1, 1>>>()` & more
B) Not <b>at all</b>
C) With `launch<T>(n)`
Answer: C) because `kubectl logs <pod-name>` says so

Explanation: the `<<<` syntax & `std::vector<int>`.
""",
    "heading, - A: choices, a <details> answer": """# CUDA

###### 1. How do you launch `kernel<<<64, 256>>>(args)` with a `std::vector<int>` & a <T>?

- A: With `kernel<<<1, 1>>>()` & more
- B: Not <b>at all</b>
- C: With `launch<T>(n)`

<details><summary><b>Answer</b></summary>
<p>

#### Answer: C) because `kubectl logs <pod-name>` says so

Explanation: the `<<<` syntax & `std::vector<int>`.
</p>
</details>
""",
    "bold answer line": """# CUDA

**1. How do you launch `kernel<<<64, 256>>>(args)` with a `std::vector<int>` & a <T>?**
A. With `kernel<<<1, 1>>>()` & more
B. Not <b>at all</b>
C. With `launch<T>(n)`

**Correct Answer**: C) because `kubectl logs <pod-name>` says so

Explanation: the `<<<` syntax & `std::vector<int>`.
""",
    "details, (A) choices": """# CUDA

### Q1: How do you launch `kernel<<<64, 256>>>(args)` with a `std::vector<int>` & a <T>?
(A) With `kernel<<<1, 1>>>()` & more
(B) Not <b>at all</b>
(C) With `launch<T>(n)`

<details>
<summary>Show answer</summary>

Correct answer: C — because `kubectl logs <pod-name>` says so

Explanation: the `<<<` syntax & `std::vector<int>`.
</details>
""",
    "checkbox": """# CUDA

#### Q1. How do you launch `kernel<<<64, 256>>>(args)` with a `std::vector<int>` & a <T>?
- [ ] With `kernel<<<1, 1>>>()` & more
- [ ] Not <b>at all</b>
- [x] With `launch<T>(n)`

because `kubectl logs <pod-name>` says so

Explanation: the `<<<` syntax & `std::vector<int>`.
""",
}
PROMPT = "How do you launch `kernel<<<64, 256>>>(args)` with a `std::vector<int>` & a <T>?"
# "<b>" is HTML the page renders (issue 46, 3): bold on the card, never a literal tag.
CHOICES = ["With `kernel<<<1, 1>>>()` & more", "Not **at all**", "*With `launch<T>(n)`"]


@pytest.mark.parametrize("shape", SHAPES)
def test_angle_brackets_and_ampersands_arrive_as_written(tmp_path, cli, shape):
    _, done = _import(cli, tmp_path, "cuda.md", SHAPES[shape])
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    [(prompt, choices, explanation)] = written_questions(tmp_path / "source")
    assert prompt == PROMPT
    assert choices == CHOICES
    assert "`kubectl logs <pod-name>`" in explanation
    assert "the `<<<` syntax & `std::vector<int>`." in explanation


def test_code_blocks_are_text_never_structure(tmp_path, cli):
    """A "# comment" in a code block is no heading, "<div>" in one no tag to leave out,
    "```code```" on one line no fence; a header's closing "#"s go, a "C#" stays."""
    bank, done = _import(cli, tmp_path, "shell.md", """# Shell

### 1. What does this print in C#
```bash
# a comment, not a heading
echo "<b>"
```
A. `<b>`
B. nothing
```html
<div>
<p>
</div>
```

Answer: A

Because ```echo``` prints what it is given:

```html
<p>
</p>
```

### 2. Which shell? ###
A. bash
B. zsh
Answer: B
""")
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source") == [
        ("What does this print in C#\n```bash\n# a comment, not a heading\necho \"<b>\"\n```",
         ["*`<b>`", "nothing\n```html\n<div>\n<p>\n</div>\n```"],
         "Because ```echo``` prints what it is given:\n\n```html\n<p>\n</p>\n```"),
        ("Which shell?", ["bash", "*zsh"], "")]


def test_structure_around_a_header_goes_and_text_stays(tmp_path, cli):
    """Emphasis or tags around the whole header, an anchor, a "<br>", are structure; a
    "__init__", a "<T>" and a link in angle brackets are text."""
    _, done = _import(cli, tmp_path, "py.md", """# Python

### <a name="q1"></a>**1. What does `__init__` return for a `Box<T>`?**
A. None
B. self
Answer: A <https://docs.python.org/3/reference/datamodel.html>

**2.** What does __init__ do?<br/>Pick one.
A. builds
B. nothing
**Answer: A. It sets up <b>self</b>**

### <b>Q3.</b> Why:
1. first reason
2. second reason
A. yes
B. no
Answer: B

Reasons:
1. it is
2. it was
""")
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source") == [
        ("What does `__init__` return for a `Box<T>`?", ["*None", "self"],
         "<https://docs.python.org/3/reference/datamodel.html>"),
        ("What does __init__ do? Pick one.", ["*builds", "nothing"],
         "It sets up **self**"),
        ("Why:\n1. first reason\n2. second reason", ["yes", "*no"],
         "Reasons:\n1. it is\n2. it was")]


DAMAGED = """# Quiz

8. What is eight?
A) eight
B) nine
Answer: A

Because it is.

{header} What happens here?
A) this
B) that
Answer: B

Because of that.

10. Last one?
A) x
B) y
Answer: A
"""


@pytest.mark.parametrize("header", ["9", "9.What", "9 -", "9 —", "Q9", "**9**", "9,"])
def test_a_header_with_damaged_numbering_is_read_with_a_warning(tmp_path, cli, header):
    text = DAMAGED.replace("{header} What", header if header.endswith("What")
                           else f"{header} What")
    bank, done = _import(cli, tmp_path, "quiz.md", text)
    assert done.status == 0, done.err
    assert re.search(rf"{re.escape(str(bank))}:10: warning\[W707\]: '.*' was read as question "
                     r"9's header", done.err), done.err
    assert written_questions(tmp_path / "source") == [
        ("What is eight?", ["*eight", "nine"], "Because it is."),
        ("What happens here?", ["this", "*that"], "Because of that."),
        ("Last one?", ["*x", "y"], "")]


@pytest.mark.parametrize("header, says", [
    ("19 What happens here?", "'19 What happens here?' looks like a question's header"),
    ("What happens here?", "a question ('What happens here?') with choices and an answer "
                           "line but no header"),
    ("Q: What happens here?", "a question ('Q: What happens here?') with choices"),
])
def test_a_header_that_cannot_be_read_is_an_error_at_its_line(tmp_path, cli, header, says):
    bank, done = _import(cli, tmp_path, "quiz.md", DAMAGED.replace("{header} What happens here?",
                                                                   header))
    assert done.status == 1
    assert f"{bank}:10: error[E702]: {says}" in done.err, done.err
    # Nothing of it was added to the question before.
    assert written_questions(tmp_path / "source") == [
        ("What is eight?", ["*eight", "nine"], "Because it is."),
        ("Last one?", ["*x", "y"], "")]


def test_a_number_in_a_question_s_own_text_is_no_header(tmp_path, cli):
    """ "9 threads" in question 8's prompt or explanation is its text: no header without
    its own choices and answer, and none inside a question not yet answered."""
    _, done = _import(cli, tmp_path, "quiz.md", """# Quiz

8. How many threads?
9 threads run here.
A) eight
B) nine
Answer: B

9 threads, one per lane.

9. Next?
A) x
B) y
Answer: A
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("How many threads?\n9 threads run here.", ["eight", "*nine"],
         "9 threads, one per lane."),
        ("Next?", ["*x", "y"], "")]


@pytest.mark.anki
def test_the_text_arrives_on_the_cards_of_a_real_collection(tmp_path, cli):
    """Import, build, and import the decks into a real collection: the card shows "<",
    ">" and "&" as written, and the question whose header lost its "." is its own card."""
    _, done = _import(cli, tmp_path, "cuda.md", SHAPES["numbered, A) choices, Answer: C"]
                      .replace("1. How", "1 How"))
    assert done.status == 0 and "W707" in done.err, done.err
    _, more = _import(cli, tmp_path / "more", "quiz.md", DAMAGED.replace("{header}", "9"))
    for path in (tmp_path / "more" / "source").glob("*.txt"):
        path.rename(tmp_path / "source" / path.name)
    _, cards = built_and_imported(tmp_path, ("NCA::CUDA", "NCA::Quiz"))
    [cuda], quiz = cards["NCA::CUDA"], cards["NCA::Quiz"]
    prompt = cuda.fields["Prompt"]
    assert "<code>kernel&lt;&lt;&lt;64, 256&gt;&gt;&gt;(args)</code>" in prompt, prompt
    assert "<code>std::vector&lt;int&gt;</code> &amp; a &lt;T&gt;?" in prompt, prompt
    assert "Not <strong>at all</strong>" in cuda.fields["Choices"]
    assert "<code>kubectl logs &lt;pod-name&gt;</code>" in cuda.fields["Explanation"]
    assert sorted(c.fields["Prompt"] for c in quiz) == [
        "Last one?", "What happens here?", "What is eight?"]
    [nine] = [c for c in quiz if c.fields["Prompt"] == "What happens here?"]
    assert nine.fields["Explanation"] == "<p>Because of that.</p>"
    [eight] = [c for c in quiz if c.fields["Prompt"] == "What is eight?"]
    assert eight.fields["Explanation"] == "<p>Because it is.</p>"


CHECKBOX_DAMAGED = {
    "headings": """# Quiz

#### Q8. What is eight?
- [x] eight
- [ ] nine

Because it is.

{header} What happens here?
- [ ] this
- [x] that

#### Q10. Last one?
- [x] x
- [ ] y
""",
    "an ordered list": """# Quiz

8. What is eight?
   - [x] eight
   - [ ] nine

   Because it is.

{header} What happens here?
   - [ ] this
   - [x] that

10. Last one?
    - [x] x
    - [ ] y
""",
}


@pytest.mark.parametrize("shape", CHECKBOX_DAMAGED)
@pytest.mark.parametrize("header", ["9", "Q9", "9 -"])
def test_a_checkbox_question_with_damaged_numbering_is_read_with_a_warning(
        tmp_path, cli, shape, header):
    bank, done = _import(cli, tmp_path, "quiz.md",
                         CHECKBOX_DAMAGED[shape].replace("{header}", header))
    assert done.status == 0, done.err
    assert f"{bank}:9: warning[W707]: '{header} What happens here?' was read as question 9's" \
        in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("What is eight?", ["*eight", "nine"], "Because it is."),
        ("What happens here?", ["this", "*that"], ""),
        ("Last one?", ["*x", "y"], "")]


@pytest.mark.parametrize("shape", CHECKBOX_DAMAGED)
def test_a_checkbox_question_out_of_sequence_is_refused_and_not_explained_away(
        tmp_path, cli, shape):
    bank, done = _import(cli, tmp_path, "quiz.md",
                         CHECKBOX_DAMAGED[shape].replace("{header}", "19"))
    assert done.status == 1
    assert f"{bank}:10: error[E702]: a second list of '- [ ]' choices" in done.err, done.err
    assert written_questions(tmp_path / "source") == [
        ("What is eight?", ["*eight", "nine"], "Because it is."),
        ("Last one?", ["*x", "y"], "")]
