"""``$$…$$`` in Moodle text of format Markdown (issue 46, round 5): Moodle's TeX filter
reads it in any format, and a card shows MathJax's ``\\(…\\)`` and ``\\[…\\]``, so it
becomes those as in HTML, the math inside kept as written. Banks written for the test."""

from __future__ import annotations

from pathlib import Path

from conftest import written_questions


def _import(cli, tmp_path: Path, name: str, text: str) -> None:
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True)
    bank.write_text(text, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert done.status == 0, done.err


def test_moodle_markdown_math_reaches_mathjax(tmp_path, cli):
    _import(cli, tmp_path, "m.xml", (
        '<?xml version="1.0"?>\n<quiz>\n<question type="multichoice">\n'
        '<questiontext format="markdown"><text>Is $$p_1 * q_2$$ *prime*?\n\n'
        "$$\\frac{n_k}{2}$$</text></questiontext>\n"
        '<answer fraction="100" format="markdown"><text>$$k_1$$</text></answer>\n'
        '<answer fraction="0" format="markdown"><text>no, $$2*k$$</text></answer>\n'
        "</question>\n</quiz>\n"))
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Is \\(p_1 * q_2\\) *prime*?\n\n\\[\\frac{n_k}{2}\\]", ["*\\(k_1\\)", "no, \\(2*k\\)"])]


def test_gift_markdown_math_reaches_mathjax(tmp_path, cli):
    _import(cli, tmp_path, "m.gift", "::m::[markdown]Is $$p_1 * q_2$$ *prime*? "
                                     "{=$$k_1$$ ~no, $$2*k$$}\n")
    assert written_questions(tmp_path / "source", explained=False) == [
        ("Is \\(p_1 * q_2\\) *prime*?", ["*\\(k_1\\)", "no, \\(2*k\\)"])]
