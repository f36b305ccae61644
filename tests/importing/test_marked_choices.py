"""Right choices shown by a visual mark the page gives some choices and not the others
(issue 46, round five): a colour (<font color>, <span style="color:…">), <mark> or <u>,
read like bold when nothing else answers the question; a mark on every choice, or
different marks, say nothing."""

from __future__ import annotations

from pathlib import Path

from conftest import written_questions


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


COLOURED = """# Orchard quiz

## Single answer

**1. (2 pts) Which fruit grows on a vine?**

- A. apple
- B. <font color='green'>grape</font>
- C. pear

**2. Which tree loses its leaves in winter?**

- A. <span style="color: red">oak</span>
- B. pine
- C. holly

## Several answers

**3. Which of these are stone fruit?**

- A. <mark>plum</mark>
- B. <mark>cherry</mark>
- C. banana

**4. The walnut is a nut.**

- A. <u>true</u>
- B. false
"""


def test_choices_in_a_colour_or_highlight_are_the_right_ones(tmp_path, cli):
    _, done = _import(cli, tmp_path, "orchard.md", COLOURED)
    assert done.status == 0, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("(2 pts) Which fruit grows on a vine?", ["apple", "*grape", "pear"]),
        ("Which tree loses its leaves in winter?", ["*oak", "pine", "holly"]),
        ("Which of these are stone fruit?", ["*plum", "*cherry", "banana"]),
        ("The walnut is a nut.", ["*true", "false"]),
    ]


UNTOLD = """**1. Which fruit grows on a vine?**

- A. <font color='blue'>apple</font>
- B. <font color='blue'>grape</font>

**2. Which tree is evergreen?**

- A. <mark>oak</mark>
- B. <u>pine</u>
- C. holly
"""


def test_a_mark_on_every_choice_or_mixed_marks_answer_nothing(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "untold.md", UNTOLD)
    assert list(written_questions(tmp_path / "source")) == []
    assert "E703" in done.err
