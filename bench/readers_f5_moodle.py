"""Independent readers for the banks of bench/banks_46_f5_moodle.json (no nca_anki).

A Moodle course backup's question bank (questions.xml): one <question> per question, its
type in <qtype>; a multiple-choice one keeps its answers under its plugin element, each
with escaped-HTML <answertext> and a <fraction> from 0 to 1. Moodle grades a question
of one answer (<single>1</single>) right only at full marks, one of several answers
right at any positive mark. The explanation a student sees after trying is the
general feedback. True/false questions are two answers, read the same way.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from pathlib import Path

from real_banks import Expected, words


def _right(fractions: list[float], single: bool) -> set[int]:
    if single:
        return {k for k, f in enumerate(fractions) if abs(f - 1) < 1e-6}
    return {k for k, f in enumerate(fractions) if f > 0}


def course_backup(path: Path, text: str) -> list[Expected]:
    found = []
    for question in ET.fromstring(text.encode("utf-8")).iter("question"):
        kind = (question.findtext("qtype") or "").strip()
        if kind not in ("multichoice", "truefalse"):
            continue
        answers = question.findall("./*/answers/answer")
        fractions = [float(a.findtext("fraction") or "0") for a in answers]
        single = kind == "truefalse" or (question.findtext("./*/multichoice/single")
                                         or "1").strip() not in ("0", "false", "")
        right = _right(fractions, single)
        if len(answers) < 2 or not right:
            continue
        found.append(Expected(
            words(html.unescape(question.findtext("questiontext") or "")),
            [words(html.unescape(a.findtext("answertext") or "")) for a in answers], right,
            words(html.unescape(question.findtext("generalfeedback") or ""))))
    return found
