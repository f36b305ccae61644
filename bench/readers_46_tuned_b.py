"""Independent readers for the last ten banks of issue 46's "Twenty-one more banks" table.

Each reader is ``(path, text) -> list[Expected]`` and reads one shape the way a person sees
the bank: the Markdown page as GitHub renders it, or the quiz app's data as the app shows
it (an explanation the app shows is an explanation; ``""`` where the source has none).
They hold no question, only how to read a shape, and import nothing from ``nca_anki``.
Used by ``bench/banks_46_tuned.json`` through ``bench/real_banks.py``.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import yaml
from real_banks import NODE, Expected, words

LETTERS = "ABCDEFGHIJ"


def _node_json(program: str) -> Any:
    """What a Node program prints as JSON (the banks' own JavaScript, evaluated as the
    browser would, so that strings, escapes and comments read as the app reads them)."""
    node = shutil.which("node") or (str(NODE) if NODE else "node")
    run = subprocess.run([node, "-"], input=program, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def _expected(prompt: str, choices: list[str], right: set[int],
              explanation: str) -> Expected:
    return Expected(words(prompt), [words(c) for c in choices], right, words(explanation))


# --- yyyyyyounger/cisc7403_review: GPT answers pasted as Markdown --------------------------

# A numbered question starts a line: "1. **…**", "16。**…**", "2 。\*\*…" (the last ones
# are no Markdown list, but a reader sees the number all the same).
_NUMBERED = re.compile(r"(?m)^[ \t]*(\d+)[ \t]*[.。][ \t]*")
# A choice: a dash (or an en dash, as some of these lines have) then a capital letter and
# ".", ":", ")" or "）" or a space: "- A. x", "- A: x", "– A）x", "–A ）x", "-A x".
_CHOICE = re.compile(r"(?:^|(?<=\s))[-–][ \t]*([A-E])[ \t]*(?:[.:)）]|(?=\s))[ \t]*", re.M)
_ANSWER = re.compile(r"(答案|Answer)[\s*\\_]*[:：][\s*\\_]*")
_WHY = re.compile(r"(解釋|解释|Explanation)[\s*\\_]*[:：][\s*\\_]*")
_LETTER_RUN = re.compile(r"[A-E](?![a-z])(?:[\s,，]*[A-E](?![a-z]))*")


def _choices(body: str) -> list[tuple[int, int, str]]:
    """(start, end of marker, letter) for the choices A, B, C, … in order."""
    found: list[tuple[int, int, str]] = []
    for m in _CHOICE.finditer(body):
        if len(found) < 5 and m[1] == LETTERS[len(found)]:
            found.append((m.start(), m.end(), m[1]))
    return found


def _numbered_question(block: str) -> Expected | None:
    answer = _ANSWER.search(block)
    if not answer:
        return None
    before = block[:answer.start()]
    marks = _choices(before)
    if len(marks) < 2:
        return None
    prompt = before[:marks[0][0]]
    ends = [m[0] for m in marks[1:]] + [len(before)]
    texts = [before[m[1]:end] for m, end in zip(marks, ends, strict=True)]
    letters = _LETTER_RUN.match(block, answer.end())
    right = {LETTERS.index(x) for x in re.findall(r"[A-E]", letters[0] if letters else "")}
    why = _WHY.search(block, answer.end())
    # One paragraph: a blank line ends it (the text after the list is the page's own).
    explanation = re.split(r"\n[ \t]*\n", block[why.end():])[0] if why else ""
    return _expected(prompt, texts, right, explanation)


def _numbered_blocks(text: str) -> list[Expected]:
    text = re.split(r"(?m)^#+\s*Citations", text)[0]
    starts = list(_NUMBERED.finditer(text))
    found = []
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        block = re.split(r"(?m)^#", text[m.end():end])[0]  # a heading ends a question
        question = _numbered_question(block)
        if question:
            found.append(question)
    return found


def cisc_lecture1(path: Path, text: str) -> list[Expected]:
    """Numbered bold prompts, an indented lettered list ("- A. x" or "- A: x"), then
    "**答案：** A, B" and "**解釋：** …" under the last choice (a line break in it)."""
    return _numbered_blocks(text)


def cisc_lecture5(path: Path, text: str) -> list[Expected]:
    """Numbered bold prompts, "- A) x", then "**Answer:** B) restated text" and
    "**Explanation:** …"; further down the same in Chinese, written ever more loosely
    (en dashes, a question on one line, "- _答案：\\*\\*A ，C _", "* 答案 : A , B",
    "答案: AB,D"): the number, the lettered choices, the answer's letters and the
    explanation as a reader of the page picks them out."""
    return _numbered_blocks(text)


# --- DevLuisairton/CertifySimulator: a data array, then the app's own code ------------------

def certify_simulado(path: Path, text: str) -> list[Expected]:
    """``const originalQuestions = [{text, options: [..], correctAnswer: k or [j, k],
    explanation}]`` followed by the page's code; the app shows "A. option", marks the
    right ones and shows "Explicação: explanation" (all as HTML)."""
    end = re.search(r"(?m)^\];", text)
    data = text[:end.end()] if end else text  # the array, without the page's DOM code
    items = _node_json(data + "\nconsole.log(JSON.stringify(originalQuestions));")
    found = []
    for item in items:
        answer = item["correctAnswer"]
        right = set(answer) if isinstance(answer, list) else {answer}
        found.append(_expected(item["text"], item["options"], right,
                               item.get("explanation") or ""))
    return found


# --- vitorportela/QuizCTFL: quizData.questions ----------------------------------------------

def _only_restates(comment: str, right: list[str]) -> bool:
    """Whether a comment is no more than "A resposta correta é: <the right choice>": it
    explains nothing the card's answer does not already show."""
    rest = re.sub(r"^\s*A resposta correta é\s*:?", "", comment, flags=re.I)
    return words(rest, 1000) in {words(r, 1000) for r in right} | {
        words(", ".join(right), 1000)}


def quiz_ctfl(path: Path, text: str) -> list[Expected]:
    """``const quizData = {questions: [{question, options: [{option, isCorrect}],
    comments}]}``: the app shows the question's lines, each option as text, and the
    comments after an answer (the explanation; a comment that only restates the right
    choice, "A resposta correta é: 50%", explains nothing: none)."""
    data = _node_json(text + "\nconsole.log(JSON.stringify(quizData));")
    found = []
    for q in data["questions"]:
        options = [o["option"] for o in q["options"]]
        right = {k for k, o in enumerate(q["options"]) if o.get("isCorrect") is True}
        comment = q.get("comments") or ""
        if _only_restates(comment, [options[k] for k in sorted(right)]):
            comment = ""
        found.append(_expected(q["question"], options, right, comment))
    return found


# --- layer5io/layer5-academy: tests in a page's YAML front matter ---------------------------

def layer5_front_matter(path: Path, text: str) -> list[Expected]:
    """A page whose front matter holds ``questions: [{text, options: [{id, text,
    isCorrect}]}]`` (the academy's test layout); pages without questions hold none. The
    test shows no explanation."""
    match = re.match(r"---\n(.*?)\n---", text, re.S)
    meta = yaml.safe_load(match[1]) if match else None
    questions = meta.get("questions") if isinstance(meta, dict) else None
    return [_expected(q["text"], [o["text"] for o in q["options"]],
                      {k for k, o in enumerate(q["options"]) if o.get("isCorrect") is True}, "")
            for q in questions or []]


# --- mflingelli/Quiz: raw HTML buttons in Markdown -----------------------------------------

_BUTTON = re.compile(r"<button\s+onclick=\"checkAnswer\('[^']*',\s*'((?:[^'\\]|\\.)*)',\s*"
                     r"(true|false)\)\">(.*?)</button>", re.S)


def netzwerk_buttons(path: Path, text: str) -> list[Expected]:
    """"### Frage N", the prompt's paragraph, then a list of buttons ``checkAnswer(id,
    hint, true|false)`` labelled with the choice: the page says "Richtig! hint" when the
    right button is pressed (that hint is the explanation)."""
    found = []
    for block in re.split(r"(?m)^#{1,6}\s", text)[1:]:
        buttons = _BUTTON.findall(block)
        if len(buttons) < 2:
            continue
        prompt = block.split("\n", 1)[1].split("<div", 1)[0]  # the heading's next paragraph
        hints = [hint for hint, right, _ in buttons if right == "true"]
        found.append(_expected(prompt, [label for _, _, label in buttons],
                               {k for k, b in enumerate(buttons) if b[1] == "true"},
                               hints[0] if hints else ""))
    return found


# --- michaelrizn/helper: window.X = [...] ---------------------------------------------------

def window_tests(path: Path, text: str) -> list[Expected]:
    """``window.LinuxTests = [{question, options, correctAnswer: k}]``: the test page
    shows "Вопрос i из n: question" and the options as text; no explanation."""
    program = ("global.window = {};\n" + text + "\nconsole.log(JSON.stringify("
               "Object.values(window).filter(Array.isArray).flat()));")
    return [_expected(q["question"], q["options"], {q["correctAnswer"]}, "")
            for q in _node_json(program)]


# --- EarthasaurusRex/Professor-Messer…: TSV --------------------------------------------------

def messer_tsv(path: Path, text: str) -> list[Expected]:
    """Month-Year, Number, Questions, Choice A-E, Answer (a letter of those columns). The
    quiz prints the question and each choice that does not say "n/a" (TRUE/FALSE rows
    have two); the explanation is asked of a model at run time, none is in the bank."""
    found = []
    for row in list(csv.reader(text.splitlines(), delimiter="\t"))[1:]:
        if len(row) < 5:
            continue
        columns = row[3:-1]
        shown = [k for k, c in enumerate(columns) if "n/a" not in c.lower()]
        key = row[-1].strip().upper()
        right = {shown.index(k) for k in shown if LETTERS[k] == key}
        found.append(_expected(row[2], [columns[k] for k in shown], right, ""))
    return found


# --- ALyubimov08/Telegram-Quiz-Bot: YAML ---------------------------------------------------

def quiz_bot_yaml(path: Path, text: str) -> list[Expected]:
    """A list of ``{id, g, correct: 'a', q, a: [four texts]}``: the bot sends "q / A) … D)
    …" and takes the button whose letter is ``correct``; no explanation."""
    found = []
    for item in yaml.safe_load(text) or []:
        answers = [str(a) for a in item.get("a") or []]
        key = str(item.get("correct", "")).upper()
        right = {LETTERS.index(key)} if key and key in LETTERS[:len(answers)] else set()
        found.append(_expected(str(item.get("q", "")), answers, right, ""))
    return found


# --- EduPras/4LINUX: questions.xml ----------------------------------------------------------

def sinkt_questions_xml(path: Path, text: str) -> list[Expected]:
    """``<question text=… answer_idx=k context=…><option>…</option>…``: the project reads
    ``answer_idx`` as a 0-based index into the options (``idx != int(correct_answer)`` in
    its error analyser); ``context`` says why the answer is right: the explanation. Options
    that all begin "A) ", "B) ", … are lettered choices: the letter is a label, not text."""
    found = []
    for q in ET.fromstring(text).iter("question"):
        options = [o.text or "" for o in q.findall("option")]
        labels = [re.match(r"\s*([A-J])\)\s", o) for o in options]
        if all(m and m[1] == LETTERS[k] for k, m in enumerate(labels)):
            options = [o[m.end():] for o, m in zip(options, labels, strict=True) if m]
        index = int(q.get("answer_idx", "-1"))
        right = {index} if 0 <= index < len(options) else set()
        found.append(_expected(q.get("text", ""), options, right, q.get("context", "")))
    return found
