"""A Moodle course backup's question bank (questions.xml inside an .mbz, issue 46): its
multiple-choice and true/false questions read as Moodle grades them, under their
categories, their escaped HTML through the same path as Moodle XML's; every other type
left out with one true message each. Every bank here is written for the test."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import written_questions
from nca_anki.importing import moodle_xml


def _answer(text: str, fraction: str, feedback: str = "", form: str = "1") -> str:
    return (f"<answer id='1'><answertext>{text}</answertext><answerformat>{form}"
            f"</answerformat><fraction>{fraction}</fraction><feedback>{feedback}</feedback>"
            "<feedbackformat>1</feedbackformat></answer>")


def _question(kind: str, prompt: str, *answers: str, single: str = "1",
              general: str = "") -> str:
    plugin = (f"<plugin_qtype_{kind}_question><answers>{''.join(answers)}</answers>"
              + (f"<multichoice id='2'><single>{single}</single></multichoice>"
                 if kind == "multichoice" else "") + f"</plugin_qtype_{kind}_question>")
    return (f"<question id='9'>\n<name>n</name><questiontext>{prompt}</questiontext>"
            f"<questiontextformat>1</questiontextformat><generalfeedback>{general}"
            f"</generalfeedback><generalfeedbackformat>1</generalfeedbackformat>"
            f"<qtype>{kind}</qtype>{plugin}</question>\n")


def _backup(*categories: tuple[str, str]) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<question_categories>\n' + "".join(
        f"<question_category id='1'>\n<name>{name}</name><questions>\n{questions}"
        "</questions></question_category>\n" for name, questions in categories)
        + "</question_categories>\n")


def _lines(reading) -> list[str]:
    return [f"{d.line}: {d.code}: {d.message}" for d in reading.problems]


def test_multiple_choice_of_one_and_of_several_answers_read_as_moodle_grades_them():
    one = _question("multichoice", "&lt;p&gt;Which planet is &lt;b&gt;red&lt;/b&gt;?&lt;/p&gt;",
                    _answer("&lt;p&gt;Mars&lt;/p&gt;", "1.0000000", "&lt;p&gt;Yes.&lt;/p&gt;"),
                    _answer("Venus", "0.0000000"), general="&lt;p&gt;Iron oxide.&lt;/p&gt;")
    several = _question("multichoice", "Which are even?", _answer("Two", "0.5000000"),
                        _answer("Four", "0.5000000"), _answer("Five", "-1.0000000"),
                        single="0")
    reading = moodle_xml.read(_backup(("Empty", ""), ("Space &amp; time", one + several)),
                              "questions.xml")
    [section] = reading.sections
    assert section.title == "Space & time"
    first, second = section.items
    assert first.prompt == "Which planet is **red**?"
    assert [(c.text, c.correct) for c in first.choices] == [("Mars", True), ("Venus", False)]
    assert first.explanation == "Iron oxide.\n\nMars: Yes."
    assert [c.correct for c in second.choices] == [True, True, False]
    assert not [d for d in reading.problems if d.code.startswith("E")]


def test_partial_credit_in_a_question_of_one_answer_is_wrong_and_said():
    question = _question("multichoice", "Pick", _answer("Full", "1.0000000"),
                         _answer("Half", "0.5000000"))
    reading = moodle_xml.read(_backup(("C", question)), "questions.xml")
    [item] = reading.sections[0].items
    assert [c.correct for c in item.choices] == [True, False]


def test_true_false_reads_its_two_answers():
    question = _question("truefalse", "The sun is a star.", _answer("True", "1.0000000"),
                         _answer("False", "0.0000000"))
    [item] = moodle_xml.read(_backup(("C", question)), "questions.xml").sections[0].items
    assert [(c.text, c.correct) for c in item.choices] == [("True", True), ("False", False)]


def test_every_other_type_is_one_true_message_at_its_first_question():
    other = ("<question id='3'>\n<questiontext>Draw</questiontext><qtype>{}</qtype>"
             "</question>\n")
    text = _backup(("C", other.format("random") * 5 + other.format("match")
                    + _question("multichoice", "Q", _answer("A", "1"), _answer("B", "0"))))
    reading = moodle_xml.read(text, "questions.xml")
    said = _lines(reading)
    assert [s.split(":")[:2] for s in said] == [["5", " E702"], ["15", " E702"]], said
    assert "random question" in said[0] and "4 more of its type (lines 7, 9, 11, …)" in \
        said[0]
    assert "a matching question, not multiple choice" in said[1]
    assert len(reading.sections[0].items) == 1


def test_a_question_with_no_full_marks_is_refused_truly():
    question = _question("multichoice", "Pick", _answer("A", "0.0000000"),
                         _answer("B", "0.0000000"))
    said = _lines(moodle_xml.read(_backup(("C", question)), "questions.xml"))
    assert len(said) == 1 and "E703" in said[0] and "no answer has the fraction 1 (full marks)" in said[0], said


def test_a_backup_named_questions_xml_is_imported_by_its_content(tmp_path: Path, cli):
    bank = tmp_path / "questions.xml"
    bank.write_text(_backup(("Topic", _question(
        "multichoice", "Two plus two?", _answer("Four", "1.0000000"),
        _answer("Five", "0.0000000")))), encoding="utf-8")
    done = cli("import", str(bank), "--out", str(tmp_path / "out"))
    assert done.status == 0, done.err
    assert written_questions(tmp_path / "out") == [("Two plus two?", ["*Four", "Five"], "")]
    assert not re.search(r"W704|E703", done.err)


def test_other_xml_whose_answer_key_is_not_found_says_so_not_that_none_is_right():
    record = ("<item>\n<prompt>Which {} is largest?</prompt><option>One</option>"
              "<option>Two</option><option>Three</option></item>\n")
    text = "<bank>\n" + "".join(record.format(w) for w in ("number", "digit", "value")) + \
        "</bank>\n"
    reading = moodle_xml.read(text, "bank.xml")
    refused = [d.message for d in reading.problems if d.code == "E703"]
    assert refused, _lines(reading)
    assert all("no key was found to mark the correct answer" in m and
               "no correct answer" not in m for m in refused), refused
