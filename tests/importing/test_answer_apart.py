"""Markdown banks whose answers sit away from their choices (issue 46): in the sentences of
a feedback section under the choices ("B is correct because …"), or in an answer key at
the end of the file ("## Corrigé" with "1. b", a table, "1-b, 2-c"), matched to the
questions by their numbers (nca_anki/importing/answer_key.py). A question left without an
answer is said at its own line, never lost as text. Every bank here is invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions
from growth import least_cpu
from nca_anki.importing import answer_key, cues, markdown


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


# --- the answer in a feedback section ---------------------------------------------------

FEEDBACK = """# orbit-07

A probe must stay above one spot of the equator. Which orbit does it need?

A. A polar orbit at 800 km.

B. A geostationary orbit.

C. A sun-synchronous orbit.

## Feedback

A is not correct because a polar orbit crosses every latitude.

B is correct because its period matches one turn of the Earth.

C is not correct because it keeps the local time, not the place.

https://example.org/orbits
"""


def test_a_feedback_section_answers_the_question_and_is_its_explanation(tmp_path, cli):
    _, done = _import(cli, tmp_path, "orbit-07.md", FEEDBACK)
    assert done.status == 0, done.err
    [(prompt, choices, explanation)] = written_questions(tmp_path / "source")
    assert prompt == ("A probe must stay above one spot of the equator. Which orbit does "
                      "it need?")  # the file's title heading is no part of it
    assert choices == ["A polar orbit at 800 km.", "*A geostationary orbit.",
                       "A sun-synchronous orbit."]
    assert explanation.startswith("A is not correct because a polar orbit")
    assert "B is correct because" in explanation and "https://example.org/orbits" in explanation
    assert "Feedback" not in explanation
    assert [p.name for p in (tmp_path / "source").glob("*.txt")] == ["orbit-07-1.txt"]


@pytest.mark.parametrize("feedback, right", [
    ("**Explicación**\n\nA no es correcta: gira.\n\nB es correcta porque coincide.\n\n"
     "C es incorrecta.", "B"),
    ("### Erklärung\n\nA ist falsch.\n\nB ist nicht richtig.\n\nC ist richtig, denn so.", "C"),
    ("## Feedback\n\nA est correcte car elle reste fixe.\n\nB n'est pas correcte.", "A"),
    ("## 解析\n\n正确答案是B，因为周期相同。", "B"),
    ("## Rationale\n\nCorrect: A, C\n\nB is wrong here.", "A, C"),
])
def test_feedback_sentences_in_several_languages_name_the_right_choices(
        tmp_path, cli, feedback, right):
    text = ("# Pregunta\n\nWhich orbit keeps a probe over one place?\n\nA. Uno\n\nB. Dos\n\n"
            f"C. Tres\n\n{feedback}\n")
    _, done = _import(cli, tmp_path, "orbit.md", text)
    assert done.status == 0, done.err
    [(_, choices, explanation)] = written_questions(tmp_path / "source")
    assert {c[1:] for c in choices if c.startswith("*")} == {
        {"A": "Uno", "B": "Dos", "C": "Tres"}[x] for x in right.split(", ")}
    assert explanation


def test_feedback_that_calls_one_letter_both_right_and_wrong_answers_nothing():
    assert cues.feedback_answer(["B is correct.", "B is not correct."]) == set()
    assert cues.feedback("A GPU is correct?") is None  # "A" as a word, not a letter
    assert cues.feedback("I is a vowel") is None


def test_lettered_choices_with_no_answer_anywhere_are_named_at_their_line(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "q.md", "# comet-3\n\nWhat is a comet's tail made of?"
                         "\n\nA. Dust and gas.\n\nB. Rock.\n")
    assert done.status == 1
    assert f"{bank}:3: error[E703]" in done.err and "W706" not in done.err
    assert "W701" not in done.err  # not "text that is no question"


# --- an answer key --------------------------------------------------------------------

KEY_LIST = """# Quiz de géographie

## Partie 1

**1. Quelle est la capitale du Portugal ?**
- [ ] a) Porto
- [ ] b) Lisbonne
- [ ] c) Braga

**2. Quel fleuve traverse Paris ?**
- [ ] a) La Loire
- [ ] b) Le Rhône
- [ ] c) La Seine

---

## Corrigé

1. b) Lisbonne
2. c) La Seine
"""


def test_an_answer_key_at_the_end_answers_bold_numbered_checkbox_questions(tmp_path, cli):
    _, done = _import(cli, tmp_path, "geo.md", KEY_LIST)
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "source") == [
        ("Quelle est la capitale du Portugal ?", ["Porto", "*Lisbonne", "Braga"], ""),
        ("Quel fleuve traverse Paris ?", ["La Loire", "Le Rhône", "*La Seine"], "")]
    assert "second list" not in done.err and "Corrigé" not in done.err


KEY_TABLE = """# Química

### 1. ¿Cuál es el símbolo del sodio?
- [ ] A) S
- [ ] B) Na
- [ ] C) So

### 2. ¿Qué gas es noble?
- [ ] A) Neón
- [ ] B) Oxígeno
- [ ] C) Nitrógeno

## Respuestas

| Pregunta | Respuesta |
|---|---|
| 1 | B |
| 2 | A |
"""

KEY_INLINE = """# Physik

1. Welche Einheit hat die Kraft?
A. Newton
B. Joule

2. Welche Einheit hat die Arbeit?
A. Watt
B. Joule

3. Welche Einheit hat die Leistung?
A. Watt
B. Pascal

## Lösungen

1-A, 2-B, 3-A
"""

KEY_HEADLESS = """# 天文

### 1. 哪颗行星最大？
A. 木星
B. 火星

### 2. 哪颗行星离太阳最近？
A. 金星
B. 水星

### 3. 哪颗行星有明显的环？
A. 土星
B. 地球

1. A
2. B
3. A
"""


@pytest.mark.parametrize("name, text, right", [
    ("quimica.md", KEY_TABLE, ["Na", "Neón"]),
    ("physik.md", KEY_INLINE, ["Newton", "Joule", "Watt"]),
    ("tianwen.md", KEY_HEADLESS, ["木星", "水星", "土星"]),
])
def test_answer_keys_in_tables_on_one_line_and_without_a_heading(tmp_path, cli, name, text,
                                                                 right):
    _, done = _import(cli, tmp_path, name, text)
    assert done.status == 0, done.err
    found = written_questions(tmp_path / "source")
    assert [next(c[1:] for c in choices if c.startswith("*")) for _, choices, _ in found] == right
    assert all(sum(c.startswith("*") for c in choices) == 1 for _, choices, _ in found)


def test_a_key_entry_without_its_question_and_a_question_without_its_entry_are_named(
        tmp_path, cli):
    text = KEY_LIST.replace("1. b) Lisbonne\n", "1. b) Lisbonne\n7. a) Nulle part\n") \
        .replace("2. c) La Seine\n", "")
    bank, done = _import(cli, tmp_path, "geo.md", text)
    assert done.status == 1
    assert f"{bank}:10: error[E703]" in done.err and "no entry for question 2" in done.err
    assert f"{bank}:20: warning[W718]" in done.err and "question 7" in done.err
    assert [p for p, _, _ in written_questions(tmp_path / "source")] == [
        "Quelle est la capitale du Portugal ?"]


def test_a_numbered_list_that_is_no_key_stays_text():
    steps = "# Steps\n\n## Answers\n\n1. Open the lid\n2. Pour the water\n"
    assert answer_key.find(steps) is None
    assert answer_key.find("# Notes\n\nSee 1. A and more.\n") is None
    assert answer_key.find("# Q\n\n## Solution\n\n1. A loop runs\n2. B is set\n") is None


def test_two_choices_the_page_would_join_alike_keep_their_line_break(tmp_path, cli):
    text = ("# Frage 3\nWas gibt `print('a\\nb')` aus?\n- [x] a\n      b\n- [ ] a b\n"
            "- [ ] ab\n")
    _, done = _import(cli, tmp_path, "code.md", text)
    assert done.status == 0, done.err
    [(_, choices, _)] = written_questions(tmp_path / "source")
    assert choices == ["*a<br>b", "a b", "ab"]


def test_a_title_above_a_question_labelled_only_by_its_number_is_not_its_scenario(tmp_path,
                                                                                    cli):
    text = ("# Shell Basics - 2 Fragen\n\n# Frage 1\nWas ist eine Shell?\n- [ ] Ein Fenster\n"
            "- [x] Ein Interpreter\n\n# Frage 2\nWas ist ein Pfad?\n- [x] Ein Ort\n"
            "- [ ] Ein Befehl\n")
    _, done = _import(cli, tmp_path, "shell.md", text)
    assert done.status == 0, done.err
    # Nor is "# Frage 1" its text: the page's numbering (issue 46, round 4).
    assert [p for p, _, _ in written_questions(tmp_path / "source")] == [
        "Was ist eine Shell?", "Was ist ein Pfad?"]


def test_reading_a_long_answer_key_grows_linearly():
    def bank(n: int) -> str:
        questions = "".join(f"**{k}. Which number is {k}?**\n- [ ] a) {k}\n- [ ] b) {k + 1}\n\n"
                            for k in range(1, n + 1))
        return "# Q\n\n" + questions + "## Answers\n\n" + "".join(
            f"{k}. a\n" for k in range(1, n + 1))

    small, big = bank(400), bank(1600)
    assert len(markdown.read(big, "b.md").sections[0].items) == 1600
    assert least_cpu(lambda: markdown.read(big, "b.md")) < 8 * least_cpu(
        lambda: markdown.read(small, "s.md"))


@pytest.mark.anki
def test_an_answer_key_bank_arrives_in_a_real_collection(tmp_path, cli):
    _, done = _import(cli, tmp_path, "geo.md", KEY_LIST)
    assert done.status == 0, done.err
    _, cards = built_and_imported(tmp_path, None)
    [deck] = cards.values()
    river = next(c for c in deck if "Paris" in c.fields["Prompt"])
    assert "La Seine" in river.fields["Choices"] and "c)" not in river.fields["Choices"]
    assert "**" not in river.fields["Prompt"] and "2." not in river.fields["Prompt"]
    assert len(deck) == 2


def test_a_bold_label_over_the_key_and_feedback_under_unticked_boxes(tmp_path, cli):
    labelled = ("# Rios\n\n**1. ¿Qué río pasa por Lisboa?**\n- [ ] a) Tajo\n- [ ] b) Duero\n\n"
                "**2. ¿Qué río pasa por Sevilla?**\n- [ ] a) Ebro\n- [ ] b) Guadalquivir\n\n"
                "**Respuestas:**\n1. a\n2. b\n")
    _, done = _import(cli, tmp_path, "rios.md", labelled)
    assert done.status == 0, done.err
    assert [c for _, c, _ in written_questions(tmp_path / "source")] == [
        ["*Tajo", "Duero"], ["Ebro", "*Guadalquivir"]]
    unticked = ("### Which planet is red?\n- [ ] A. Mars\n- [ ] B. Venus\n\n"
                "**Explanation:** A is correct: iron oxide. B is wrong.\n")
    _, done = _import(cli, tmp_path / "2", "red.md", unticked)
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "2" / "source") == [
        ("Which planet is red?", ["*Mars", "Venus"], "A is correct: iron oxide. B is wrong.")]


def test_feedback_sections_grow_linearly_and_a_long_run_of_letters_is_read_at_once():
    def bank(n: int) -> str:
        return "".join(f"## {k}. Which value is {k}?\n\nA. {k}\n\nB. {k + 1}\n\n"
                       f"### Retroalimentación\n\nA es correcta porque sí.\n\n"
                       f"B no es correcta.\n\n" for k in range(1, n + 1))

    small, big = bank(150), bank(600)
    items = markdown.read(big, "b.md").sections[0].items
    assert len(items) == 600 and all(i.choices[0].correct for i in items)
    assert least_cpu(lambda: markdown.read(big, "b.md")) < 8 * least_cpu(
        lambda: markdown.read(small, "s.md"))
    run = "A" + " and A" * 20_000
    assert least_cpu(lambda: cues.feedback(run)) < 0.5
    assert least_cpu(lambda: answer_key.find("# K\n\n## Answers\n\n" + "1-a, " * 20_000 + "x"))\
        < 1.0


def test_a_remark_after_a_keys_letter_is_the_explanation_its_choice_restated_is_not(tmp_path,
                                                                                    cli):
    text = ("# Zahlen\n\n### 1. Welche Zahl ist prim?\n- [ ] a) 4\n- [ ] b) 7\n\n"
            "### 2. Welche Zahl ist gerade?\n- [ ] a) 3\n- [ ] b) 8\n\n"
            "## Lösungen\n\n1. b) 7\n2. b - durch 2 teilbar\n")
    _, done = _import(cli, tmp_path, "zahlen.md", text)
    assert done.status == 0, done.err
    assert [(c, e) for _, c, e in written_questions(tmp_path / "source")] == [
        (["4", "*7"], ""), (["3", "*8"], "durch 2 teilbar")]


@pytest.mark.parametrize("text", [
    "# Q\n\n**1.** Which is a prime?\nA) 4\nB) 7\n\n**2.** Which is even?\nA) 3\nB) 8\n\n"
    "<details><summary>Answers</summary>\n\n1) B\n2) B\n\n</details>\n",
    "# Q\n\n### 1. Which is a prime?\n- [ ] 4\n- [ ] 7\n\n### 2. Which is even?\n- [ ] 3\n"
    "- [ ] 8\n\n## Answers\n\n<details>\n<summary>Show</summary>\n\n1. B\n2. B\n\n</details>\n",
])
def test_a_key_folded_in_a_details_block(tmp_path, cli, text):
    _, done = _import(cli, tmp_path, "q.md", text)
    assert done.status == 0, done.err
    assert [c for _, c, _ in written_questions(tmp_path / "source")] == [["4", "*7"], ["3", "*8"]]


def test_a_key_on_one_labelled_line_answers_bulleted_lettered_questions(tmp_path, cli):
    text = ("# Quiz\n\n1. Which is blue?\n   a) sky\n   b) grass\n2. Which is green?\n"
            "   a) sky\n   b) grass\n\nRespuestas: 1-a, 2-b\n")
    _, done = _import(cli, tmp_path, "q.md", text)
    assert done.status == 0, done.err
    assert [c for _, c, _ in written_questions(tmp_path / "source")] == [["*sky", "grass"],
                                                                  ["sky", "*grass"]]
