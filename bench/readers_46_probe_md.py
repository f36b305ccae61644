"""Independent readers for the banks of bench/banks_46_probe_md.json (issue 46, round 4): each
reads a bank the way a person sees its page, with no code from nca_anki, so that the
figure bench/real_banks.py gives is the importer's against a reading of its own."""

from __future__ import annotations

import re
from pathlib import Path

from real_banks import Expected, words

_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_MARK = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+")


def _outside_code(lines: list[str]) -> list[bool]:
    """For each line, whether it is outside a fenced code block (fences count as code)."""
    out, fence = [], False
    for line in lines:
        if _FENCE.match(line):
            fence = not fence
            out.append(False)
            continue
        out.append(not fence)
    return out


def _sections(text: str, heading: str) -> list[tuple[str, list[str]]]:
    """The file cut at each line matching ``heading`` (outside code): (heading, lines)."""
    lines = text.split("\n")
    prose = _outside_code(lines)
    found: list[tuple[str, list[str]]] = []
    for k, line in enumerate(lines):
        if prose[k] and re.match(heading, line):
            found.append((line, []))
        elif found:
            found[-1][1].append(line)
    return found


def _explained(lines: list[str]) -> str:
    """The first words of an explanation's lines as a card shows them: list marks and a
    leading "Explanation:" label are no words of it."""
    prose = _outside_code(lines)
    shown = [line if prose[k] else re.sub(r"^\s*(?:```|~~~).*", "", line)  # no fence, no info
             for k, line in enumerate(lines)]
    text = "\n".join(_LIST_MARK.sub("", line) for line in shown if line.strip())
    text = re.sub(r"^\W*(?:explanation|erklärung)\W*:?\W*", "", text.strip(), flags=re.I)
    return words(text)


# --- prorev.github.io: "## 12. …?" then choices after boxes, "☑ **right**  ☐ wrong" -----------

_BOX = "☐☑"


def boxes(path: Path, text: str) -> list[Expected]:
    """A heading "## N. prompt"; the choices are what follows each box (☐ ☑), on one line or
    several (``<br>``, ``+`` items); ☑ marks the right one. What follows the last line with a
    box, to the next heading, is the explanation."""
    found = []
    for head, lines in _sections(text, r"^##\s+\d+\.\s*\S"):
        prose = _outside_code(lines)
        boxed = [k for k, line in enumerate(lines) if prose[k] and any(b in line for b in _BOX)]
        if not boxed:
            continue
        boxed = [k for k in boxed if k - boxed[0] == boxed.index(k)]  # its first paragraph
        joined = " ".join(lines[k] for k in boxed)
        parts = re.split(f"([{_BOX}])", joined)
        choices, right = [], set()
        for k in range(1, len(parts) - 1, 2):
            if parts[k] == "☑":
                right.add(len(choices))
            choices.append(words(re.sub(r"<br\s*/?>|\+", " ", parts[k + 1])))
        prompt = re.sub(r"^##\s+\d+\.\s*", "", head)  # "## 9.What …" too
        found.append(Expected(words(prompt), choices, right,
                              _explained(lines[boxed[-1] + 1:])))
    return found


# --- CCDAK: "## Question N", lettered or numbered choices, the answer in <details> -----------

_LETTERED = re.compile(r"^\s*(?:[-*]\s+)?([A-J])[.)]\s+(.*)")
_NUMBERED = re.compile(r"^\s*(\d{1,2})\.\s+(.*)")


def details_answer(path: Path, text: str) -> list[Expected]:
    """"## Question N", its choices "- A. …" (or, where none is lettered, "1. …") above a
    <details> block that says the answer: "**Answer:** C" or "The correct answer is **2.
    …**" ("answers are **2. …** and **3. …**"); the rest of the block, above or below that
    line, is the explanation."""
    found = []
    for head, lines in _sections(text, r"^\s{0,3}##\s+Question\s+\d+"):
        top = next((k for k, line in enumerate(lines) if "<details" in line), None)
        if top is None:
            continue
        asked = lines[:top]
        lettered = [m for line in asked if (m := _LETTERED.match(line))]
        numbered = [m for line in asked if (m := _NUMBERED.match(line))]
        choices = lettered if len(lettered) >= 2 else numbered
        if len(choices) < 2:
            continue
        labels = [m[1].upper() for m in choices]
        inside = [line for line in lines[top + 1:] if "</details>" not in line]
        body = [line for line in inside if "<summary" not in line]
        at = next((k for k, line in enumerate(body) if re.search(
            r"\*\*(?:Correct )?Answers?:?\*\*|correct answers? (?:is|are)", line, re.I)), None)
        if at is None:
            continue
        line = body[at]
        said = re.search(r"\*\*(?:Correct )?Answers?:?\*\*:?\s*(.*)", line, re.I)
        if said:
            named = re.findall(r"\b([A-J]|\d{1,2})\b", said[1])
        else:
            named = re.findall(r"\*\*\s*(\d{1,2}|[A-J])\.", line)
        right = {labels.index(n) for n in named if n in labels}
        if not right:
            continue
        title = re.sub(r"^\s*##\s+Question\s+\d+\s*:?\s*", "", head)  # "## Question 1: Title"
        label = _LETTERED if len(lettered) >= 2 else _NUMBERED
        prompt = "\n".join([title, *(line for line in asked if not label.match(line))])
        found.append(Expected(words(prompt), [words(m[2]) for m in choices], right,
                              _explained([b for k, b in enumerate(body) if k != at])))
    return found


# --- pcep-quiz-questions: "# Frage N" (headings of level 1), "- [ ]"/"- [x]" ----------------

def frage_boxes(path: Path, text: str) -> list[Expected]:
    """A heading "# Frage N" (or "## N."), then the prompt's lines, then "- [ ]"/"- [x]"
    choices; no explanation."""
    found = []
    for _, lines in _sections(text, r"^#{1,6}\s+(?:Frage|Question)\s+\d+"):
        tasks = [(k, m) for k, line in enumerate(lines)
                 if (m := re.match(r"^\s*[-*]\s+\[([ xX])\]\s*(.*)", line))]
        if len(tasks) < 2:
            continue
        first = tasks[0][0]
        # "\`\`\`python" (escaped fences): the page shows the code, its fence is no word of it
        prompt = re.sub(r"(?:\\?`){3}\w*", " ", "\n".join(lines[:first]))
        after = [line for line in lines[tasks[-1][0] + 1:]
                 if line.strip() and not line.startswith("#")]
        found.append(Expected(words(prompt), [words(m[2]) for _, m in tasks],
                              {n for n, (_, m) in enumerate(tasks) if m[1] in "xX"},
                              _explained(after)))
    return found


# --- learn_cosmo-activities-web: "__Practice Question__", "A. …", "- B - Correct" ------------

def suggested_answers(path: Path, text: str) -> list[Expected]:
    """A "__Practice Question__" label, the question's text, lettered choices "A. …", then
    under "__Suggested Answers__" the letters again, the right ones "- B - Correct"."""
    if "__Type__" in text and "Multiple Choice" not in text.split("__Practice", 1)[0]:
        return []
    found = []
    for block in re.split(r"(?m)^__Practice Question__\s*$", text)[1:]:
        asked, _, answers = block.partition("__Suggested Answers__")
        lines = asked.split("\n")
        choices = [m for line in lines if (m := re.match(r"^([A-J])\.\s+(.*)", line))]
        prompt = "\n".join(line for line in lines if not re.match(r"^([A-J])\.\s+", line))
        marked = re.findall(r"(?m)^-\s+([A-J])\s*(-\s*Correct)?", answers.split("__", 1)[0])
        right = {k for k, (_, c) in enumerate(marked) if c}
        if len(choices) >= 2 and right:
            found.append(Expected(words(prompt), [words(m[2]) for m in choices], right, ""))
    return found
