"""Independent readers for the second structured held-out set, ``banks_46_heldout2_struct.json``
(issue 46, round five).

Each reader is ``(path, text) -> list[Expected]`` and reads its bank the way the app the bank
was written for shows it (read from that app's own code where it has one): the prompt's
first words, each choice's first words, which choices are right, and the explanation's
first words without its label (``""`` when the source has none; ``None`` where it is not
clearly one or the other). They share nothing with ``nca_anki``: each is a small parser of
one shape, written from the bank, not from the importer. A question with fewer than two
choices or with no right one is not a multiple-choice question of the source and is not
counted.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from real_banks import NODE, Expected, words

# --- helpers --------------------------------------------------------------------------------


def _node(program: str, expression: str) -> object:
    """``expression`` after running ``program`` (plain JavaScript) in an empty sandbox, as
    JSON."""
    runner = (
        "const vm = require('vm'); let src = '';"
        "process.stdin.on('data', d => src += d);"
        "process.stdin.on('end', () => {"
        " const box = {module: {exports: {}}, exports: {}, window: {}, console: {log() {}}};"
        f" const out = vm.runInNewContext(src + '\\n;JSON.stringify({expression})', box);"
        " process.stdout.write(out); });")
    node = str(NODE) if NODE else (shutil.which("node") or "node")
    run = subprocess.run([node, "-e", runner], input=program, capture_output=True, text=True,
                         check=True)
    return json.loads(run.stdout)


def _export_default(text: str) -> object:
    """The value of a module's ``export default {…}`` / ``[…]``."""
    return _node(re.sub(r"(?m)^\s*export\s+default\s+", "module.exports = ", text, count=1),
                 "module.exports")


def _labelled(explanation: str, labels: str) -> str:
    """An explanation's first words without a leading label (one of ``labels``, a regex)."""
    return words(re.sub(rf"^\s*(?:{labels})\s*[:：]?\s*", "", explanation, count=1, flags=re.I))


# --- CSV ------------------------------------------------------------------------------------


def qmb_quoted_rows(path: Path, text: str) -> list[Expected]:
    """One question a line, read as the bank's own AutoIt program reads it (GUI.au3): the line
    split at ``","`` into three fields, one character cut off each end of each field; the
    first is the prompt (with its ``_1_``/``_1+_`` marker, shown on screen), the second the
    choices separated by ``;`` (stray quote marks are not words), the third the right
    choices' numbers from 1, separated by commas. No explanations."""
    found = []
    for line in text.replace("\r\n", "\n").split("\n"):
        fields = line.split('","')
        if len(fields) != 3:
            continue
        prompt, choices, answer = (f[1:-1] for f in fields)
        options = choices.split(";")
        right = {int(n) - 1 for n in re.findall(r"\d+", answer)}
        if len(options) >= 2 and right and max(right) < len(options):
            found.append(Expected(words(prompt), [words(o) for o in options], right, ""))
    return found


# --- JSON -----------------------------------------------------------------------------------


def json_letter_keyed_options(path: Path, text: str) -> list[Expected]:
    """A list of ``{question, options: {"A": text, …}, answer: "B", explanation}``; the
    choices in their letters' order; an empty explanation is none."""
    found = []
    for q in json.loads(text):
        options = q.get("options") or {}
        letters = sorted(options)
        answer = str(q.get("answer") or "").strip().upper()
        right = {letters.index(a) for a in answer if a in letters}
        if len(letters) >= 2 and right:
            found.append(Expected(words(q.get("question") or ""),
                                  [words(str(options[k])) for k in letters], right,
                                  words(q.get("explanation") or "")))
    return found


# --- JavaScript / TypeScript ----------------------------------------------------------------


def ts_mcq_and_true_statements(path: Path, text: str) -> list[Expected]:
    """``export const QUESTION_BANK: Question[] = [...]``: ``type: "mcq"`` has ``q``,
    ``options`` and ``a`` (index from 0) and sometimes ``explain`` ("Giải thích: …", its
    label left out); ``type: "tf4"`` asks which of four ``statements`` are true, ``a`` a list
    of booleans: the true ones are right (the last statement carries the explanation inside
    it, so no explanation is compared)."""
    start = text.index("[", text.index("QUESTION_BANK"))
    found = []
    for q in _node("var bank = " + text[start:], "bank"):
        if q.get("type") == "tf4":
            choices, flags = q.get("statements") or [], q.get("a") or []
            right = {k for k, f in enumerate(flags) if f is True}
            explanation = None
        else:
            choices, answer = q.get("options") or [], q.get("a")
            right = {answer} if isinstance(answer, int) and 0 <= answer < len(choices) else set()
            explanation = _labelled(q.get("explain") or "", "Giải thích")
        if len(choices) >= 2 and right:
            found.append(Expected(words(q.get("q") or ""), [words(c) for c in choices],
                                  right, explanation))
    return found


def ts_quizzes_answer_text(path: Path, text: str) -> list[Expected]:
    """``export const quizzes: Record<string, Question[]> = {name: [...]}`` and more lists
    added below as ``quizzes["name"] = [...]``: each ``{question, options, answer}`` with the
    right choice given by its text (the app compares the text); no explanations. Pictures
    imported at the top are names only."""
    pictures = "".join(f'var {name} = "{name}";\n' for name in
                       re.findall(r'(?m)^import\s+(\w+)\s+from\s+"[^"]+";', text))
    body = text[text.index("export const quizzes"):]
    body = re.sub(r"export const (\w+)\s*:\s*Record<string,\s*[\w\[\]]+>\s*=", r"var \1 =", body)
    body = re.sub(r"(?m)^export const \w+\s*:\s*[\w\[\]]+\s*=.*$", "", body)
    found = []
    for items in _node(pictures + body, "quizzes").values():
        for q in items:
            options = [str(o) for o in q.get("options") or []]
            right = {k for k, o in enumerate(options) if o == q.get("answer")}
            if len(options) >= 2 and right:
                found.append(Expected(words(q.get("question") or ""),
                                      [words(o) for o in options], right, ""))
    return found


def js_items_valid_flag(path: Path, text: str) -> list[Expected]:
    """``export default {"item_0": {title, answers: [{text, valid}]}, …}``: the ``valid``
    ones right; no explanations."""
    found = []
    for q in _export_default(text).values():
        answers = q.get("answers") or []
        right = {k for k, a in enumerate(answers) if a.get("valid") is True}
        if len(answers) >= 2 and right:
            found.append(Expected(words(q.get("title") or ""),
                                  [words(str(a.get("text", ""))) for a in answers], right, ""))
    return found


def js_window_answer_and_wrong_list(path: Path, text: str) -> list[Expected]:
    """``window.QUESTIONS_GENERAL = [{question, answer, choice, type}]``, read as the game
    (game.js) reads it: ``choice`` is the wrong answers separated by ``/``; with none the
    question is typed in (accepted spellings in ``answer``), not chosen; with some, the
    choices are those plus the first of ``answer`` split at ``/``. No explanations."""
    found = []
    for q in _node(text, "window.QUESTIONS_GENERAL"):
        wrong = [s.strip() for s in str(q.get("choice") or "").split("/") if s.strip()]
        correct = ([s.strip() for s in str(q.get("answer") or "").split("/") if s.strip()]
                   or [""])[0]
        if wrong and correct:
            found.append(Expected(words(q.get("question") or ""),
                                  [words(c) for c in [*wrong, correct]], {len(wrong)}, ""))
    return found


def js_themes_correct_index(path: Path, text: str) -> list[Expected]:
    """``export default [{id, label, questions: [{text, answers, correct}]}]``: ``correct``
    counts from 0; an answer is a text or a picture with a ``label`` (its words). No
    explanations."""
    found = []
    for theme in _export_default(text):
        for q in theme.get("questions") or []:
            answers = [a.get("label", "") if isinstance(a, dict) else str(a)
                       for a in q.get("answers") or []]
            correct = q.get("correct")
            if len(answers) >= 2 and isinstance(correct, int) and 0 <= correct < len(answers):
                found.append(Expected(words(q.get("text") or ""),
                                      [words(a) for a in answers], {correct}, ""))
    return found


# --- LMS exports ----------------------------------------------------------------------------


def moodle_backup_questions(path: Path, text: str) -> list[Expected]:
    """A Moodle course backup's ``questions.xml`` (``<question_categories>``): each
    ``<question>`` with ``<qtype>multichoice</qtype>``; its ``questiontext`` and each
    ``answertext`` are escaped HTML; a choice is right when it earns full marks
    (``<fraction>`` 1) in a question of one answer (``<single>1``), any marks in one of
    several; ``generalfeedback`` is the explanation."""
    found = []
    for q in ET.fromstring(text.encode("utf-8")).iter("question"):
        if (q.findtext("qtype") or "").strip() != "multichoice":
            continue
        single = (q.findtext(".//multichoice/single") or "1").strip() == "1"
        answers = [(a.findtext("answertext") or "", float(a.findtext("fraction") or 0))
                   for a in q.iter("answer")]
        right = {k for k, (_, f) in enumerate(answers) if (f >= 1 if single else f > 0)}
        if len(answers) >= 2 and right:
            found.append(Expected(words(html.unescape(q.findtext("questiontext") or "")),
                                  [words(html.unescape(t)) for t, _ in answers], right,
                                  words(html.unescape(q.findtext("generalfeedback") or ""))))
    return found


def gift_blocks(path: Path, text: str) -> list[Expected]:
    """GIFT: ``// comment`` lines out, ``::title:: prompt {`` then ``=right`` / ``~wrong``
    lines, ``}``; the title is a name the student does not see. No feedback here."""
    body = re.sub(r"(?m)^\s*//.*$", "", text.replace("\r\n", "\n"))
    found = []
    for match in re.finditer(r"(?s)(?:^|\n)\s*(::.*?::)?([^{}]*)\{([^{}]*)\}", body):
        parts = [p.strip() for p in re.split(r"(?<!\\)(?=[~=])", match[3]) if p.strip()]
        if not any(p.startswith("~") for p in parts):
            continue
        choices = [p[1:].split("#")[0].strip() for p in parts]
        right = {k for k, p in enumerate(parts) if p.startswith("=")}
        if len(choices) >= 2 and right:
            found.append(Expected(words(match[2]), [words(c) for c in choices], right, ""))
    return found
