"""A sign beside a choice says it is right (issue 46, round 4): "Paris ✅", "✔️ Nile",
"☑"/"☐", "❌ London", "Sky (correct)", "**(Correct)**", "[correct]", "<-- correct", in the
languages banks are written in. The sign is the answer and leaves the choice's text."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import written_questions

from nca_anki.importing import cues


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return cli("import", str(bank), "--out", str(tmp_path / "source"))


@pytest.mark.parametrize(("written", "text", "right"), [
    ("Lime ✅", "Lime", True), ("✔️ Lime", "Lime", True), ("Lime ✓", "Lime", True),
    ("☑ Lime", "Lime", True), ("☐ Lime", "Lime", False), ("❌ Lime", "Lime", False),
    ("Lime (correct)", "Lime", True), ("Lime **(Correct)**", "Lime", True),
    ("Lime [correct]", "Lime", True), ("Lime <-- correct", "Lime", True),
    ("Lima (correcta)", "Lima", True), ("Linde (richtig)", "Linde", True),
    ("Липа (верно)", "Липа", True), ("椴树（正确）", "椴树", True),
    ("Lime (wrong)", "Lime", False), ("f(x) (incorrect)", "f(x)", False),
    ("Lime", "Lime", None), ("A ✅ B", "A ✅ B", None), ("✅", "✅", None),
])
def test_a_sign_beside_a_choice_is_read_and_taken_off(written, text, right):
    assert cues.choice_mark(written) == (text, right)


def test_signs_tell_only_when_some_are_right_and_some_not():
    assert cues.marked(["Oak ✅", "Pine", "Fir ❌"]) == [("Oak", True), ("Pine", False),
                                                      ("Fir", False)]
    assert cues.marked(["Oak ✅", "Pine ✅"]) is None  # all marked: a style, not an answer
    assert cues.marked(["Oak ❌", "Pine"]) is None  # nothing marked right


def test_a_long_line_is_read_in_linear_time():
    line = "x" + " " * 300_000 + "y"
    assert cues.choice_mark(line) == (line.strip(), None)


SIGNED = """# Trees

## 1. Which tree keeps its needles in winter?

- Oak
- Spruce ✅
- Birch

## 2. Which wood floats best?

- ✔️ Balsa
- ❌ Ebony
- ❌ Ironwood

Balsa is very light.

## 3. Which leaf is compound?

- ☐ Beech
- ☑ Ash

## 4. Which tree gives acorns?

1. Oak (correct)
2. Maple

## 5. Which tree is a conifer?

- Larch **(Correct)**
- Elm

## 6. Which tree has white bark?

- Birch [correct]
- Yew

## 7. ¿Qué árbol da bellotas?

- Encina (correcta)
- Olmo

## 8. Welcher Baum ist ein Nadelbaum?

- Buche
- Tanne (richtig)

## 9. Какое дерево хвойное?

- Сосна (верно)
- Клён

## 10. 哪种树是针叶树？

- 松树（正确）
- 杨树

## 11. Which bark is thickest?

- Sequoia <-- correct
- Aspen
"""


def test_a_bank_whose_choices_carry_signs_arrives_with_its_answers(tmp_path, cli):
    """Failed before: every question was "text that is no question" (W701), nothing written."""
    done = _import(cli, tmp_path, "trees.md", SIGNED)
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    found = written_questions(tmp_path / "source")
    assert [(prompt, choices) for prompt, choices, _ in found] == [
        ("Which tree keeps its needles in winter?", ["Oak", "*Spruce", "Birch"]),
        ("Which wood floats best?", ["*Balsa", "Ebony", "Ironwood"]),
        ("Which leaf is compound?", ["Beech", "*Ash"]),
        ("Which tree gives acorns?", ["*Oak", "Maple"]),
        ("Which tree is a conifer?", ["*Larch", "Elm"]),
        ("Which tree has white bark?", ["*Birch", "Yew"]),
        ("¿Qué árbol da bellotas?", ["*Encina", "Olmo"]),
        ("Welcher Baum ist ein Nadelbaum?", ["Buche", "*Tanne"]),
        ("Какое дерево хвойное?", ["*Сосна", "Клён"]),
        ("哪种树是针叶树？", ["*松树", "杨树"]),
        ("Which bark is thickest?", ["*Sequoia", "Aspen"])]
    assert found[1][2] == "Balsa is very light."


def test_lettered_choices_with_a_sign_need_no_answer_line(tmp_path, cli):
    """Failed before: each question was refused for having no answer line (E703)."""
    done = _import(cli, tmp_path, "sky.md", """# Sky

### 1. Which planet looks red?

A) Mars ✅
B) Venus
C) Saturn

### 2. Which is a star?

- A. Sirius ✔
- B. Io ❌
- C. Titan ❌

### 3. Which number is prime?

a) 4
b) 7 (correct)
c) 9
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("Which planet looks red?", ["*Mars", "Venus", "Saturn"]),
        ("Which is a star?", ["*Sirius", "Io", "Titan"]),
        ("Which number is prime?", ["4", "*7", "9"])]


def test_numbered_questions_with_signed_choices_each_keep_their_heading(tmp_path, cli):
    """Failed before: nothing was read; a bold-marked list right under a question's own
    heading lost that heading when a question in a bold paragraph followed (E702)."""
    done = _import(cli, tmp_path, "food.md", """# Food

1. Which is a fruit?
   - Plum ✅
   - Leek
2. Which is a grain?
   - Rye ✅
   - Kale

**Which is a nut?**

- Pecan ✅
- Pea
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("Which is a fruit?", ["*Plum", "Leek"]), ("Which is a grain?", ["*Rye", "Kale"]),
        ("Which is a nut?", ["*Pecan", "Pea"])]


def test_a_box_list_with_a_sign_and_an_answer_line_lose_their_signs(tmp_path, cli):
    """Failed before: the sign stayed in the text ("Sky ✅") and no choice was right; where
    an answer line also says, the sign leaves the text and the answer line decides."""
    done = _import(cli, tmp_path, "blue.md", """# Blue

## Which is blue?

- [ ] Grass
- [ ] Sky ✅
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")] == [
        ("Which is blue?", ["Grass", "*Sky"])]
    done = _import(cli, tmp_path, "cold.md", """# Cold

### 1. Which is cold?

A) Ice ✅
B) Fire

Answer: A

### 2. Which is wet?

A) Sand ✅
B) Rain

Answer: B
""")
    assert done.status == 0 and "warning[W711]" in done.err, done.err
    assert [(p, c) for p, c, _ in written_questions(tmp_path / "source")][-2:] == [
        ("Which is cold?", ["*Ice", "Fire"]), ("Which is wet?", ["Sand", "*Rain"])]


def test_a_sign_list_that_marks_all_or_none_is_no_question(tmp_path, cli):
    done = _import(cli, tmp_path, "done.md", """# Done

Which steps are finished?

- Design ✅
- Build ✅
""")
    assert done.status == 1 and "warning[W701]" in done.err, done.err
