"""Answers with no text in Moodle XML and GIFT (issue 46, round 5): Moodle saves no answer
whose text is blank, so its students never see one. A question whose answers are blank
is refused at its own line for that reason, not as "fewer than two answers" (which reads
as if the author had written one answer) or "no right answer". Every bank here is
written for the test."""

from __future__ import annotations

from pathlib import Path

from conftest import written_questions


def _import(cli, tmp_path: Path, name: str, text: str):
    bank = tmp_path / "in" / name
    bank.parent.mkdir(parents=True, exist_ok=True)
    bank.write_text(text, encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "source"))
    assert "Traceback" not in done.err, done.err
    return bank, done


def _question(prompt: str, *answers: tuple[str, int]) -> str:
    shown = "".join(f'  <answer fraction="{f}" format="html">\n    <text>{t}</text>\n'
                    "  </answer>\n" for t, f in answers)
    return ('<question type="multichoice">\n'
            f'  <questiontext format="html"><text>{prompt}</text></questiontext>\n'
            f"{shown}  <single>true</single>\n</question>\n")


def test_moodle_questions_of_blank_answers_are_refused_for_them_at_their_line(tmp_path,
                                                                                cli):
    """Four blank answers whose meaning the prompt's directions give ("mark (a) if …"):
    Moodle shows none of them. Then one blank answer of three, and a blank right one."""
    text = ('<?xml version="1.0"?>\n<quiz>\n'  # lines 1-2
            + _question("Mark (a) if both hold, (b) if one does: 2, 4, (6), 9",  # line 3
                        (" ", 0), (" ", 100), ("", 0), (" ", 0))
            + _question("Which planet is red?", ("Mars", 100), ("", 0))  # line 19
            + _question("Which planet is big?", (" ", 100), ("Mars", 0), ("Venus", 0))
            + _question("Which planet is blue?", ("Neptune", 100), (" ", 0), ("Mars", 0))
            + "</quiz>\n")
    bank, done = _import(cli, tmp_path, "blank.xml", text)
    assert done.status == 1, done.err
    assert f"{bank}:3: error[E702]: all 4 of its answers are blank, and Moodle leaves a " \
           "blank answer out, so it shows no choice" in done.err, done.err
    assert f"{bank}:19: error[E702]: 1 of its 2 answers is blank" in done.err, done.err
    assert f"{bank}:29: error[E703]: its right answer is blank" in done.err, done.err
    assert "fewer than two answers" not in done.err, done.err
    # A blank wrong answer among real ones is left out, as Moodle leaves it out.
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("Which planet is blue?", ["*Neptune", "Mars"])]


def test_gift_questions_of_empty_answers_are_refused_for_them(tmp_path, cli):
    text = ("::one:: Pick a sign {\n=\n~\n~\n}\n\n"  # line 1
            "::two:: Pick a town {=~ ~Oslo}\n\n"  # line 7
            "::three:: Pick a colour {=#why ~red ~green}\n\n"  # line 9
            "::four:: Pick a river {=Nile ~~Rhine}\n")  # line 11
    bank, done = _import(cli, tmp_path, "blank.gift", text)
    assert f"{bank}:1: error[E702]: all 3 of its answers are blank" in done.err, done.err
    assert f"{bank}:7: error[E702]: 2 of its 3 answers are blank" in done.err, done.err
    assert f"{bank}:9: error[E703]: its right answer is blank" in done.err, done.err
    assert "fewer than two answers;" not in done.err and "no answer is" not in done.err, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("Pick a river", ["*Nile", "Rhine"])]


def test_aiken_choices_without_text_are_refused_for_it(tmp_path, cli):
    text = ("Which is red?\nA. Mars\nB.\nC. Venus\nANSWER: A\n\n"  # line 3: "B." alone
            "Which is blue?\nA)\nB) Sky\nANSWER: B\n\n"  # line 8: the first choice blank
            "Which is green?\nA. Grass\nB. Coal\nANSWER: A\n")
    bank, done = _import(cli, tmp_path, "blank.aiken", text)
    assert f"{bank}:3: error[E702]: the choice 'B.' has no text" in done.err, done.err
    assert f"{bank}:8: error[E702]: the choice 'A)' has no text" in done.err, done.err
    assert [q[:2] for q in written_questions(tmp_path / "source")] == [
        ("Which is green?", ["*Grass", "Coal"])]
