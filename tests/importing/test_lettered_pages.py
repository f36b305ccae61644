"""Lettered Markdown read as the page shows it (issue 46, items 2, 7 and parts of 3 and
9): an answer line that restates its choice is the answer, not the explanation; a
site's page furniture around each question is no question text; an answer inside a
<details> block is read whatever its summary says; answers written in words. Every bank
here is invented for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import written_questions



def _write(folder: Path, name: str, text: str, newline: str = "\n") -> Path:
    path = folder / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def _run(cli, tmp_path: Path, *args: str):
    return cli("import", *args, "--out", str(tmp_path / "out"))


RESTATED = """# 🌊 Oceans

### 1. 🐋 Which ocean is the largest? 🟢

A) 🌊 Pacific

B) 🧊 Arctic

C) 🌴 Indian

**Respuesta correcta**: A) 🌊 Pacific

> 💡 It covers about a third of the planet's surface.

### 2. Which sea has no coast?

A) Sargasso Sea

B) Baltic Sea

**Correct Answer**: A) The Sargasso

> It is bounded by currents, not land.

### 3. Which tool reads a pod's logs?

- A) `kubectl logs <pod-name>`
- B) `kubectl get <pod-name>`

**Answer:** A) `kubectl logs <pod-name>`\x20\x20
**Explicación:** it prints what the container wrote.
"""


def test_an_answer_line_that_restates_its_choice_is_no_explanation(tmp_path, cli):
    bank = _write(tmp_path, "oceans.md", RESTATED)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("🐋 Which ocean is the largest? 🟢", ["*🌊 Pacific", "🧊 Arctic", "🌴 Indian"],
         "💡 It covers about a third of the planet's surface."),
        ("Which sea has no coast?", ["*Sargasso Sea", "Baltic Sea"],
         "It is bounded by currents, not land."),
        ("Which tool reads a pod's logs?", ["*`kubectl logs <pod-name>`",
                                            "`kubectl get <pod-name>`"],
         "it prints what the container wrote.")]
    # The second restates its choice in other words: the letter decides, and it is said.
    assert f"{bank}:21: warning[W711]: the answer line says 'The Sargasso'" in done.err


def _dump(n: int) -> str:
    """A site's page saved as Markdown: the same furniture around every question."""
    rivers = ["Nile", "Amazon", "Yangtze", "Danube", "Volga", "Rhine"]
    parts = ["# Saved questions\n"]
    for k in range(1, n + 1):
        river = rivers[k % len(rivers)]
        parts.append(f"""## Quiz GEO topic 2 question {k} discussion

Real quiz question from

Geo Board's
GEO

Question #: {k}
Topic #: 2

[All GEO Questions]

Which river flows through the city numbered {k}, {river} or another?\x20
Suggested Answer: B 🗳️\x20

A. Another

B. The {river}

**Answer: B**

**Posted: {['Jan.', 'March', 'Sept.'][k % 3]} {k}, 2024, {k % 12 + 1}{':15' if k % 2 else ''} {['a.m.', 'p.m.'][k % 2]}**

[Open on Quizsite](https://quiz.example/view/{1000 + k}-quiz-geo-topic-2-question-{k}-discussion/)

----------------------------------------
""")
    return "\n".join(parts)


def test_page_furniture_repeated_around_every_question_is_no_question_text(tmp_path, cli):
    bank = _write(tmp_path, "dump.md", _dump(6))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    rivers = ["Nile", "Amazon", "Yangtze", "Danube", "Volga", "Rhine"]
    assert written_questions(tmp_path / "out") == [
        (f"Which river flows through the city numbered {k}, {rivers[k % 6]} or another?",
         ["Another", f"*The {rivers[k % 6]}"], "") for k in range(1, 7)]


def test_a_suggested_answer_that_differs_from_the_answer_line_is_said(tmp_path, cli):
    text = _dump(5).replace("Suggested Answer: B", "Suggested Answer: AB", 1)
    bank = _write(tmp_path, "dump.md", text)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert f"{bank}:16: warning[W711]: this answer (AB) differs from the one at line 22 (B)" \
        in done.err


DETAILS = """# Chapter 1 - Rivers
## Question 1.1
Which river is the longest?
- a. Nile\x20\x20
- b. Seine\x20\x20
- c. Thames\x20\x20
<details>
    <summary>Answaer</summary>
    a. Nile
</details>

## Question 1.2
Which are in Europe? Select all.
- a. Danube\x20\x20
- b. Congo\x20\x20
- c. Rhine\x20\x20
<details>
    <summary>Click me</summary>
    - a. Danube
    - c. Rhine
</details>

## Question 1.3
Which flows north?
- a. Nile
- b. Ganges
Answer: a. Nile

<details>
    <summary>Answaer</summary>
    - Answer: a. Nile
</details>

## Question 1.4
Which is in Asia?
- a. Mekong
- b. Loire
<details><summary>?</summary> a. Mekong</details>

## Question 1.5
Which is shortest?
- a. Reprua
- b. Amazon
<details>
    <summary>Answaer</summary>
    - Answer: a. Reprua
</details>
"""


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_answer_inside_details_whatever_its_summary_says(tmp_path, cli, newline):
    bank = _write(tmp_path, "rivers.md", DETAILS, newline)
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert "W711" not in done.err and "E70" not in done.err
    assert written_questions(tmp_path / "out") == [
        ("Which river is the longest?", ["*Nile", "Seine", "Thames"], ""),
        ("Which are in Europe? Select all.", ["*Danube", "Congo", "*Rhine"], ""),
        ("Which flows north?", ["*Nile", "Ganges"], ""),
        ("Which is in Asia?", ["*Mekong", "Loire"], ""),
        ("Which is shortest?", ["*Reprua", "Amazon"], "")]


def test_a_details_answer_that_differs_from_the_answer_line_is_said(tmp_path, cli):
    bank = _write(tmp_path, "rivers.md", DETAILS.replace("    - Answer: a. Nile",
                                                           "    - b. Ganges"))
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert f"{bank}:31: warning[W711]: this answer (b) differs from the one at line 27 (a)" \
        in done.err
    assert written_questions(tmp_path / "out")[2] == ("Which flows north?", ["*Nile", "Ganges"], "")


@pytest.mark.parametrize(("answer", "explanation"), [
    ("A and C", ""), ("A & C", ""), ("A, C", ""), ("AC", ""), ("(A) and (C)", ""),
    ("A y C", ""), ("A, C https://example.org/lakes", "https://example.org/lakes"),
    ("A, C (see the atlas)", "(see the atlas)")])
def test_answers_in_words(tmp_path, cli, answer, explanation):
    bank = _write(tmp_path, "lakes.md", f"""# Lakes

### 1. Which lakes are in Africa?
A. Victoria
B. Superior
C. Tanganyika

Answer: {answer}
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("Which lakes are in Africa?", ["*Victoria", "Superior", "*Tanganyika"], explanation)]


@pytest.mark.anki
def test_restated_answers_and_notes_arrive_in_anki(tmp_path, cli):
    from test_import import _as_read, _built_cards, _squeezed

    _write(tmp_path, "oceans.md", RESTATED)
    done = cli("import", str(tmp_path / "oceans.md"), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err
    [cards] = _built_cards(tmp_path).values()
    read = sorted(_as_read(card) for card in cards)
    assert sorted(explanation for _, _, explanation in read) == sorted(_squeezed(e) for e in (
        "💡 It covers about a third of the planet's surface.",
        "It is bounded by currents, not land.", "it prints what the container wrote."))


def test_a_heading_numbered_with_its_section_gives_no_number_to_the_prompt(tmp_path, cli):
    bank = _write(tmp_path, "rivers.md", """# Rivers
## Question 7.4
Which river is the longest?
- a. Nile
- b. Seine
Answer: a. Nile

### 2.10. Which river crosses Vienna?
- a. Danube
- b. Po
Answer: a
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [
        ("Which river is the longest?", ["*Nile", "Seine"], ""),
        ("Which river crosses Vienna?", ["*Danube", "Po"], "")]


def test_a_question_that_would_read_back_otherwise_names_the_line():
    from nca_anki.importing.bank import Choice, Item
    from nca_anki.importing.convert import _written

    item = Item(prompt="Which river?", explanation="", path="rivers.md", line=3,
                choices=(Choice("Nile", True), Choice("Po\n- [x] and its delta", False)))
    _, written, [problem] = _written("Rivers", 1, [item], "rivers-1.txt")
    assert written == []
    assert "its line '- [x] and its delta', which the format takes as structure" \
        in problem.message and "?" not in problem.message


def test_choices_and_answers_as_full_width_editors_write_them(tmp_path, cli):
    bank = _write(tmp_path, "wide.md", r"""# 河流

1。**哪条河最长？**
–A）尼罗河
–B）塞纳河

- _答案：\*\*A）尼罗河 _ \*解释：\*\*它约有六千六百公里。

2 。哪些在欧洲？（选择所有适用的选项）

- A ) 多瑙河

- B ) 刚果河

- C ) 莱茵河

* 答案 : A , C

* 解釋 : 两条都流经欧洲。

3。**哪条河流经维也纳？** –A）多瑙河 –B）泰晤士河 \* _答案：\*\*A）多瑙河 _ \*解释：\*\*维也纳在多瑙河畔。

4. Which river is in Africa?

-A Congo

-B Seine

Answer: A
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert [(p.strip("*\\"), c, e) for p, c, e in written_questions(tmp_path / "out")] == [
        ("哪条河最长？", ["*尼罗河", "塞纳河"], "它约有六千六百公里。"),
        ("哪些在欧洲？（选择所有适用的选项）", ["*多瑙河", "刚果河", "*莱茵河"], "两条都流经欧洲。"),
        ("哪条河流经维也纳？", ["*多瑙河", "泰晤士河"], "维也纳在多瑙河畔。"),
        ("Which river is in Africa?", ["*Congo", "Seine"], "")]


def test_a_question_whose_choices_on_its_line_are_not_read_is_said_at_its_line(tmp_path, cli):
    bank = _write(tmp_path, "rivers.md", """# Rivers

1. Which river is the longest?
A) Nile
B) Seine
Answer: A

2. Which is in Asia? -A Mekong -B Loire Answer: A
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 1
    assert f"{bank}:8: error[E702]: '2. Which is in Asia? -A Mekong -B Loire Answer: A' holds " \
        "a question's choices and answer on its line" in done.err
    assert written_questions(tmp_path / "out") == [
        ("Which river is the longest?", ["*Nile", "Seine"], "")]


def _paths() -> list[tuple[str, object, str]]:
    """(what, a function of one text, a hostile unit) for each text path this reading
    added: none may search from every opening to the end of a line."""
    from nca_anki.importing import cues, lettered

    return [
        ("a summary never closed", lettered._without_summary, "<summary>"),
        ("a summary's tag line", lettered._is_tag_line, "<summary>a</summary>"),
        ("choices on a question's line", lettered._inline_cuts, " –A）"),
        ("choices on a question's line", lettered._inline_cuts, " A) B) Answer"),
        ("choices on a line, unread", lettered._unread_choices, " A"),
        ("letters in words", lambda t: cues.answer_line("Answer: " + t + "x"),
         "A and "),
        ("letters in words", lambda t: cues.answer_line("Answer: " + t + "x"), "(A)"),
        ("a line's shape", lettered._shape, "Oct. 3, 2:29 p.m. "),
        ("a label inside an answer", cues.explanation_inside, " \\*"),
        ("a label inside an answer", cues.explanation_inside, " _ *explanation"),
    ]


@pytest.mark.parametrize("what, call, unit", _paths(),
                         ids=[f"{what}-{unit!r}" for what, _, unit in _paths()])
def test_each_new_text_path_is_linear(what, call, unit):
    from growth import least_cpu

    short = least_cpu(lambda: call(unit * 10_000))
    long = least_cpu(lambda: call(unit * 40_000))
    assert long < 8 * max(short, 0.05), (what, unit, short, long)


def test_reading_a_page_dump_is_linear_in_its_questions():
    from growth import least_cpu

    from nca_anki.importing import lettered

    small, big = _dump(500), _dump(2_000)
    assert len(lettered.read(_dump(6), "dump.md")[0]) == 6
    short = least_cpu(lambda: lettered.read(small, "dump.md"))
    long = least_cpu(lambda: lettered.read(big, "dump.md"))
    assert long < 8 * max(short, 0.05), (short, long)


def test_a_closing_remark_at_the_margin_is_no_part_of_the_last_question(tmp_path, cli):
    bank = _write(tmp_path, "rivers.md", """# Rivers

1. **Which river is the longest?**
   - A: Nile
   - B: Seine
     **Answer:** A
     **Explanation:** it runs through eleven countries.

These questions cover the great rivers.
""")
    done = _run(cli, tmp_path, str(bank))
    assert done.status == 0, done.err
    assert f"{bank}:9: warning[W701]: text that is no question was not converted: " \
        "'These questions cover the great rivers.'" in done.err
    assert written_questions(tmp_path / "out") == [
        ("Which river is the longest?", ["*Nile", "Seine"], "it runs through eleven countries.")]
