"""Answers and explanations in the many wordings authors write them (issue 46, B and E):
one vocabulary (nca_anki/importing/cues.py) read by both Markdown readers. A checkbox
quiz that ticks no box but writes the answer in words, "Ans"/"Sol" and emoji before the
label, letters joined by words inside a collapsible block, numbered choices named by an
answer sentence, an explanation labelled above the answer line."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import built_and_imported, written_questions
from growth import least_cpu
from nca_anki.importing import cues, lettered, page


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


@pytest.mark.parametrize("line, letters", [
    ("👉 Richtige Antwort : c", {"C"}),
    ("☑️ Respuesta correcta: B y D", {"B", "D"}),
    ("➡ Sol: d", {"D"}),
    ("✔ Odpowiedź: a, c", {"A", "C"}),
    ("Ans  E", None),  # no colon: a word, not a label
    ("Ans: B, E", {"B", "E"}),
    ("答案：B", {"B"}),
    ("Resposta correta : b", {"B"}),
    ("The right answers are B and C", {"B", "C"}),
    ("Fans: A", None),
])
def test_an_answer_line_is_read_in_each_wording(line, letters):
    found = cues.answer_line(line)
    assert (cues.picked(found["letters"]) if found else None) == letters


@pytest.mark.parametrize("line, letters", [
    ("B und D", {"B", "D"}), ("C and E", {"C", "E"}), ("✅ A & D", {"A", "D"}), ("D", {"D"}),
    ("A and B are both wrong", None),
])
def test_letters_alone_are_an_answer_in_a_collapsible_block(line, letters):
    found = cues.letters_first(line)
    assert (cues.picked(found["letters"]) if found else None) == letters


def test_an_answer_sentence_names_numbered_choices_where_written():
    line = "The right answers are **1) Blue** and **3) Green**"
    assert [line[a:b] for a, b in cues.named_numbers(line)] == ["1", "3"]
    assert [("Antwort: 2"[a:b]) for a, b in cues.named_numbers("Antwort: 2")] == ["2"]
    assert cues.named_numbers("It takes 2 steps, and 3 more") == []


@pytest.mark.parametrize("text", ["💡 Erklärung : weil", "### Explicación: weil",
                                  "**Wyjaśnienie:** weil", "📝 Uzasadnienie: weil"])
def test_an_explanation_label_is_found_in_each_wording(text):
    assert cues.without_explanation_label(text) == "weil"


CHECKBOX_GERMAN = """# Erdkunde

### Frage 1
Welcher Fluss fließt durch Wien?
- [ ] **A)** Rhein
- [ ] **B)** Elbe
- [ ] **C)** Donau

👉 **Richtige Antwort : c**
📝 Erklärung : Die Donau fließt durch Wien.

### Frage 2
Welche Städte liegen an der Elbe?
- [ ] (a) Dresden
- [ ] (b) Köln
- [ ] (c) Hamburg

☑️ Lösung: A, C
"""


def test_a_checkbox_quiz_that_writes_its_answer_in_words_is_read(tmp_path, cli):
    _, done = _import(cli, tmp_path, "erdkunde.md", CHECKBOX_GERMAN)
    assert done.status == 0, done.err
    (first, second) = written_questions(tmp_path / "source")
    assert first[1] == ["Rhein", "Elbe", "*Donau"]
    assert first[2] == "Die Donau fließt durch Wien."
    assert second[1] == ["*Dresden", "Köln", "*Hamburg"] and second[2] == ""


def test_a_checkbox_answer_naming_a_letter_no_choice_has_is_refused(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "q.md", """### Frage 1
Welche Farbe?
- [ ] a. Rot
- [ ] b. Grün

✅ Antwort: d
""")
    assert done.status == 1 and f"{bank}:1: error[E703]" in done.err, done.err


@pytest.mark.anki
def test_a_checkbox_quiz_answered_in_words_arrives_in_a_real_collection(tmp_path, cli):
    _, done = _import(cli, tmp_path, "erdkunde.md", CHECKBOX_GERMAN)
    assert done.status == 0, done.err
    _, cards = built_and_imported(tmp_path, ("NCA::Erdkunde",))
    river = next(c for c in cards["NCA::Erdkunde"] if "Wien" in c.fields["Prompt"])
    assert "Donau" in river.fields["Choices"] and "A)" not in river.fields["Choices"]
    assert "Die Donau" in river.fields["Explanation"]
    assert "Erklärung" not in river.fields["Explanation"]
    assert "Richtige Antwort" not in river.fields["Explanation"]


LETTERED_DETAILS = """# Sprachen

### 1. Welche Sprachen sind kompiliert?
A. Rust
B. Python
C. Go
D. Bash
<details><summary>Lösung</summary>A and C</details>

### 2. Welche Shell ist die älteste?
A. zsh
B. fish
C. sh
<details>
<summary>🔎 Zeigen</summary>
✔ **Sol: c**
</details>

### 3. Was ist 3 x 3?
A. 6
B. 9

**Erklärung:** Drei mal drei ist neun.

**Antwort:** B
"""


def test_lettered_answers_in_words_abbreviations_and_explanations_above(tmp_path, cli):
    _, done = _import(cli, tmp_path, "sprachen.md", LETTERED_DETAILS)
    assert done.status == 0, done.err
    (first, second, third) = written_questions(tmp_path / "source")
    assert first[1] == ["*Rust", "Python", "*Go", "Bash"]
    assert second[1] == ["zsh", "fish", "*sh"]
    assert third[1] == ["6", "*9"] and third[2] == "Drei mal drei ist neun."


NUMBERED = """## Pytanie 7:
Które kolory są podstawowe?

1) Czerwony
2) Różowy
3) Niebieski

Wybierz dwie odpowiedzi.

<details>
<summary>Odpowiedź</summary>

The right answers are **1) Czerwony** and **3) Niebieski**

Wyjaśnienie: barwy podstawowe.
</details>

## Pytanie 8:
Ile to 2 + 2?

1. 3
2. 4

<details><summary>Odpowiedź</summary>

Odpowiedź: 2
</details>
"""


def test_numbered_choices_named_by_an_answer_sentence_are_read(tmp_path, cli):
    _, done = _import(cli, tmp_path, "kolory.md", NUMBERED)
    assert done.status == 0, done.err
    assert "Pytanie" not in (tmp_path / "source" / "kolory-1.txt").read_text(
        encoding="utf-8").split("\n")[0]  # a question's heading is not the file's title
    (first, second) = written_questions(tmp_path / "source")
    assert first[1] == ["*Czerwony", "Różowy", "*Niebieski"]
    assert "Wybierz dwie" in first[0] and first[2] == "barwy podstawowe."
    assert second[1] == ["3", "*4"]


def _paths() -> list[tuple[str, object, str]]:
    return [
        ("an answer line", cues.answer_line, "✅ "),
        ("an answer line", lambda t: cues.answer_line("Answer: " + t + "x"), "A and "),
        ("letters alone", cues.letters_first, "A and "),
        ("numbers named", lambda t: cues.named_numbers("Answer: " + t), "**1. x** and "),
        ("an explanation label", cues.explanation_label, "💡 "),
        ("numbered choices", lambda t: lettered._numbered_as_lettered(
            ["## Q"] + t.split("\n"), page.code_lines("## Q\n" + t)),
         "1. x\n2. y\nAnswer: 2\n## Q\n"),
    ]


@pytest.mark.parametrize("what, call, unit", _paths(),
                         ids=[f"{what}-{unit!r}" for what, _, unit in _paths()])
def test_each_new_text_path_is_linear(what, call, unit):
    short = least_cpu(lambda: call(unit * 5_000))
    long = least_cpu(lambda: call(unit * 20_000))
    assert long < 8 * max(short, 0.05), (what, unit, short, long)


def test_an_answer_line_naming_each_choice_in_short_or_remarking_in_a_sentence(tmp_path, cli):
    """"B. short, D. short": both right, no explanation; "C – a sentence.": the
    explanation, not the choice's words said otherwise."""
    _, done = _import(cli, tmp_path, "tiere.md", """# Tiere

### 1. Welche Tiere sind Säugetiere?
A. Forelle
B. Delfin (Großer Tümmler)
C. Amsel
D. Fledermaus (Abendsegler)
<details><summary>Antwort</summary>
✅ **Antworten: B. Delfin, D. Fledermaus**
</details>

### 2. Welches Tier hält Winterschlaf?
A. Reh
B. Fuchs
C. Igel im Garten
<details><summary>Antwort</summary>
<b>Antwort: C</b> – Der Igel im Garten schläft von November bis März.
</details>
""")
    assert done.status == 0 and "W711" not in done.err, done.err
    (first, second) = written_questions(tmp_path / "source")
    assert first[1] == ["Forelle", "*Delfin (Großer Tümmler)", "Amsel",
                        "*Fledermaus (Abendsegler)"] and first[2] == ""
    assert second[1][2] == "*Igel im Garten"
    assert second[2] == "Der Igel im Garten schläft von November bis März."


def test_a_prompt_holding_a_list_is_written_and_read_back(tmp_path, cli):
    """A list in the prompt ("- `ttl = 5`") is the prompt's on the card, never taken
    for choices in the question file (the file writes it with "*")."""
    _, done = _import(cli, tmp_path, "cache.md", """# Cache

### Frage 1
Gegeben:
- `ttl = 5`
- `size = 10`

Wie lange lebt ein Eintrag?
- [ ] 10 s
- [x] 5 s

Die Konfiguration:

```yaml
- nicht: anfassen
```
""")
    assert done.status == 0, done.err
    ((prompt, choices, explanation),) = written_questions(tmp_path / "source")
    assert "* `ttl = 5`\n* `size = 10`" in prompt and choices == ["10 s", "*5 s"]
    assert "- nicht: anfassen" in explanation


def test_an_explanation_heading_under_the_answer_is_no_question(tmp_path, cli):
    _, done = _import(cli, tmp_path, "meer.md", """# Meere

## Frage 1
Welches Meer ist das salzigste?

- A. Ostsee
- B. Totes Meer

**Antwort:** B

### Erklärung:

Es hat über 30 % Salz.
""")
    assert done.status == 0, done.err
    ((_, choices, explanation),) = written_questions(tmp_path / "source")
    assert choices == ["Ostsee", "*Totes Meer"] and explanation == "Es hat über 30 % Salz."
