"""Markdown with lettered choices and an answer line (the other shape exam-prep
repositories write) -> questions. markdown.py hands a file here when it holds no
``- [ ]`` lists::

    ### 12. Which GPU first had Tensor Cores?      <- a heading, or a numbered line
    A. Pascal                                       <- "A." "A)" "a)" "(A)" "- A." lines
    B. Volta
    **Answer: B**                                   <- "Answer: B", "Correct answer: B, D"
    Volta (2017) brought them.                      <- the explanation, up to the next one

The answer may instead be the first line inside a ``<details>`` block (``<summary>``
and all), as "B", "B. Volta" or "Answer: B"; the rest of the block is the explanation.
Line-based: every line of a question is kept as written, and a question with no answer
line, or one that names a letter it has no choice for, is reported at its line.
"""

from __future__ import annotations

import re

from nca_anki.diagnostics import Diagnostic, error
from nca_anki.importing.bank import HRULE_RE, NUMBERING_RE, Choice, Item

LETTERS = "ABCDEFGHIJ"
_CHOICE_RE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?\(?(?P<letter>[A-Ja-j])(?:[.)]|\)|:)"
                        r"(?:\*\*|__)?\s+(?P<text>\S(?:.*\S)?)\s*$")
# The word for "answer" (and "correct answer") in the languages exam-prep repositories
# are translated into: German, Spanish, Portuguese, French, Italian, Dutch, Polish,
# Turkish, Indonesian, Vietnamese, Russian, Ukrainian, Chinese, Japanese, Korean, Arabic.
_ANSWER_WORDS = (r"(?:correct\s+|right\s+|richtige\s+|korrekte\s+)?(?:answers?|solution|"
                 r"antwort(?:en)?|l[öo]sung|respuestas?(?:\s+correctas?)?|respostas?(?:\s+corretas?)?|"
                 r"(?:bonne\s+)?r[ée]ponses?(?:\s+correctes?)?|solution|risposta(?:\s+corretta)?|"
                 r"antwoord|odpowied[źz]|cevap|jawaban|đáp án|ответ|відповідь|答案|正解|答え|정답|"
                 r"الإجابة)")
# "Answer: B", "Correct answer: A, C", "Correct Answer: AB", "Antwort: D", "答案：B"
_ANSWER_RE = re.compile(r"^(?:[-*+>]\s+)?" + _ANSWER_WORDS + r"(?:\s+is)?\s*[:：=-]\s*"
                        r"(?:option\s+|choice\s+)?\(?(?P<letters>[A-J](?:\s*(?:,|&|/|\band\b)?"
                        r"\s*[A-J])*)\)?(?=$|[\s.):,;—–-])[\s.):,;—–-]*(?P<rest>.*)$", re.I)
# "B", "b.", "(B) Volta", "A, C —": a letter then punctuation ("A GPU is …" is no answer).
_LETTER_FIRST_RE = re.compile(r"^\(?(?P<letters>[A-Ja-j](?:\s*(?:,|&)\s*[A-Ja-j])*)"
                              r"(?:$|(?:\)|[.:—–-])(?:\s+|$))(?P<rest>.*)$")
# Its text without the closing "#"s: _question takes them off (see markdown.py's).
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*)$")
_NUMBERED_RE = re.compile(r"^\s{0,3}(?:\*\*|__)?(?:Q(?:uestion)?\s*)?#?\d{1,4}\s*[.):]\s+"
                          r"(?:\*\*|__)?(?P<text>\S(?:.*\S)?)\s*$", re.I)
# What a <summary> says: a line of tags with only these words is structure, not text.
_SUMMARY_WORDS = frozenset({"", "answer", "answers", "show answer", "show the answer",
                            "reveal answer", "solution", "show solution", "click to expand",
                            "click here", "explanation", "correct answer", "show", "antwort",
                            "lösung", "respuesta", "solución", "resposta", "réponse",
                            "risposta", "antwoord", "odpowiedź", "cevap", "jawaban", "ответ",
                            "відповідь", "答案", "正解", "答え", "정답", "الإجابة"})


def _plain(line: str) -> str:
    """A line without heading marks, emphasis marks and HTML tags, for matching."""
    text = re.sub(r"<[^>]+>", "", line).replace("**", "").replace("__", "").strip()
    return re.sub(r"^#{1,6}\s+", "", text)


def _is_tag_line(line: str) -> bool:
    """``<details><summary><b>Answer</b></summary>``, ``<p>``, ``</details>``: a line of
    HTML tags around nothing but a summary's word."""
    return "<" in line and re.sub(r"<[^>]+>|[*_:]", "", line).strip().casefold() \
        in _SUMMARY_WORDS


def has_lettered(text: str) -> bool:
    """Whether ``text`` holds at least one lettered question with an answer line."""
    lines = text.split("\n")
    return any(_ANSWER_RE.match(_plain(line)) for line in lines) and sum(
        1 for line in lines if _CHOICE_RE.match(line)) >= 2


def read(text: str, path: str, start_lines: set[int] | None = None
         ) -> tuple[list[Item], list[Diagnostic]]:
    lines = text.split("\n")
    starts = [k for k, line in enumerate(lines)
              if (_HEADING_RE.match(line) or (_NUMBERED_RE.match(line)
                                              and not _CHOICE_RE.match(line)))
              and not _ANSWER_RE.match(_plain(line))]  # "#### Answer: D" ends no question
    items: list[Item] = []
    problems: list[Diagnostic] = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        block = lines[start:end]
        if not any(_CHOICE_RE.match(line) for line in block):
            continue  # a heading with no choices under it: a title, an introduction
        item, problem = _question(block, start, path)
        if item is not None:
            items.append(item)
        if problem is not None:
            problems.append(problem)
    return items, problems


def _question(block: list[str], start: int, path: str) -> tuple[Item | None, Diagnostic | None]:
    heading = _HEADING_RE.match(block[0])
    head = heading or _NUMBERED_RE.match(block[0])
    assert head is not None
    text = head.group("text").rstrip().rstrip("#").rstrip() if heading else head.group("text")
    first = NUMBERING_RE.sub("", _plain(text), count=1)
    k = 1
    prompt = [first]
    while k < len(block) and not _CHOICE_RE.match(block[k]):
        prompt.append(block[k])
        k += 1
    choices: list[list[str]] = []
    letters: list[str] = []
    answer = ""
    rest: list[str] = []
    while k < len(block):
        line = block[k]
        plain = _plain(line)
        choice = _CHOICE_RE.match(line)
        found = _ANSWER_RE.match(plain)
        if found and not answer:
            answer = found.group("letters")
            if found.group("rest").strip():
                rest.append(found.group("rest").strip())
            k += 1
            break
        if _is_tag_line(line):  # <details><summary>Answer</summary>
            k += 1
            answer, more = _from_details(block, k)
            if answer:
                k = more
                break
            continue
        if choice and len(letters) < len(LETTERS) and \
                choice.group("letter").upper() == LETTERS[len(letters)]:
            letters.append(choice.group("letter").upper())
            choices.append([choice.group("text")])
        elif choices and line.strip():
            choices[-1].append(line.strip() if not line.startswith("    ") else line)
        k += 1
    rest += [text for text in block[k:] if not _is_tag_line(text) and not HRULE_RE.match(text)]
    at = start + 1
    if not answer:
        return None, error("E703", path, at, "a question with lettered choices but no answer "
                           "line (\"Answer: B\") under them; not converted")
    picked = {a.upper() for a in re.findall(r"[A-Ja-j]", answer)}
    if not picked <= set(letters):
        return None, error("E703", path, at, f"the answer {answer!r} names a letter none of "
                           f"the {len(letters)} choices has; not converted")
    explanation = "\n".join(rest).strip()
    explanation = re.sub(r"^(?:\*\*|__)?explanation(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*", "",
                         explanation, flags=re.I).strip()
    return Item(prompt="\n".join(prompt).strip(), explanation=explanation, path=path, line=at,
                choices=tuple(Choice("\n".join(text).strip(), letter in picked)
                              for letter, text in zip(letters, choices))), None


def _from_details(block: list[str], k: int) -> tuple[str, int]:
    """The answer written first inside a <details> block that starts at line ``k``, and the
    line after that answer; ("", k) if the block does not start with one."""
    while k < len(block) and (not block[k].strip() or _is_tag_line(block[k])):
        k += 1
    if k >= len(block):
        return "", k
    plain = _plain(block[k])
    found = _ANSWER_RE.match(plain) or _LETTER_FIRST_RE.match(plain)
    if not found:
        return "", k
    rest = found.group("rest").strip()
    if rest:
        block[k] = rest
        return found.group("letters"), k
    return found.group("letters"), k + 1
