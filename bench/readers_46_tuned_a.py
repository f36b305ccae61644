"""Independent readers for the first eleven banks of issue 46's "twenty-one more banks"
(docs/importing.md, 2026-12-04), for ``bench/real_banks.py`` (manifest
``bench/banks_46_tuned.json``).

Each reader reads one shape the way a person sees it: a Markdown file as GitHub renders it, a
quiz app's data as the app shows it. It gives, per multiple-choice question, the prompt's first
words, each choice's first words, which choices are right and the explanation's first words
(``""`` when the source has none). Nothing here comes from ``nca_anki``; JavaScript data is
evaluated by Node, as the app's browser would.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_banks import Expected, words

# --- JavaScript data, as the app's browser evaluates it -------------------------------------

def _node() -> str:
    bundled = next(iter(Path(sys.prefix).glob("lib/python3*/site-packages/playwright/driver/node")),
                   None)
    found = str(bundled) if bundled else shutil.which("node")
    if not found:
        raise SystemExit("readers_46_tuned_a: Node is needed to read JavaScript banks")
    return found


def js_values(text: str) -> dict:
    """The file's top-level ``const``/``let``/``var`` values (``export`` or not), as JSON;
    a ``Map`` comes back as its list of ``[key, value]`` pairs."""
    names = re.findall(r"(?m)^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=", text)
    body = re.sub(r"(?m)^export\s+default\b.*$", "", text)
    body = re.sub(r"(?m)^export\s+(?=(?:const|let|var|function)\b)", "", body)
    show = ", ".join(f"{n}: typeof {n} === 'undefined' ? null : {n}" for n in names)
    script = (body + "\n;console.log(JSON.stringify({" + show + "}, (k, v) => "
              "v instanceof Map ? Array.from(v.entries()) : v));")
    run = subprocess.run([_node(), "-"], input=script, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


# --- Markdown ---------------------------------------------------------------------------------

def infraquiz(path: Path, text: str) -> list[Expected]:
    """``### N. prompt``, lettered lines ``A) text``, ``**Correct Answer**: A) text`` (or
    ``**Respuesta correcta**:``), then the explanation: a ``>`` quote or a plain paragraph.
    A heading with no answer line (a file of unmarked questions) is no multiple-choice
    question."""
    found = []
    for block in re.split(r"(?m)^(?=#{1,6}\s)", text):
        head = re.match(r"#{3}\s+(?:\d+\.\s*)?(.*)", block)
        answer = re.search(r"(?mi)^\*\*(?:correct answer|respuesta correcta)\*\*\s*:?\s*"
                           r"([A-J])\)", block)
        if not head or not answer:
            continue
        choices = re.findall(r"(?m)^([A-J])\)\s+(.*)", block)
        letters = [c[0] for c in choices]
        after = block[answer.end():].split("\n", 1)[-1]  # what follows the answer line
        quote = " ".join(re.sub(r"^>\s?", "", q) for q in after.split("\n")
                         if q.strip() and not re.fullmatch(r"\s*(-{3,}|\*{3,})\s*", q))
        found.append(Expected(words(head[1]), [words(c[1]) for c in choices],
                              {letters.index(answer[1])}, words(quote)))
    return found


def kcna_details(path: Path, text: str) -> list[Expected]:
    """``## Question N.M``, the prompt, a list ``- a. text`` (a line `` d. text`` that lost its
    dash is still read as the choice its letter says), the answer in
    ``<details><summary>…</summary> b. text</details>``; an ``Answer: c. text`` line outside the
    details, where there is one, is what the page shows first and wins. No explanations."""
    found = []
    for block in re.split(r"(?m)^(?=#{1,6}\s)", text):
        if not re.match(r"##\s+Question\b", block):
            continue
        details = re.search(r"(?s)<details>(.*?)</details>", block)
        before = block[:details.start()] if details else block
        choices, prompt = [], []
        for line in before.split("\n")[1:]:
            choice = re.match(r"^\s*(?:[-*]\s+)?([a-j])\.\s+(.*)", line)
            if choice:
                choices.append((choice[1], choice[2]))
            elif line.strip() and not choices and not line.startswith("Answer"):
                prompt.append(line.strip())
        if not choices:
            continue
        visible = re.search(r"(?m)^Answer:\s*((?:[a-j]\.[^,\n]*,?\s*)+)", before)
        shown = visible[1] if visible else (
            re.sub(r"(?s)<summary>.*?</summary>", "", details[1]) if details else "")
        said = re.findall(r"(?:^|[\s,:-])([a-j])\.\s", " " + shown)
        letters = [c[0] for c in choices]
        right = {letters.index(x) for x in said if x in letters}
        if right:
            found.append(Expected(words(" ".join(prompt)), [words(c[1]) for c in choices],
                                  right, ""))
    return found


def examtopics(path: Path, text: str) -> list[Expected]:
    """ExamTopics page dumps: ``## Exam … question N discussion``, page furniture, the prompt up
    to ``Suggested Answer: BC``, choices ``A. text``, ``**Answer: B**``. The suggested answer is
    the page's answer (the bold line repeats it, cut to its first letter where the question asks
    for two). No explanations."""
    found = []
    for block in re.split(r"(?m)^(?=##\s)", text):
        suggested = re.search(r"(?m)^Suggested Answer:\s*([A-J]+)", block)
        if not suggested:
            continue
        start = re.search(r"(?m)^\[All [^\]]*Questions\]\s*$", block)
        prompt = block[start.end() if start else 0:suggested.start()]
        choices = re.findall(r"(?m)^([A-J])\.\s+(.*)", block[suggested.end():])
        letters = [c[0] for c in choices]
        right = {letters.index(x) for x in suggested[1] if x in letters}
        found.append(Expected(words(prompt), [words(c[1]) for c in choices], right, ""))
    return found


def _rendered_details(body: str) -> str:
    """A ``<details>`` body as the page shows its text: the summary is the button's label, the
    rest is the explanation (links, table headings and cells, in order)."""
    return re.sub(r"(?s)<summary>.*?</summary>", " ", body)


def checkbox_details(path: Path, text: str) -> list[Expected]:
    """``### prompt``, a task list ``- [ ]`` / ``- [x]`` (checked: right), then an
    explanation in ``<details>`` (HTML tables, shown by GitHub). A template heading whose list
    has no checked box is no question. A heading directly followed by another (a scenario, then
    the question) is one question's prompt, as the page shows it; a heading's number
    (``### 7 .``) is its number, not its words."""
    found = []
    scenario = ""  # a heading directly followed by the question's heading: one question
    for block in re.split(r"(?m)^(?=#{1,6}\s)", text):
        head = re.match(r"###\s+(?:\d+\s*\.\s*)?(.*)", block)
        tasks = re.findall(r"(?m)^\s{0,3}[-*+]\s+\[([ xX])\]\s*(.*)", block)
        if head and not block[head.end():].strip():
            scenario = f"{scenario} {head[1]}"
            continue
        prompt, scenario = f"{scenario} {head[1] if head else ''}", ""
        if not head or not any(t[0] in "xX" for t in tasks):
            continue
        details = re.search(r"(?s)<details>(.*?)</details>", block)
        why = words(_rendered_details(details[1])) if details else ""
        found.append(Expected(words(prompt), [words(t[1]) for t in tasks],
                              {k for k, t in enumerate(tasks) if t[0] in "xX"}, why))
    return found


# --- JavaScript quiz apps ---------------------------------------------------------------------

def _note(entry: dict) -> str:
    """A question's note (``Note``, ``answerNote``, any case): the author's explanation."""
    return next((str(v) for k, v in entry.items()
                 if k.lower() in ("note", "answernote") and v and str(v).strip()), "")


def b2c_numbered(path: Path, text: str) -> list[Expected]:
    """``export const questions = {2: {description, options: {A: …}, answer: "A, C",
    Note}}`` (every such object in the file). The answer is letters, sometimes followed by
    ``; remark`` (the app shows it after "The answer is:"); one answer is a choice's text
    ("Yes"). The explanation is the note, else the remark, else none."""
    found = []
    for value in js_values(text).values():
        if not isinstance(value, dict):
            continue
        for entry in value.values():
            if not isinstance(entry, dict) or not isinstance(entry.get("options"), dict):
                continue
            options = list(entry["options"].items())
            answer, _, remark = str(entry.get("answer", "")).partition(";")
            keys = [k for k, _ in options]
            right = {keys.index(x) for x in re.findall(r"\b([A-J])\b", answer) if x in keys}
            if not right:  # the answer written as a choice's text
                right = {k for k, (_, t) in enumerate(options)
                         if words(str(t), 99) == words(answer, 99)}
            if right:
                found.append(Expected(words(str(entry.get("description", ""))),
                                      [words(str(t)) for _, t in options], right,
                                      words(_note(entry) or remark)))
    return found


def b2c_quizz(path: Path, text: str) -> list[Expected]:
    """``let questions = {1: {approach, options: [statements], question, answers: [{option,
    correct}]}}``: the app shows the approach, the question, the statements, then the answers
    as choices (``correct``: right). A question with no right answer is none. No
    explanations."""
    found = []
    for value in js_values(text).values():
        if not isinstance(value, dict):
            continue
        for entry in value.values():
            answers = entry.get("answers") if isinstance(entry, dict) else None
            if not isinstance(answers, list) or not any(a.get("correct") for a in answers):
                continue
            prompt = " ".join(str(entry.get(k) or "") for k in ("approach", "question"))
            found.append(Expected(words(prompt), [words(str(a.get("option", ""))) for a in answers],
                                  {k for k, a in enumerate(answers) if a.get("correct")}, ""))
    return found


def _as_read(text: str) -> str:
    """A text as a reader compares it: spaces and line breaks as one space, wrapping quotes
    and case aside; signs kept (``cos(x)-sen(x)`` is not ``cos(x)+sen(x)``)."""
    return re.sub(r"\s+", " ", text).strip().strip("'\"‘’“”").strip().casefold()


def map_label_text(path: Path, text: str) -> list[Expected]:
    """``new Map([[id, {question, options: [{label: "a", text}], correctAnswer: text}]])``: the
    app shows ``a. text`` per option (``label`` is the letter) and "Respuesta correcta:" with
    the text; the right choice is the one that reads the same (quotes and line breaks aside).
    No explanations."""
    found = []
    for value in js_values(text).values():
        if not isinstance(value, list):
            continue
        for pair in value:
            entry = pair[1] if isinstance(pair, list) and len(pair) == 2 else None
            if not isinstance(entry, dict) or not isinstance(entry.get("options"), list):
                continue
            texts = [str(o.get("text", "")) for o in entry["options"]]
            said = _as_read(str(entry.get("correctAnswer", "")))
            right = {k for k, t in enumerate(texts) if _as_read(t) == said}
            if right:
                found.append(Expected(words(str(entry.get("question", ""))),
                                      [words(t) for t in texts], right, ""))
    return found


def lettered_array(path: Path, text: str) -> list[Expected]:
    """``const questions = [{id, question: "12. prompt", options: {A: …}, correct: "B"}]``:
    the number that opens each prompt is the question's number, not its words."""
    found = []
    for value in js_values(text).values():
        if not isinstance(value, list):
            continue
        for entry in value:
            if not isinstance(entry, dict) or not isinstance(entry.get("options"), dict):
                continue
            options = list(entry["options"].items())
            keys = [k for k, _ in options]
            right = {keys.index(x) for x in re.findall(r"[A-J]", str(entry.get("correct", "")))
                     if x in keys}
            prompt = re.sub(r"^\s*\d+\s*[.)]\s*", "", str(entry.get("question", "")))
            why = entry.get("explanation") or entry.get("explicacion") or ""
            if right:
                found.append(Expected(words(prompt), [words(str(t)) for _, t in options], right,
                                      words(str(why))))
    return found


def value_label(path: Path, text: str) -> list[Expected]:
    """An exam system's export: ``[{_Title, _Answers: [{value: "0", label: text}],
    _RightAnswerIndexD: "1" (one answer) or _RightAnswerIndex: ["0", "2"] (several), Remark}]``.
    ``value`` is the choice's index, ``label`` its text."""
    found = []
    for value in js_values(text).values():
        if not isinstance(value, list):
            continue
        for entry in value:
            answers = entry.get("_Answers") if isinstance(entry, dict) else None
            if not isinstance(answers, list):
                continue
            said = entry.get("_RightAnswerIndexD") or entry.get("_RightAnswerIndex") or []
            said = [said] if isinstance(said, str) else said
            values = [str(a.get("value")) for a in answers]
            right = {values.index(str(x)) for x in said if str(x) in values}
            if right:
                found.append(Expected(words(str(entry.get("_Title") or "")),
                                      [words(str(a.get("label", ""))) for a in answers], right,
                                      words(str(entry.get("Remark") or ""))))
    return found
