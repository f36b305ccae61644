"""Markdown banks read as the page their readers see (issue 46, 1, 3, 9 and K): a quiz kept
in the YAML front matter, the HTML a page renders, a question whose scenario is a heading
of its own, the right choice shown in bold, and an HTML quiz that is named, not lost."""

from __future__ import annotations

from pathlib import Path

from nca_anki.reading.parse import parse


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    return bank, cli("import", str(bank), "--out", str(tmp_path / "source"))


def _questions(out: Path) -> list[tuple[str, list[str], str]]:
    """(prompt, choices with "*" before each correct one, explanation) of every question
    written, as the build's parser reads them back."""
    found = []
    for path in sorted(out.glob("*.txt")):
        result = parse(path.read_text(encoding="utf-8"), path.name)
        assert not [d for d in result.diagnostics if d.is_error], result.diagnostics
        found += [(q.prompt, [("*" if c.correct else "") + c.text for c in q.choices],
                   q.explanation) for q in result.file.questions]
    return found


FRONT_MATTER_QUIZ = """---
title: "Kitchen check"
passPercentage: 80
questions:
  - id: "k1"
    text: "Which knife cuts bread best?"
    type: "single-answer"
    options:
      - id: "a"
        text: "A serrated knife"
        isCorrect: true
      - id: "b"
        text: "A paring knife"
  - id: "k2"
    text: "Which of these are herbs?"
    type: "multiple-answers"
    options:
      - id: "a"
        text: "Basil"
        isCorrect: true
      - id: "b"
        text: "Salt"
      - id: "c"
        text: "Thyme"
        isCorrect: true
---
"""


def test_a_quiz_in_the_front_matter_is_read_as_a_structured_bank(tmp_path, cli):
    bank, done = _import(cli, tmp_path, "test.md", FRONT_MATTER_QUIZ)
    assert done.status == 0, done.err
    assert f"{bank}:5: warning[W704]: read 2 question objects: 'text' as the prompt" \
        in done.err, done.err
    assert _questions(tmp_path / "source") == [
        ("Which knife cuts bread best?", ["*A serrated knife", "A paring knife"], ""),
        ("Which of these are herbs?", ["*Basil", "Salt", "*Thyme"], "")]


def test_front_matter_of_one_question_and_metadata_stays_markdown(tmp_path, cli):
    """Tags and a question's own keys are no bank: the Markdown under them is read."""
    _, done = _import(cli, tmp_path, "one.md", """---
tags: [soup, stock]
question: "Which stock is clear?"
---

- [x] A consommé
- [ ] A bisque
""")
    assert done.status == 0 and " 0 warnings" in done.err, done.err
    assert _questions(tmp_path / "source") == [
        ("Which stock is clear?", ["*A consommé", "A bisque"], "")]
