"""Independent readers for the second held-out set, ``banks_46_heldout2_md.json`` (issue 46):
Markdown banks nobody on the team had looked at, chosen and read before the importer ran.

Each reader is ``(path, text) -> list[Expected]`` and reads its bank the way a person
reading the rendered page sees it: the prompt's first words, each choice's first words
(without the label the card shows itself: ``A)``, ``a)``, ``1.``), which are right, and
the explanation's first words (``""`` when the source has none, ``None`` where it is not
clearly one thing or another). They share nothing with ``nca_anki``.
"""

from __future__ import annotations

import re
from pathlib import Path

from real_banks import Expected, words

_LABEL = re.compile(r"^\s*\(?([A-Ja-j])\)\s*|^\s*([A-Ja-j])[.:]\s+")


def _label_less(choice: str) -> str:
    return _LABEL.sub("", choice, count=1)


def _letter(text: str) -> int | None:
    found = re.search(r"\(?\b([A-Ja-j])\)", text)
    return "abcdefghij".index(found[1].lower()) if found else None


# --- Londeren/hh-skill-verifications-quizzes: "#### prompt", text, "- [x]" boxes -----------

def hh_checkbox_headings(path: Path, text: str) -> list[Expected]:
    """``#### prompt`` (more paragraphs may follow it), then ``- [ ]``/``- [x]`` boxes; no
    explanation. A heading followed by plain bullets (the topic list) is not a question."""
    found: list[Expected] = []
    prompt: str | None = None
    choices: list[str] = []
    right: set[int] = set()
    fence = False

    def flush() -> None:
        if prompt is not None and len(choices) >= 2 and right:
            found.append(Expected(words(prompt), [words(c) for c in choices], set(right), ""))

    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        heading = None if fence else re.match(r"^\s{0,3}#{1,6}\s+(.*)", line)
        box = None if fence else re.match(r"^\s{0,3}[-*+]\s+\[([ xX])\]\s?(.*)", line)
        if heading:
            flush()
            # "#### Q1. prompt": the number is a label, not the prompt's words
            prompt, choices, right = re.sub(r"^Q?\d+\s*[.)]\s*", "", heading[1]), [], set()
        elif box and prompt is not None:
            if box[1] in "xX":
                right.add(len(choices))
            choices.append(box[2])
    flush()
    return found


# --- jaimeneeves/css-questions: "###### N.", "- A) x", <details> "#### Resposta: A) x" ------

def css_details(path: Path, text: str) -> list[Expected]:
    """``###### N. prompt``, lettered choices ``- A) text``, then a ``<details>`` whose
    ``#### Resposta: B) text`` names the right one; the paragraphs after it explain."""
    found: list[Expected] = []
    blocks = re.split(r"(?m)^(?=#{6}\s+\d+\.)", text)
    for block in blocks:
        head = re.match(r"#{6}\s+\d+\.\s*(.*)", block)
        if not head:
            continue
        choices = re.findall(r"(?m)^\s*-\s+([A-J])\)\s*(.*)$", block)
        answer = re.search(r"(?m)^#{1,6}\s*Resposta:\s*([A-J])\)", block)
        if len(choices) < 2 or not answer:
            continue
        letters = [c[0] for c in choices]
        after = block[answer.end():].split("\n", 1)[1] if "\n" in block[answer.end():] else ""
        after = re.sub(r"</?(details|p|summary)[^>]*>", " ", after)
        after = after.split("\n---")[0]
        found.append(Expected(words(head[1]), [words(c[1]) for c in choices],
                              {letters.index(answer[1])}, words(after)))
    return found


# --- praiseifenkwe/reading: "## QUESTION N: title", "**QUESTION**:", "**CORRECT ANSWER**" --

def csc313_breakdown(path: Path, text: str) -> list[Expected]:
    """``## QUESTION N: title`` (``###`` in a group), ``**QUESTION**: prompt``,
    ``**OPTIONS**:`` then ``a) text`` lines, ``**CORRECT ANSWER**: **(b) …**``;
    the long why/why-not notes are not read."""
    found: list[Expected] = []
    # A group heading "## QUESTION 20-23" holds "### QUESTION 20: …" sub-questions; one
    # without its own **OPTIONS** (it leans on the group's) is not counted.
    for block in re.split(r"(?m)^(?=#{2,3} QUESTION\s+\d+\b)", text):
        if not re.match(r"#{2,3} QUESTION\s+\d+:", block):
            continue
        prompt = re.search(r"(?m)^\*\*QUESTION\*\*:\s*(.*)$", block)
        options = block.split("**OPTIONS**", 1)[1] if "**OPTIONS**" in block else ""
        options = options.split("**CORRECT ANSWER**", 1)[0]
        choices = re.findall(r"(?m)^\s*(?:[-*]\s+)?\(?([a-j])\)\s*(.*)$", options)
        answer = re.search(r"\*\*CORRECT ANSWER\*\*:\s*\**\s*\(([a-j])\)", block)
        if not prompt or len(choices) < 2 or not answer:
            continue
        letters = [c[0] for c in choices]
        if answer[1] not in letters:
            continue
        found.append(Expected(words(prompt[1]), [words(c[1]) for c in choices],
                              {letters.index(answer[1])}, None))
    return found


# --- Nothing2Hide/jekyll-website: pandoc Markdown, "1.  text", "**Réponse : 2**." ----------

def rgpd_numbered(path: Path, text: str) -> list[Expected]:
    """``### prompt {#anchor}``, numbered choices ``1.  text`` (one question nests them
    in a ``1.`` item), then ``**Réponse : N**.`` followed by the explanation."""
    found: list[Expected] = []
    for block in re.split(r"(?m)^(?=###\s)", text):
        head = re.match(r"###\s+(.*?)(?:\s*\{#[^}]*\})?\s*$", block.split("\n", 1)[0])
        answer = re.search(r"(?m)^\*\*Réponse\s*:?\s*(\d+)\.?\*\*\.?\s*(.*)", block)
        if not head or not answer:
            continue
        body = block[:answer.start()]
        choices = [m[1] for m in re.finditer(r"(?m)^\s*(?:\d+\.\s+)+(\S.*)$", body)]
        if len(choices) < 2:
            continue
        rest = answer[2] + "\n" + block[answer.end():]
        found.append(Expected(words(head[1]), [words(c) for c in choices],
                              {int(answer[1]) - 1}, words(rest)))
    return found


# --- HX-ARomero/ft65-m3-demo: "## N." / "### ❓Pregunta N", "- a)" choices, <details> -----

def hx_details(path: Path, text: str) -> list[Expected]:
    """A heading (``## N. prompt`` or ``### ❓Pregunta N``), code or text, lettered choices
    ``- a) text``, then ``<details>`` holding the right letter (``b) text`` or ``✅
    Respuesta correcta: B)``) and, in the trivia file, ``📌 Explicación:`` after it."""
    found: list[Expected] = []
    for block in re.split(r"(?m)^(?=#{2,3}\s)", text):
        head = re.match(r"#{2,3}\s+(.*)", block)
        details = re.search(r"(?s)<details>(.*?)</details>", block)
        if not head or not details:
            continue
        choices = re.findall(r"(?m)^\s*-\s+([A-Ja-j])\)\s*(.*)$", block[:details.start()])
        inside = re.sub(r"(?s)<summary>.*?</summary>", "", details[1]).strip()
        first, _, after = inside.partition("\n")
        right = _letter(first)
        if len(choices) < 2 or right is None:
            continue
        prompt = re.sub(r"^\s*\d+\.\s*", "", head[1])
        after = re.sub(r"^\W*Explicaci[oó]n\s*:?", "", after.strip())
        explanation = words(after) if "Respuesta correcta" in first else ""
        found.append(Expected(words(prompt), [words(c[1]) for c in choices], {right},
                              explanation))
    return found


# --- Moranjianghe/jisuanjiwangluoanquan: "**N. (1分) prompt**", right ones in red <font> ----

def red_font_choices(path: Path, text: str) -> list[Expected]:
    """A bold line ``**N. (1分) prompt**`` (the points label is part of the line a reader
    sees), then ``- A. text`` choices; the right ones are wrapped in ``<font
    color='red'>``. Single, multiple and true/false (``A. 对``/``B. 错``) sections alike;
    no explanation."""
    found: list[Expected] = []
    for block in re.split(r"(?m)^(?=\*\*\d+\.)", text):
        head = re.match(r"\*\*\d+\.\s*(.*?)\*\*\s*$", block.split("\n", 1)[0])
        if not head:
            continue
        choices = re.findall(r"(?m)^\s*-\s+[A-J]\.\s*(.*)$", block)
        right = {k for k, c in enumerate(choices) if re.search(r"<font[^>]*color=.?red", c)}
        if len(choices) >= 2 and right:
            found.append(Expected(words(head[1]), [words(c) for c in choices], right, ""))
    return found


# --- Heipry/Tests-autoevaluacion-MF1442-SSCE0110: unlabelled choice lines, answer by text --

def spoiler_answer_text(path: Path, text: str) -> list[Expected]:
    """``N) prompt`` (one paragraph), then one choice a line (unlabelled, sometimes a blank
    line between them), then ``CORRECTA: text`` naming the right choice by its text and
    ``JUSTIFICACIÓN: …`` (in a spoiler <span>/<p>/<div>, or bold). A question whose
    stated answer is none of its choices is not counted."""
    found: list[Expected] = []
    for block in re.split(r"(?m)^(?=\d+\)\s)", text):
        head = re.match(r"\d+\)\s*(.*)", block)
        answer = re.search(r"CORRECTA:\**\s*(.*?)\s*(?:</(?:span|p|div)>|$)", block, re.M)
        if not head or not answer:
            continue
        paragraphs = block[:answer.start()].split("\n\n", 1)
        prompt = re.sub(r"^\d+\)\s*", "", paragraphs[0])
        lines = paragraphs[1].split("\n") if len(paragraphs) > 1 else []
        choices = [line.strip() for line in lines if re.search(r"\w", line) and not re.match(
            r"\s*(<|---|https?://|#)", line)]
        texts = [words(c, 40) for c in choices]
        said = words(answer[1], 40)
        if len(choices) < 2 or said not in texts:
            continue
        why = re.search(r"JUSTIFICACI[ÓO]N:\**\s*(.*)", block[answer.end():], re.S)
        found.append(Expected(words(prompt), [words(c) for c in choices],
                              {texts.index(said)}, words(why[1]) if why else ""))
    return found


# --- nerdstarcode/certifica-es: "#### prompt", instructions, "- [x]" boxes (some several) --

def azure_checkbox_headings(path: Path, text: str) -> list[Expected]:
    """``#### prompt``, more paragraphs (``Selecione somente uma resposta.``), then
    ``- [ ]``/``- [x]`` boxes, several ticked in a select-all question; no explanation. The
    same reading as the HH quizzes, another author's file."""
    return hh_checkbox_headings(path, text)
