"""Independent readers for the held-out banks of ``banks_46_heldout.json`` (issue 46).

Each reader is ``(path, text) -> list[Expected]`` and reads its bank the way a person
reading the page, or using the app the bank was written for, sees it: the prompt's first
words, each choice's first words (without the label the card shows itself: ``A.``,
``a)``, ``(1)``), which choices are right, and the explanation's first words without its
label (``""`` when the source has none; ``None`` where a cell is not clearly one or the
other). They share nothing with ``nca_anki``: a reader is a small parser of one shape,
written from the bank, not from the importer.

A question a person could not answer as written (its stated answer is none of its
choices) is not counted: it is not a multiple-choice question of the source.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from real_banks import NODE, Expected, words

LETTERS = "ABCDEFGHIJ"


# --- helpers --------------------------------------------------------------------------------

def _js_value(text: str, name: str) -> object:
    """The value of the top-level variable ``name`` after running the file as its app does
    (a script in a browser or a module), evaluated by Node in an empty sandbox."""
    src = re.sub(r"(?m)^\s*export\s+default\s+\w+\s*;?\s*$", "", text)
    src = re.sub(r"(?m)^\s*export\s+(const|let|var)\s", r"\1 ", src)
    src = re.sub(r"(?m)^\s*import\s.*$", "", src)
    program = (
        "const vm = require('vm'); let src = '';"
        "process.stdin.on('data', d => src += d);"
        "process.stdin.on('end', () => {"
        " const box = {module: {exports: {}}, exports: {}, console: {log() {}}};"
        f" const out = vm.runInNewContext(src + '\\n;JSON.stringify({name})', box);"
        " process.stdout.write(out); });")
    run = subprocess.run([str(NODE or "node"), "-e", program], input=src,
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def _visible(text: str) -> str:
    """Text without the control characters a reader does not see (tabs and line breaks
    stay)."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", "", text)


def _label_less(choice: str) -> str:
    """A choice without the label written into it (``A.``, ``a)``, ``(1)``, ``B:``)."""
    return re.sub(r"^\s*(?:\(?[A-Ja-j1-9]\)|[A-Ja-j][.:：．、]|\([A-Ja-j1-9]\)[.:]?)\s*", "",
                  choice)


_EXPLANATION_LABEL = re.compile(
    r"^\s*(?:\*\*|__)?\s*(?:【[^】]{1,8}】|\[?(?:Explanation|Explicación|Explicação|Erklärung|"
    r"Пояснение|Объяснение|解析|分析|解释|解釋)\]?)\s*[:：]?\s*(?:\*\*|__)?\s*[:：]?", re.I)


def _explanation(text: str) -> str:
    """An explanation's first words, its label left out (a word in 【】 heading a note is
    one: 【解析】, 【分析】, 【技巧】)."""
    return words(_EXPLANATION_LABEL.sub("", html.unescape(text).replace("<br>", " "), count=1))


# --- Markdown -------------------------------------------------------------------------------

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BOX = re.compile(r"^\s{0,3}[-*+]\s+\[([ xX])\]\s?(.*)$")


def _heading_prompt(heading: str) -> str:
    """A heading's text as the page shows it: a link's text, without its number."""
    heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"^\s*\d+\s*[.、．)]\s*", "", heading)


def checkbox_headings(path: Path, text: str) -> list[Expected]:
    """``### N. prompt``, then what belongs to the question (code, text; pictures show no
    words), the choices as task boxes ``- [x] A. text`` (ticked: right), then a ``>``
    quote: the explanation."""
    found: list[Expected] = []
    prompt: list[str] | None = None
    choices: list[str] = []
    right: set[int] = set()
    quote: list[str] = []
    fence = False

    def flush() -> None:
        if prompt is not None and len(choices) >= 2 and right:
            found.append(Expected(words(" ".join(prompt)),
                                  [words(_label_less(c)) for c in choices], set(right),
                                  _explanation(" ".join(quote)) if quote else ""))

    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
            continue
        heading = None if fence else _HEADING.match(line)
        box = None if fence else _BOX.match(line)
        if heading:
            flush()
            prompt, choices, right, quote = [_heading_prompt(heading[1])], [], set(), []
        elif prompt is not None and box and not quote:
            if box[1] in "xX":
                right.add(len(choices))
            choices.append(box[2])
        elif prompt is not None and not choices:
            prompt.append(re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", line))
        elif not fence and line.lstrip().startswith(">") and choices:
            quote.append(re.sub(r"^\s*>\s?", "", line))
    flush()
    return found


_BOLD_ITEM = re.compile(r"^\s*[*-]\s+\*\*Q\d+\s*[:.]\*\*\s*(.*)$")
_LETTERED = re.compile(r"^\s*(\*\*)?\s*([a-hA-H])\)\s*(.*?)\s*(\*\*)?\s*$")


def bold_right_lines(path: Path, text: str) -> list[Expected]:
    """``* **Qn:** prompt``, then its choices one a line (``a) text``, or bare lines after
    ``Options:``); the bold one is right. No explanations."""
    found: list[Expected] = []
    items = re.split(r"\n(?=\s*[*-]\s+\*\*Q\d+\s*[:.]\*\*)", "\n" + text)
    for item in items:
        lines = item.strip("\n").split("\n")
        head = _BOLD_ITEM.match(lines[0]) if lines else None
        if not head:
            continue
        prompt, choices, right = [head[1]], [], set()
        bare = False
        for line in lines[1:]:
            if not line.strip():
                continue
            lettered = _LETTERED.match(line)
            if re.fullmatch(r"\s*Options\s*:\s*", line):
                bare = True
            elif lettered:
                if lettered[1] and lettered[4]:
                    right.add(len(choices))
                choices.append(lettered[3])
            elif bare:
                bold = re.fullmatch(r"\s*\*\*(.*)\*\*\s*", line)
                if bold:
                    right.add(len(choices))
                choices.append(bold[1] if bold else line)
            elif not choices:
                prompt.append(line)
        if len(choices) >= 2 and right:
            found.append(Expected(words(" ".join(prompt)), [words(c) for c in choices],
                                  right, ""))
    return found


def numbered_details(path: Path, text: str) -> list[Expected]:
    """A heading (``#### N. prompt``), its code, then choices ``- 1: text``, then a
    ``<details>`` block whose ``##### Answer: 4`` names the right one by its number and
    whose next paragraph is the explanation. Headings without such choices are the page's
    other, open questions."""
    found = []
    fence = False
    blocks: list[list[str]] = []
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        if not fence and re.match(r"^\s{0,3}#{1,4}\s", line):
            blocks.append([])
        if blocks:
            blocks[-1].append(line)
    for block in blocks:
        head = _HEADING.match(block[0])
        prompt = [_heading_prompt(head[1]) if head else ""]
        choices: list[str] = []
        answer: list[int] = []
        why: list[str] = []
        fence = False
        for line in block[1:]:
            if line.lstrip().startswith(("```", "~~~")):
                fence = not fence
                continue
            choice = None if fence else re.match(r"^\s*[-*]\s+(\d+):\s*(.*)$", line)
            said = None if fence else re.match(r"^\s*#{0,6}\s*Answer:\s*([\d ,and]+)\s*$", line)
            if said:
                answer = [int(n) for n in re.findall(r"\d+", said[1])]
            elif choice and not answer:
                choices.append(choice[2])
            elif not choices:
                prompt.append(line)
            elif answer and not fence and not re.match(r"^\s*</?(p|details)>\s*$", line):
                if line.strip() or not why:
                    why.append(line)
                if not line.strip() and any(w.strip() for w in why):
                    break
        right = {n - 1 for n in answer if 1 <= n <= len(choices)}
        if len(choices) >= 2 and right:
            found.append(Expected(words(" ".join(prompt)), [words(c) for c in choices], right,
                                  words(" ".join(why))))
    return found


# --- plain text -----------------------------------------------------------------------------

def caret_trivia(path: Path, text: str) -> list[Expected]:
    """``#Q prompt`` (maybe over lines), ``^ right text``, then ``A text`` lines: the right
    choice is the one whose text is the ``^`` line's."""
    found: list[Expected] = []
    for block in re.split(r"\n(?=#Q)", "\n" + text.replace("\r\n", "\n")):
        if not block.startswith("#Q"):
            continue
        prompt: list[str] = []
        answer: str | None = None
        choices: list[str] = []
        for line in block.split("\n"):
            choice = re.match(r"^([A-J]) (.*)$", line)
            if line.startswith("#Q"):
                prompt.append(line[2:])
            elif line.startswith("^"):
                answer = line[1:].strip()
            elif choice and answer is not None:
                choices.append(choice[2].strip())
            elif answer is None and line.strip():
                prompt.append(line)
        right = {k for k, c in enumerate(choices) if c == answer}
        if len(choices) >= 2 and right:
            found.append(Expected(words(" ".join(prompt)), [words(c) for c in choices],
                                  right, ""))
    return found


# --- JavaScript -----------------------------------------------------------------------------

def js_options_correct_index(path: Path, text: str) -> list[Expected]:
    """``const NAME = [{question, options: [...], correct: index from 0, explanation}]``."""
    name = re.search(r"(?m)^\s*(?:const|let|var)\s+(\w+)\s*=\s*\[", text)
    found = []
    for q in _js_value(text, name[1]) if name else []:
        options, correct = q.get("options") or [], q.get("correct")
        if len(options) >= 2 and isinstance(correct, int) and 0 <= correct < len(options):
            found.append(Expected(words(q["question"]), [words(str(o)) for o in options],
                                  {correct}, words(q.get("explanation") or "")))
    return found


def js_resposta_errada(path: Path, text: str) -> list[Expected]:
    """``var X = {questao: [{pergunta, resposta: right, errada: [wrong, ...]}]}``."""
    name = re.search(r"(?m)^\s*(?:const|let|var)\s+(\w+)\s*=\s*\{", text)
    data = _js_value(text, name[1]) if name else {}
    found = []
    for items in data.values() if isinstance(data, dict) else []:
        for q in items if isinstance(items, list) else []:
            choices = [q.get("resposta", "")] + list(q.get("errada") or [])
            if len(choices) >= 2 and choices[0]:
                found.append(Expected(words(q.get("pergunta", "")),
                                      [words(str(c)) for c in choices], {0}, ""))
    return found


def js_opciones_flag(path: Path, text: str) -> list[Expected]:
    """``const X = {Category: [{pregunta, opciones: [{opcion, esVerdadera}]}]}``."""
    name = re.search(r"(?m)^\s*(?:const|let|var)\s+(\w+)\s*=\s*\{", text)
    data = _js_value(text, name[1]) if name else {}
    found = []
    for items in data.values() if isinstance(data, dict) else []:
        for q in items if isinstance(items, list) else []:
            options = q.get("opciones") or []
            right = {k for k, o in enumerate(options) if o.get("esVerdadera") is True}
            if len(options) >= 2 and right:
                found.append(Expected(words(q.get("pregunta", "")),
                                      [words(str(o.get("opcion", ""))) for o in options],
                                      right, ""))
    return found


def js_answer_n_keys(path: Path, text: str) -> list[Expected]:
    """``let x = [{quiz_name, questions_data: [{question, answer_1.., right_answer}]}]``:
    the choices in their keys' order, the right one counted from 1 (a string or a number)."""
    name = re.search(r"(?m)^\s*(?:const|let|var)\s+(\w+)\s*=\s*\[", text)
    found = []
    for quiz in _js_value(text, name[1]) if name else []:
        for q in quiz.get("questions_data") or []:
            keys = sorted((k for k in q if re.fullmatch(r"answer_\d+", k)),
                          key=lambda k: int(k.split("_")[1]))
            choices = [str(q[k]) for k in keys]
            right = int(str(q.get("right_answer", "0")).strip() or 0) - 1
            if len(choices) >= 2 and 0 <= right < len(choices):
                found.append(Expected(words(q.get("question", "")),
                                      [words(c) for c in choices], {right}, ""))
    return found


# --- JSON, YAML -----------------------------------------------------------------------------

def json_keyed_steps(path: Path, text: str) -> list[Expected]:
    """``{name: {step: {question, choices: [...], answer: the right choice's text}}}``."""
    found = []
    for steps in json.loads(text).values():
        for q in steps.values():
            choices = q.get("choices") or []
            right = {k for k, c in enumerate(choices) if c == q.get("answer")}
            if len(choices) >= 2 and right:
                found.append(Expected(words(q["question"]), [words(c) for c in choices],
                                      right, ""))
    return found


def yaml_answers_is_correct(path: Path, text: str) -> list[Expected]:
    """``- question: …, answers: [{answer: text, is_correct: true/false}]``."""
    import yaml
    found = []
    for q in yaml.safe_load(text) or []:
        answers = q.get("answers") or []
        right = {k for k, a in enumerate(answers) if a.get("is_correct") is True}
        if len(answers) >= 2 and right:
            found.append(Expected(words(str(q.get("question", ""))),
                                  [words(str(a.get("answer", ""))) for a in answers], right,
                                  ""))
    return found


# --- spreadsheets ---------------------------------------------------------------------------

def tsv_label_text_columns(path: Path, text: str) -> list[Expected]:
    """Columns ``qid, answer, tigan, o1, p1, o2, p2, o3, p3, tail``: ``tigan`` the prompt,
    ``oN`` each choice's label ``(N)``, ``pN`` its text, ``answer`` the right one's number.
    ``tail`` (a note after the choices on a few rows) is neither clearly part of the prompt
    nor an explanation: not compared where it is there."""
    found = []
    for row in csv.DictReader(io.StringIO(_visible(text)), delimiter="\t"):
        choices = [row.get(f"p{n}") or "" for n in range(1, 10) if f"p{n}" in row]
        choices = [c for c in choices if c.strip()]
        answer = (row.get("answer") or "").strip()
        if len(choices) >= 2 and answer.isdigit() and 1 <= int(answer) <= len(choices):
            tail = (row.get("tail") or "").strip()
            found.append(Expected(words(row.get("tigan") or ""), [words(c) for c in choices],
                                  {int(answer) - 1}, None if tail else ""))
    return found


def csv_answer_columns(path: Path, text: str) -> list[Expected]:
    """Columns ``Question, Answer 1, Answer 2, …, correct`` (the right one counted from 1);
    a cell may hold line breaks."""
    found = []
    for row in csv.DictReader(io.StringIO(_visible(text))):
        keys = sorted((k for k in row if k and re.fullmatch(r"Answer \d+", k)),
                      key=lambda k: int(k.split()[1]))
        choices = [row[k] or "" for k in keys]
        correct = (row.get("correct") or "").strip()
        if len(choices) >= 2 and correct.isdigit() and 1 <= int(correct) <= len(choices):
            found.append(Expected(words(row.get("Question") or ""),
                                  [words(c) for c in choices], {int(correct) - 1}, ""))
    return found


# --- Moodle formats -------------------------------------------------------------------------

def moodle_xml(path: Path, text: str) -> list[Expected]:
    """``<question type="multichoice">`` (and ``truefalse``): the question text (HTML),
    each answer's text, the right ones as Moodle grades them (100 in a question of one
    answer, positive in one of several), the general feedback as the explanation. The
    prompt is compared on up to 40 words: every question here opens with the same
    paragraph of directions."""
    found = []
    for q in ET.fromstring(text.encode("utf-8")).iter("question"):
        if q.get("type") not in ("multichoice", "truefalse"):
            continue
        single = (q.findtext("single") or "true").strip() in ("true", "1")
        answers = [((a.findtext("text") or ""), float(a.get("fraction", "0")))
                   for a in q.findall("answer")]
        right = {k for k, (_, f) in enumerate(answers)
                 if (f >= 100 if single or q.get("type") == "truefalse" else f > 0)}
        if len(answers) >= 2 and right:
            found.append(Expected(words(q.findtext("questiontext/text") or "", 40),
                                  [words(t) for t, _ in answers], right,
                                  words(q.findtext("generalfeedback/text") or "")))
    return found


def gift(path: Path, text: str) -> list[Expected]:
    """GIFT as Moodle reads it: comments (``//``) out, questions separated by a blank line
    (a block without ``{…}`` is a description, not a question), a question's text is its
    block without its ``::title::`` (a name the student does not see); with a ``~`` among
    its answers it is multiple choice, the ``=`` ones right; feedback after ``#`` on an
    answer is not an explanation, ``####`` is."""
    body = re.sub(r"(?m)^\s*//.*$", "", text.replace("\r\n", "\n"))
    found = []
    for block in re.split(r"\n[ \t]*\n", body):
        match = re.search(r"(?s)^(.*?)\{(.*)\}", block)
        if not match:
            continue
        before = re.sub(r"(?s)^\s*::.*?::", "", match[1].strip())
        before = re.sub(r"^\[\w+\]", "", before.strip())
        answers = match[2]
        general = ""
        if "####" in answers:
            answers, general = answers.split("####", 1)
        parts = [p.strip() for p in re.split(r"(?<!\\)(?=[~=])", answers) if p.strip()]
        if not any(p.startswith("~") for p in parts):
            continue  # a short answer (only '='), true/false {T}, or an essay
        choices = [re.sub(r"^[~=](%-?[\d.]+%)?", "", p).split("#")[0].strip() for p in parts]
        right = {k for k, p in enumerate(parts)
                 if re.match(r"=(?!%)|[~=]%100(\.0*)?%", p)}
        if len(choices) >= 2 and right:
            found.append(Expected(words(before), [words(c) for c in choices], right,
                                  words(general)))
    return found
