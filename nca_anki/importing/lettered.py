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

import difflib
import re
from dataclasses import dataclass
from typing import NamedTuple

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing import answer_key, cues, page
from nca_anki.importing.bank import HRULE_RE, NUMBERING_RE, Choice, Item

LETTERS = "ABCDEFGHIJ"
# "A. x", "- A) x", "(A) x", "- A: x"; as editors that write full-width text write them:
# "–A）x", "- A ) x"; and "-A x" (a capital letter right after the dash).
_CHOICE_RE = re.compile(r"^\s*(?:[-*+]\s+|[–—•]\s*|-(?=[A-J]\s))?(?:\*\*|__)?\(?"
                        r"(?P<letter>[A-Ja-j])(?:(?:[.):]|\s\))(?:\*\*|__)?\s+"
                        r"|\s?[）．](?:\*\*|__)?\s*|(?<=-[A-J])\s+)"
                        r"(?P<text>\S(?:.*\S)?)\s*$")
# An answer line ("Answer: B"), its letters, an explanation's label: see cues.py.
_ANSWER_WORDS = cues.ANSWER_WORDS
# Its text without the closing "#"s: _question takes them off (see markdown.py's).
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*)$")
# "12. Which …", "**Q3.** What …": its text keeps the emphasis it opens (_header unwraps it);
# also as a bulleted list's item ("* **Q3:** What …", its choices on the item's next lines).
_NUMBERED_RE = re.compile(r"^\s{0,3}(?:[-*+][ \t]+)?(?:\*\*|__)?(?:Q(?:uestion)?\s*)?#?"
                          r"(?P<number>\d{1,4})\s*"
                          r"(?:[.):](?:\*\*|__)?\s+|[。．]\s*)(?P<text>\S(?:.*\S)?)\s*$", re.I)
# A header whose numbering is damaged: "9 What …", "9.What", "9 - What", "Q9 What", "**9** What".
_LOOSE_RE = re.compile(r"^\s{0,3}(?:\*\*|__)?(?:Q(?:uestion)?\s*)?#?(?P<number>\d{1,4})"
                       r"(?:\*\*|__)?(?:[ \t]*[-–—.:),。．]+[ \t]*|[ \t]+)"
                       r"(?P<text>(?:\\?\*\\?\*|__)?[^\W\d_`\"'(¿¡].*|[`\"'(¿¡].*)$", re.I)
# The HTML elements quiz repositories write around their structure (<details>, <summary>,
# <p>, <b>, <br>, an <a name> anchor). Only these are read as tags, and only to find the
# structure: anything else that looks like one ("std::vector<int>", "<pod-name>",
# "kernel<<<1, 1>>>") is text, and every text is taken from the line as written.
_STRUCTURE_TAGS = (r"(?:a|b|strong|i|em|u|s|p|br|hr|div|span|details|summary|h[1-6]|center|"
                   r"font|small|big|code|kbd|tt|mark|sup|sub|blockquote|section)")
_TAG_RE = re.compile(r"</?" + _STRUCTURE_TAGS + r"(?:\s[^<>]*)?/?>", re.I)
# Emphasis marks, escaped ones ("\\*\\*", an editor's) and a lone "_" or "*" around words.
_MARKUP_RE = re.compile(_TAG_RE.pattern + r"|\*\*|__|\\[*_]|(?<!\w)_|_(?!\w)", re.I)
# What a <summary> says: a line of tags with only these words is structure, not text.
_SUMMARY_WORDS = frozenset({"", "answer", "answers", "show answer", "show the answer",
                            "reveal answer", "solution", "show solution", "click to expand",
                            "click here", "explanation", "correct answer", "show", "antwort",
                            "lösung", "respuesta", "solución", "resposta", "réponse",
                            "risposta", "antwoord", "odpowiedź", "cevap", "jawaban", "ответ",
                            "відповідь", "答案", "正解", "答え", "정답", "الإجابة"})


def _plain(line: str) -> str:
    """A line without heading marks, emphasis marks and structure tags, for matching."""
    return _plain_at(line)[0]


def _plain_at(line: str) -> tuple[str, list[int]]:
    """``_plain(line)``, and where each of its characters is in ``line``: what follows a
    match is then taken from the line as written."""
    pieces, places, at = [], list[int](), 0
    for markup in _MARKUP_RE.finditer(line):
        pieces.append(line[at:markup.start()])
        places.extend(range(at, markup.start()))
        at = markup.end()
    pieces.append(line[at:])
    places.extend(range(at, len(line)))
    text = "".join(pieces)
    lead = re.match(r"\s*(?:#{1,6}\s+)?", text)
    start = lead.end() if lead else 0
    text = text[start:].rstrip()
    return text, places[start:start + len(text)]


def _written_from(line: str, plain: str, places: list[int], at: int) -> str:
    """What follows ``plain[at:]`` in ``line`` as written (tags, code and all), without the
    emphasis or tag the structure before it opened."""
    return _unwrapped(line[places[at]:]) if at < len(plain) else ""


def _outside_code(text: str) -> str:
    """``text`` without its code spans (a run of backticks to the next run as long), found
    in one pass."""
    runs = [(m.start(), m.end()) for m in re.finditer(r"`+", text)]
    later: dict[int, list[int]] = {}  # a run's length -> the runs of that length, in order
    for k, (start, end) in enumerate(runs):
        later.setdefault(end - start, []).append(k)
    seen = dict.fromkeys(later, 0)
    kept, at, k = [], 0, 0
    while k < len(runs):
        length = runs[k][1] - runs[k][0]
        same = later[length]
        while seen[length] < len(same) and same[seen[length]] <= k:
            seen[length] += 1
        if seen[length] < len(same):  # closed by the next run as long
            close = same[seen[length]]
            kept.append(text[at:runs[k][0]])
            at = runs[close][1]
            k = close + 1
        else:
            k += 1
    kept.append(text[at:])
    return "".join(kept)


_OPEN_TAG_RE = re.compile(r"^<(" + _STRUCTURE_TAGS + r")(?:\s[^<>]*)?>", re.I)
_CLOSE_TAG_RE = re.compile(r"</(" + _STRUCTURE_TAGS + r")>$", re.I)
_LEFT_OPEN_RE = re.compile(r"^</" + _STRUCTURE_TAGS + r">\s*", re.I)


def _unwrapped(text: str) -> str:
    """``text`` without the emphasis ("**…**") or tag ("<b>…</b>") that wraps all of it, or
    that something taken off before it opened (a "**" or "</b>" left without its pair)."""
    text = text.strip()
    while True:
        before = text
        for mark in ("**", "__"):
            count = _outside_code(text).count(mark)
            if count == 2 and text.startswith(mark) and text.endswith(mark) and len(text) > 4:
                text = text[2:-2].strip()
            elif count % 2 and text.endswith(mark):
                text = text[:-2].rstrip()
            elif count % 2 and text.startswith(mark):
                text = text[2:].lstrip()
        text = _LEFT_OPEN_RE.sub("", text)  # "</b> What": what closed the numbering
        opening, closing = _OPEN_TAG_RE.match(text), _CLOSE_TAG_RE.search(text)
        if opening and closing and opening[1].lower() == closing[1].lower():
            text = text[opening.end():closing.start()].strip()
        elif opening and f"</{opening[1].lower()}" not in text.lower():
            text = text[opening.end():].lstrip()
        elif closing and f"<{closing[1].lower()}" not in text[:closing.start()].lower():
            text = text[:closing.start()].rstrip()
        if text == before:
            return text


def _without_summary(line: str) -> str:
    """``line`` without its ``<summary>…</summary>`` elements, whatever they say (a
    collapsible block's label: "Answer", "Answear", "Click me"), found in one pass."""
    low = line.lower()
    if "<summary" not in low:
        return line
    kept, at = [], 0
    while True:
        opening = low.find("<summary", at)
        closing = low.find("</summary>", opening) if opening >= 0 else -1
        if closing < 0:
            break
        kept.append(line[at:opening])
        at = closing + len("</summary>")
    kept.append(line[at:])
    return "".join(kept)


_DETAILS_RE = re.compile(r"<details\b[^<>]*>", re.I)


def _is_tag_line(line: str) -> bool:
    """``<details><summary><b>Answer</b></summary>``, ``<p>``, ``</details>``, a comment: a
    line of structure tags around nothing but a summary (whatever its words)."""
    stripped = line.strip()
    if stripped.startswith("<!--") and stripped.endswith("-->"):
        return True
    if "<" not in line:
        return False
    bare = _without_summary(line)
    if bare != line and not re.sub(r"[*_:\s]", "", _TAG_RE.sub("", bare)):
        return True
    return re.sub(r"[*_:]", "", _TAG_RE.sub("", line)).strip().casefold() in _SUMMARY_WORDS


class _Tree(NamedTuple):
    """For each line of a text, as the page shows it (page.py's blocks): whether it is
    code (page.code_lines), whether an ATX heading ("## …") is written there, whether it
    is inside a ``<details>`` block (see _details_lines), and the first line of the
    paragraph it is in (-1 if none): lines of one paragraph are one text on the page."""

    code: list[bool]
    heading: list[bool]
    details: list[bool]
    paragraph: list[int]


def _tree_lines(text: str) -> _Tree:
    code = page.code_lines(text)
    heading = [False] * len(code)
    paragraph = [-1] * len(code)
    for block in page.blocks(text):
        if block.kind == "heading" and not block.setext:
            heading[block.first - 1] = True
        elif block.kind == "paragraph":
            paragraph[block.first - 1:block.last] = [block.first] * (block.last - block.first + 1)
    return _Tree(code, heading, _details_lines(text.split("\n"), code, heading), paragraph)


def _details_lines(lines: list[str], code: list[bool], heading: list[bool]) -> list[bool]:
    """Whether each line is inside a ``<details>`` block, after its opening line up to
    its ``</details>``: what the block holds is its answer or explanation, never a
    question's choices. A block not closed before the next heading or block holds nothing;
    one still open at the file's end holds the rest, as the page shows it.
    Tags in code (a code block, or a code span: "`<details>`") are text."""
    inside = [False] * len(lines)
    opened = -1
    for k, line in enumerate(lines):
        if code[k] or "<" not in line and not heading[k]:
            continue
        low = _outside_code(line).lower() if "`" in line else line.lower()
        if opened >= 0 and "</details>" in low:
            inside[opened + 1:k + 1] = [True] * (k - opened)
            opened = -1
        elif opened >= 0 and heading[k]:
            opened = -1
        if _DETAILS_RE.search(low) and "</details>" not in low[low.rfind("<details"):]:
            opened = k
    if opened >= 0:  # left open at the file's end: the page folds the rest into it
        inside[opened + 1:] = [True] * (len(lines) - opened - 1)
    return inside


def has_lettered(text: str, key: answer_key.Key | None = None) -> bool:
    """Whether ``text`` holds at least one lettered question, outside code: choices with an
    answer line, a choice in bold (see _bold_answer), feedback sentences that name the
    right one ("B is correct because …"), the file's answer ``key``, or, answered by none
    of these, choices "A." and "B." right under text that asks (a question left without
    its answer is then said at its line, not lost as text)."""
    code = page.code_lines(text)  # code is never structure
    lines, origin = _inline_split(_numbered_as_lettered(_texts_as_lettered(text.split("\n"), code),
                                                        code), code)
    outside = [line for line, at in zip(lines, origin) if not code[at - 1]]
    choices = [found for found in map(_CHOICE_RE.match, outside) if found]
    if len(choices) < 2:
        return False
    plain = [_plain(line) for line in outside]
    return key is not None or any(cues.answer_line(line) or cues.feedback(line)
                                  or (_marked_letter(line) or ("", False))[1]  # "- B - Correct"
                                  for line in plain) \
        or any(_marked(c.group("text")) or cues.choice_mark(c.group("text"))[1]
               for c in choices) or _asks_above_choices(plain)


def unanswered(text: str, path: str) -> list[Diagnostic]:
    """What is said of a file that has_lettered finds no question in though it holds
    lettered choices ("a) …" right above "b) …", outside code): where the first are, how
    many such lists there are, and that nothing says which choice is right (E703)."""
    found = _choice_lists(text)
    if found is None:
        return []
    line, many = found
    return [error("E703", path, line, f"{many} but no answer line (\"Answer: B\"), bold "
                  "choice or answer key: no question was read; mark each right choice")]


def unheaded(text: str, path: str) -> list[Diagnostic]:
    """What is said of a file whose lettered choices have an answer but that read finds
    no question in: no header is over them (E702, at the first choices)."""
    found = _choice_lists(text)
    if found is None:
        return []
    line, many = found
    return [error("E702", path, line, f"{many} and their answers, but no question's header "
                  "(\"1. Which …?\", a heading) over them: no question was read; number each")]


def _choice_lists(text: str) -> tuple[int, str] | None:
    """Where the first lettered choices outside code are ("a) …" right above "b) …"), and
    how many such lists there are, in words; None if there are none."""
    code = page.code_lines(text)
    lines = text.split("\n")
    shown = [k for k, line in enumerate(lines) if line.strip() and not code[k]]
    firsts = [k for k, nxt in zip(shown, shown[1:])
              if _starts_choices(lines[k], lines[nxt])]
    if not firsts:
        return None
    many = f"{len(firsts)} lists of lettered choices (the first here" if len(firsts) > 1 \
        else "lettered choices (here"
    return firsts[0] + 1, f"{many}: {clip(lines[firsts[0]], 30)!r})"


def _starts_choices(line: str, nxt: str) -> bool:
    a, b = _CHOICE_RE.match(line), _CHOICE_RE.match(nxt)
    return bool(a and b and a["letter"] in "Aa" and b["letter"] in "Bb")


def _asks_above_choices(plain: list[str]) -> bool:
    """Whether a line that asks ("…?", "…:") is followed, blank lines aside, by a choice
    "A." and then a choice "B."."""
    shown = [line for line in plain if line.strip()]
    for above, first, second in zip(shown, shown[1:], shown[2:]):
        a, b = _CHOICE_RE.match(first), _CHOICE_RE.match(second)
        asks = above.rstrip(" *_").endswith(("?", "？", ":", "："))
        if a and b and a["letter"] in "Aa" and b["letter"] in "Bb" and asks and \
                not _CHOICE_RE.match(above):
            return True
    return False


# A choice numbered "1." "1)" "1:" or "(1)", at the margin or indented, as a list's item
# ("- 1: …") or not, its bold opened before its number or not ("**2) …**").
_ORDINAL_RE = re.compile(r"^(?P<lead>[ \t]*(?:[-*+][ \t]+)?)(?P<bold>\*\*|__)?"
                         r"(?:\((?P<paren>[1-9]\d?)\)|(?P<number>[1-9]\d?)(?P<mark>[.):]))"
                         r"(?=[ \t]+\S)")


class _Ordinal(NamedTuple):
    shape: str  # its indentation, list mark and way of numbering: "- 1:" and "- 2:" agree
    number: int
    at: tuple[int, int]  # where its number is in the line


def _ordinal(line: str) -> _Ordinal | None:
    found = _ORDINAL_RE.match(line)
    if found is None:
        return None
    group = "paren" if found["paren"] else "number"
    return _Ordinal(found["lead"] + ("()" if found["paren"] else found["mark"]),
                    int(found[group]), found.span(group))


def _numbered_as_lettered(lines: list[str], code: list[bool]) -> list[str]:
    """``lines`` with each question's choices numbered 1 to n ("1." "1)" "1:" "(1)", one a
    line, as a list's items or not) written as lettered ones ("A." …) when an answer line
    or sentence under them, before the next heading or list, names them by number ("The
    correct answer is **2. …**", "##### Answer: 1, 3"), and its numbers as their letters;
    or when some of them, not all, are in bold (the right ones, as the page shows them).
    Line for line; each line is looked at a bounded number of times."""
    if not any(_ORDINAL_RE.match(line) for line in lines):
        return lines
    out = list(lines)
    # The sections between headings; "##### Answer: 4" is an answer line, not a section's.
    heading = [not code[k] and bool(_HEADING_RE.match(line)) and not cues.named_numbers(line)
               and not cues.answer_line(_plain(line)) for k, line in enumerate(lines)]
    heads = [k for k, head in enumerate(heading) if head]
    # Code, and what a <details> block holds (an answer, an explanation: never choices).
    inside = _details_lines(lines, code, heading)
    for start, end in zip([0, *[h + 1 for h in heads]], [*heads, len(out)]):
        k = start
        while k < end:
            k = k + 1 if inside[k] else _letter_numbered(out, code, k, end)
    return out


# "**Réponse 4**." — an answer's label and its number in bold, no colon between.
_BARE_ANSWER_RE = re.compile(r"^(?P<open>\*\*|__)(?P<word>" + cues.ANSWER_WORDS
                             + r")\s+(?=(?:[1-9]|[A-J])\.?(?P=open))", re.I)
# "**Réponse : 2**. Because …": the label and number in bold, other words after it.
_BOLD_ANSWER_ONLY_RE = re.compile(r"^(\*\*|__)(?P<answer>[^*_]+)\1\.?\s+\S")


# "1.  1.  Paris": a numbered list nested in the one item of another (a converter's).
_NESTED_FIRST_RE = re.compile(r"^(?P<outer>[1-9]\.[ \t]+)(?=1[.)][ \t]+\S)")


def _unnested(line: str) -> str:
    """``line`` without the outer item's number when a nested list opens in it ("1.  1.
    Paris" -> "    1.  Paris", its width kept: the nested items line up under it)."""
    found = _NESTED_FIRST_RE.match(line)
    return line if found is None else " " * found.end() + line[found.end():]


def _texts_as_lettered(lines: list[str], code: list[bool]) -> list[str]:
    """``lines`` where an answer line gives the right choice by its words ("Correcta:
    Paris") under unlabelled choice lines, right under a numbered prompt: the choices
    lettered "A." "B." … and the answer line "Answer: B", in place (the lines stay where
    they are)."""
    out = [line if c else _unnested(_BARE_ANSWER_RE.sub(r"\g<open>\g<word>: ", line))
           for line, c in zip(lines, code)]
    for k, line in enumerate(out):
        said = None if code[k] else cues.answer_text(_plain(line))
        if said is not None:
            _letter_texts(out, code, k, said)
    return out


_MOST_TEXT_CHOICES = 10  # looked back over at most so many lines: linear in the input


def _letter_texts(out: list[str], code: list[bool], k: int, said: str) -> None:
    """_texts_as_lettered's work on the answer line ``k`` that says ``said``."""
    rows: list[int] = []
    j = k - 1
    while j >= 0 and not code[j] and not _NUMBERED_RE.match(out[j]) and \
            len(rows) <= _MOST_TEXT_CHOICES:
        if _plain(out[j]).strip():
            rows.append(j)
        j -= 1
    if j < 0 or code[j] or not _NUMBERED_RE.match(out[j]) or not 2 <= len(rows) <= 10 or \
            any(_CHOICE_RE.match(out[r]) or _is_structure(out[r]) for r in rows):
        return
    rows.reverse()
    same = [n for n, r in enumerate(rows) if _same_words(_plain(out[r]), said)]
    if len(same) != 1:
        return
    for n, r in enumerate(rows):
        out[r] = f"{LETTERS[n]}. {out[r].strip()}"
    out[k] = f"Answer: {LETTERS[same[0]]}"


def _is_structure(line: str) -> bool:
    """Whether ``line`` is a heading, a rule or a list's item: no unlabelled choice."""
    return bool(re.match(r"^\s*(?:#{1,6}\s|[-*_]{3,}\s*$|[-*+]\s)", line))


def _same_words(one: str, other: str) -> bool:
    """Whether two texts say the same words, case, spacing and a closing stop aside."""
    def words(text: str) -> str:
        return " ".join(text.split()).rstrip(" .。").casefold()
    return words(one) == words(other) != ""


def _run(out: list[str], code: list[bool], k: int, end: int
         ) -> tuple[list[_Ordinal], list[int], int]:
    """The choices numbered 1, 2, … from line ``k`` (a "1"), each with its line, and the
    line after the last one's text (lines indented under a choice are its own); the run
    stops at any other numbered line or text back at the list's margin."""
    first = _ordinal(out[k])
    assert first is not None
    items, at = [first], [k]
    margin = len(first.shape) - len(first.shape.lstrip())
    j = k + 1
    while j < end:
        line = out[j]
        found = None if code[j] else _ordinal(line)
        if found and found.shape == first.shape and found.number == len(items) + 1:
            items.append(found)
            at.append(j)
        elif found or line.strip() and not code[j] and len(line) - len(line.lstrip()) <= margin:
            break
        j += 1
    return items, at, j


def _letter_numbered(out: list[str], code: list[bool], k: int, end: int) -> int:
    """_numbered_as_lettered's work on the run of numbered choices at line ``k``, if one
    starts there; the line to go on from."""
    found = None if code[k] else _ordinal(out[k])
    if found is None or found.number != 1:
        return k + 1
    items, at, k = _run(out, code, k, end)
    if len(items) < 2:
        return at[-1] + 1
    named: list[tuple[int, int]] = []
    j = k
    while j < end and not named:
        named = [] if code[j] else cues.named_numbers(out[j])
        if not named and not code[j] and (_ordinal(out[j]) or (0, 0))[1] == 1:
            break  # the next list: the answer is no further
        j += 1
    if named and any(int(out[j - 1][a:b]) > len(items) for a, b in named):
        return k
    bolds = [bool(_bold(out[line][item.at[1] + 1:].strip()) or _bold(out[line].lstrip(" \t-*+")))
             for item, line in zip(items, at)]
    if not named and (all(bolds) or not any(bolds) or not _asks_right_above(out, code, at[0])):
        return k
    for n, (item, line) in enumerate(zip(items, at)):
        a, b = item.at
        out[line] = out[line][:a] + LETTERS[n] + out[line][b:]
    if named:
        _letter_answer(out, j - 1, named)
    return k


def _asks_right_above(out: list[str], code: list[bool], k: int) -> bool:
    """Whether the text right above line ``k`` (blank lines aside) asks: a question's header,
    or a line that ends "?" or ":" (a list of steps after "in different ways," does not)."""
    j = k - 1
    while j >= 0 and not out[j].strip():
        j -= 1
    if j < 0 or code[j]:
        return False
    plain = _plain(out[j]).rstrip(" *_")
    return plain.endswith(("?", "？", ":", "：")) or bool(_HEADING_RE.match(out[j])) or \
        bool(_NUMBERED_RE.match(out[j]))


def _letter_answer(out: list[str], k: int, named: list[tuple[int, int]]) -> None:
    """The answer at line ``k`` with the numbers it names (at ``named``) as letters."""
    line = out[k]
    letters = [LETTERS[int(line[a:b]) - 1] for a, b in named]
    if len(named) > 1:  # "… are **2. x** and **3. y**": the choices' words, said again
        out[k] = f"Answer: {', '.join(letters)}"
        return
    for (a, b), letter in zip(reversed(named), reversed(letters)):
        line = line[:a] + letter + line[b:]
    out[k] = line


def _is_start(line: str, heading: bool) -> bool:
    """Whether ``line`` starts a question: a heading (as the page shows it: not in code or
    an HTML block), or a numbered line that is no choice."""
    return bool(heading or (_NUMBERED_RE.match(line)
                                            and not _CHOICE_RE.match(line))) \
        and not cues.answer_line(_plain(line)) \
        and not _only_label(_plain(line))  # nor do "#### Answer: D", "### Explanation:"


_BULLET_RE = re.compile(r"^\s{0,3}[-*+][ \t]+")
_WHOLE_BOLD_RE = re.compile(r"^\s*(\*\*|__)(?!\s)[^*_]+(?<!\s)\1\s*$")


def _label_starts(text: _Lines, strict: list[int]) -> list[int]:
    """The questions that start with no header but a line of their own, a paragraph
    alone, over their text and lettered choices and answer: a label ("__Practice
    Question__", "**Question 3**", see cues.question_label), or a prompt all in bold right
    above its choices ("**Which gas do plants take in?**"). The first such line after the
    last header is one, when choices and their answer follow before the next header."""
    found: list[int] = []
    later = iter([*strict, len(text.lines)])
    nxt = next(later)
    taken = -1  # the first choice of the last question found
    for k, line in enumerate(text.lines):
        while nxt <= k:
            nxt = next(later)
        if text.code[k] or not line.strip() or text.paragraph[k] != text.origin[k]:
            continue
        if _asking_item(text, k) and k + 1 < nxt and k + 1 > taken:
            found.append(k)  # "* What …?" over its "a) …" lines: answered or said (E703)
            taken = k + 1
            continue
        if k + 1 < len(text.lines) and text.lines[k + 1].strip():
            continue  # a paragraph of one line only
        first = text.next_first[k + 1] if k + 1 < len(text.lines) else len(text.lines)
        plain = _plain(line)
        if first <= taken or first >= nxt or not text.answered(k + 1, nxt) or \
                cues.answer_line(plain) or cues.answer_label(plain):
            continue
        j = k + 1  # the next line with text: blank lines after one paragraph each, linear
        while j < first and not text.lines[j].strip():
            j += 1
        right_above = j == first
        if cues.question_label(plain) or (right_above and _WHOLE_BOLD_RE.match(line)):
            found.append(k)
            taken = first
    return found


def _asking_item(text: _Lines, k: int) -> bool:
    """Whether line ``k`` is a bulleted item that asks ("* Which …?", "- Complete:") and
    whose paragraph goes on at once with lettered choices from "a)": a question, unnumbered."""
    return bool(_BULLET_RE.match(text.lines[k])) and k + 1 < len(text.lines) \
        and text.next_first[k + 1] == k + 1 and text.goes_on(k + 1) \
        and _plain(text.lines[k]).rstrip(" *_").endswith(("?", "？", ":", "："))


def _only_label(plain: str) -> bool:
    """Whether ``plain`` is an explanation's label and nothing more ("Explanation:")."""
    return bool(plain) and cues.explanation_label(plain) == len(plain)


def _number(line: str) -> int | None:
    """The number a question's header gives it ("### 12. Which", "Q3: What"), if any."""
    heading = _HEADING_RE.match(line)
    text = _TAG_RE.sub("", heading.group("text")) if heading else _BULLET_RE.sub("", line)
    loose = _NUMBERED_RE.match(text.strip()) or _LOOSE_RE.match(text.strip())
    return int(loose.group("number")) if loose and loose.group("number").isascii() else None


@dataclass(frozen=True)
class _Lines:
    """A file's lines, which are code, which are inside a ``<details>`` block, and, for
    each line, where the next first choice ("A. …") and the next answer line (or
    <details>) outside code are: found once, so that asking whether some lines hold a
    question's body costs nothing."""

    lines: list[str]
    code: list[bool]
    details: list[bool]
    next_first: list[int]
    next_answer: list[int]
    origin: list[int]  # each line's line in the input, 1-based (see _inline_split)

    heading: list[bool]  # an ATX heading is written on the line (the first of its pieces)
    paragraph: list[int]  # the first line (in the input) of the paragraph it is in, or -1

    @classmethod
    def of(cls, lines: list[str], origin: list[int] | None = None,
           tree: _Tree | None = None) -> _Lines:
        origin = origin or list(range(1, len(lines) + 1))
        tree = tree or _tree_lines("\n".join(lines))
        code = [tree.code[at - 1] for at in origin]
        details = [tree.details[at - 1] for at in origin]
        heading = [tree.heading[at - 1] and (k == 0 or origin[k - 1] != at)
                   for k, at in enumerate(origin)]
        paragraph = [tree.paragraph[at - 1] for at in origin]
        first, answer = [len(lines)] * (len(lines) + 1), [len(lines)] * (len(lines) + 1)
        for k in range(len(lines) - 1, -1, -1):
            first[k], answer[k] = first[k + 1], answer[k + 1]
            if code[k]:
                continue
            choice = None if details[k] else _CHOICE_RE.match(lines[k])
            if choice and choice.group("letter") in "Aa":
                first[k] = k
            elif cues.answer_line(_plain(lines[k])) or _opens_answer(lines[k]) or (
                    (_marked_letter(lines[k]) or ("", False))[1]):  # "- B - Correct"
                answer[k] = k
        return cls(lines, code, details, first, answer, origin, heading, paragraph)

    def at(self, k: int) -> int:
        """Line ``k``'s line in the input, 1-based."""
        return self.origin[k]

    def answered(self, start: int, end: int) -> bool:
        """Whether lines ``start`` to ``end`` hold lettered choices, from A, and an answer
        line (or a <details> block) under them: a question's body."""
        first = self.next_first[start]
        return first < end and self.next_answer[first + 1] < end

    def goes_on(self, k: int) -> bool:
        """Whether line ``k`` goes on the paragraph of the line above it (a line that the
        page joins to it with a space: "A. The moon is" / "made of rock")."""
        return k > 0 and self.paragraph[k] >= 0 and self.paragraph[k] == self.paragraph[k - 1] \
            and self.origin[k] != self.origin[k - 1]

    def is_choice(self, k: int) -> bool:
        return not self.code[k] and not self.details[k] and bool(_CHOICE_RE.match(self.lines[k]))


# An item of a list that repeats the choices' letters under them, the right ones marked:
# "- B - Correct", "- C ✅", "- A (correct)"; and the others bare: "- A".
_LETTER_ITEM_RE = re.compile(r"^\s*[-*+]\s+(?P<item>\(?[A-J]\)?[.):]?(?:[ \t]+\S.*)?)$")


def _marked_letter(line: str) -> tuple[str, bool] | None:
    """``line`` read as an item of a list of the choices' letters: its letter and whether
    a sign marks it right (see cues.choice_mark); None if it is no such item."""
    item = _LETTER_ITEM_RE.match(_plain(line))
    if item is None:
        return None
    text, right = cues.choice_mark(item["item"])
    letter = text.strip("().: \t")
    return (letter, bool(right)) if len(letter) == 1 else None


def _answer_at(text: _Lines, k: int, end: int, letters: list[str], plain: str,
               places: list[int]) -> tuple[_Answer | None, int]:
    """The answer written at line ``k`` (``plain`` is it without its emphasis, ``places``
    where its characters are): an answer line ("Answer: B"), the first line of a
    <details> block, or, under choices (``letters``), a list of their letters some marked
    right; and the line after it. (None, k + 1) for a label over such a list
    ("__Suggested Answers__") or a <details> block that opens with no answer, (None, k)
    if none of these."""
    found = cues.answer_line(plain)
    if found:
        return _Answer(found.group("letters"), _written_from(
            text.lines[k], plain, places, found.start("rest")), k), k + 1
    if _opens_answer(text.lines[k]):  # <details><summary>Answer</summary>
        answer, after = _from_details(text, k, end)
        return (answer, after) if answer else (None, k + 1)
    if letters and cues.answer_label(plain):
        return None, k + 1
    if letters and _marked_letter(text.lines[k]):
        return _letters_listed(text, k, end, letters)
    return None, k


def _letters_listed(text: _Lines, k: int, end: int, letters: list[str]
                    ) -> tuple[_Answer | None, int]:
    """The answer a list of the choices' letters from line ``k`` gives ("- A", "- B -
    Correct", … in their order, some marked right; or only the right ones, each marked),
    and the line after it; (None, k) if the lines there are no such list."""
    marks: list[tuple[str, bool]] = []
    j = k
    while j < end and len(marks) < len(letters) and not text.code[j]:
        found = _marked_letter(text.lines[j])
        if found is None or found[0] not in letters or marks and found[0] <= marks[-1][0]:
            break
        marks.append(found)
        j += 1
    # Every letter, in order, some marked; or only the right ones ("- B - Correct" alone).
    every = [letter for letter, _ in marks] == letters
    if not any(right for _, right in marks) or not every and not all(r for _, r in marks):
        return None, k
    return _Answer(", ".join(letter for letter, right in marks if right), "", k), j


def _opens_answer(line: str) -> bool:
    """Whether ``line`` may open a collapsible answer: a ``<details>`` or its summary."""
    return bool(_DETAILS_RE.search(line)) or _is_tag_line(line)


def _starts(text: _Lines, path: str, problems: list[Diagnostic]) -> list[tuple[int, bool]]:
    """Where each question starts, and whether it is read: its header, or a line whose
    numbering is damaged ("9 What …") but that the next number and a question's body
    under it show to be one (read with a warning, W707; out of sequence: an error, E702,
    at its line, never more of the question before it)."""
    lines, code = text.lines, text.code
    strict = [k for k, line in enumerate(lines) if not code[k] and _is_start(line, text.heading[k])]
    strict = sorted({*strict, *_label_starts(text, strict)})
    limits = iter([*strict[1:], len(lines)])
    found: list[tuple[int, bool]] = []
    last, number, body = -1, None, False  # the last start, its number, its choices seen
    following = {k: next(limits) for k in strict}
    nxt = strict[0] if strict else len(lines)
    for k, line in enumerate(lines):
        if k in following:
            given = _number(line)
            if last >= 0 and not body and number is not None and given != number + 1 \
                    and not text.heading[k]:
                continue  # "1. first step" in a numbered question's prompt: its text
            found.append((k, True))
            last, number, body, nxt = k, given, False, following[k]
            continue
        if code[k]:
            continue
        if text.is_choice(k):
            body = True
            continue
        loose = _LOOSE_RE.match(line)
        if not loose or (last >= 0 and not body and number is not None) \
                or cues.answer_line(_plain(line)) or not text.answered(k + 1, nxt):
            continue
        given = int(loose.group("number")) if loose.group("number").isascii() else -1
        expected = number + 1 if number is not None else 1
        shown = clip(line)
        if given == expected:
            problems.append(warning("W707", path, text.at(k), f"{shown!r} was read as question "
                                    f"{given}'s header, though its numbering is not "
                                    f"\"{given}. \"; write it so to be sure"))
        else:
            problems.append(error("E702", path, text.at(k), f"{shown!r} looks like a question's "
                                  f"header (choices and an answer follow), but its numbering "
                                  f"is damaged and {given} is not the next number "
                                  f"({expected}); not converted: write it as "
                                  f"\"{expected}. …\""))
        found.append((k, given == expected))
        last, number, body = k, given, False
    return found


def read(text: str, path: str, key: answer_key.Key | None = None
         ) -> tuple[list[Item], list[Diagnostic]]:
    """The lettered questions of ``text``; ``key``, the file's answer key (its lines
    already blank in ``text``), answers those that have no answer line."""
    tree = _tree_lines(text)
    lines, origin = _inline_split(_numbered_as_lettered(_texts_as_lettered(text.split("\n"),
                                                                          tree.code), tree.code),
                                  tree.code)
    whole = _Lines.of(lines, origin, tree)
    problems: list[Diagnostic] = []
    starts = _starts(whole, path, problems)
    # A numbered line with no choices under it is a list in the text, not a question;
    # unless choices and an answer are written on it in a way not read: then it is said.
    ends = [k for k, _ in starts[1:]] + [len(lines)]
    kept: list[tuple[int, bool]] = []
    sequenced: set[int] = set()  # numbered as questions, though no choices are under them
    for n, (k, ok) in enumerate(starts):
        if n == 0 or whole.heading[k] or not ok or any(
                whole.is_choice(j) for j in range(k + 1, ends[n])):
            kept.append((k, ok))
        elif kept and whole.next_first[kept[-1][0]] < k and n + 1 < len(starts) and \
                whole.next_first[ends[n]] < ends[n + 1] and \
                _in_sequence(lines, kept[-1][0], k, ends[n]):  # between two with choices
            kept.append((k, ok))
            sequenced.add(k)
        elif _INLINE_ANSWER_RE.search(lines[k]) and _unread_choices(lines[k]):
            kept.append((k, False))
            problems.append(error("E702", path, whole.at(k), f"{clip(lines[k])!r} holds a "
                                  "question's choices and answer on its line, not written "
                                  "as 'A) …' or one a line; not converted"))
    starts = kept
    spans = []
    for n, (start, ok) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        if ok and whole.next_first[start] < end:  # choices from "A." ("i." is a list's)
            spans.append((start, end))  # else refused above, or a title with no choices
        elif ok:
            problems += _from_b(whole, start, end, path) or \
                _without_choices(whole, start, end, path, start in sequenced)
    furniture = _furniture(whole, spans)
    items: list[Item] = []
    for start, end in spans:
        item, said = _question(whole, start, end, path, furniture, key)
        if item is not None:
            items.append(item)
        problems += said
    return items, _open_questions_summed(problems, path)


_OPEN_SAID = 3  # more open questions than this are said in one message


def _open_questions_summed(problems: list[Diagnostic], path: str) -> list[Diagnostic]:
    """``problems`` with the headings that ask but have no choices (W712, open questions:
    an interview page has hundreds) said once, at the first, when there are many."""
    open_ = [p for p in problems if p.code == "W712"]
    if len(open_) <= _OPEN_SAID:
        return problems
    said = warning("W712", path, open_[0].line, f"{len(open_)} headings that ask (this one, "
                   f"then lines {open_[1].line} … {open_[-1].line}) have no lettered choices "
                   "('A. …') or answer line under them: open questions, not converted")
    kept = [p for p in problems if p.code != "W712"]
    return _placed(kept, said)


def _placed(problems: list[Diagnostic], said: Diagnostic) -> list[Diagnostic]:
    """``problems`` with ``said`` among them in the order of their lines."""
    at = next((n for n, p in enumerate(problems) if p.line > said.line), len(problems))
    return [*problems[:at], said, *problems[at:]]


def _from_b(text: _Lines, start: int, end: int, path: str) -> list[Diagnostic]:
    """What is said of a question whose lettered choices start at "B." (its "A." written
    where it is not read as one: on the question's line, say): an error at its line."""
    first = next((j for j in range(start + 1, end) if text.is_choice(j)), end)
    found = _CHOICE_RE.match(text.lines[first]) if first < end else None
    if found is None or found["letter"] not in "Bb":
        return []  # no choices, or "i." "ii." (a list numbered in Roman)
    return [error("E702", path, text.at(start), f"the lettered choices under this question "
                  f"start at line {text.at(first)} with {clip(text.lines[first], 30)!r}: no "
                  "choice 'A.' is on a line of its own; not converted")]


def _in_sequence(lines: list[str], before: int, k: int, after: int) -> bool:
    """Whether the numbered line ``k``, with no choices under it, is a question all the
    same: numbered as the question before it (``before``) and the one after it
    (``after``) are, between their numbers ("13." "14." "15."); not a list in a prompt."""
    if before < 0 or after >= len(lines):
        return False
    numbers = [_number(lines[j]) or -9 for j in (before, k, after)]
    heads = [_NUMBERED_RE.match(lines[j]) for j in (before, k, after)]
    shapes = {re.sub(r"\d+", "#", head.string[:head.start("text")]) if head else None
              for head in heads}
    return numbers[0] + 1 == numbers[1] == numbers[2] - 1 > 0 and len(shapes) == 1 \
        and None not in shapes


def _level(line: str) -> int:
    """A heading's level, in a list's item too ("8. ### Why …" is at level 3)."""
    return len(_LEVEL_RE.match(line)["marks"])  # type: ignore[index]


_LEVEL_RE = re.compile(r"[ \t]*(?:\d{1,9}[.)][ \t]+|[-*+][ \t]+)?(?P<marks>#*)")


def _without_choices(text: _Lines, start: int, end: int, path: str, sequenced: bool = False
                     ) -> list[Diagnostic]:
    """What is said of a heading with no lettered choices under it (up to ``end``, the
    next question's start): nothing for a title or a section (a heading that does not
    ask, or one that deeper headings follow); else it is a question left out: with an
    answer line under it, an error (E702); asking ("…?") with none, a warning (W712, an
    open question, perhaps)."""
    line = text.lines[start]
    shown = clip(_header(line))
    if sequenced:
        return [error("E702", path, text.at(start), f"the question {shown!r}, numbered between "
                      "the questions around it, has no lettered choices ('A. …', one a line) "
                      "under it; not converted")]
    if not text.heading[start] or end < len(text.lines) and text.heading[end] and \
            _level(text.lines[end]) > _level(line):
        return []
    if _answer_within(text, start + 1, end):
        return [error("E702", path, text.at(start), f"the question {shown!r} has an answer "
                      "line but no lettered choices ('A. …', one a line) under it; not "
                      "converted")]
    if _plain(_header(line)).rstrip(" *_").endswith(("?", "？")):
        return [warning("W712", path, text.at(start), f"the question {shown!r} has no "
                        "lettered choices ('A. …') or answer line under it; not converted")]
    return []


def _answer_within(text: _Lines, start: int, end: int) -> bool:
    """Whether lines ``start`` to ``end`` hold an answer line or a collapsible answer (an
    HTML comment, "<!-- TOC_START -->", opens none)."""
    k = text.next_answer[start]
    while k < end and text.lines[k].strip().startswith("<!--"):
        k = text.next_answer[k + 1]
    return k < end


# A choice written on the question's line: " –B）按需实例", " (C) Rust", " - D) Go".
# A question's numbered line may hold them in small letters too ("3. Which? a) x **b) y**").
_INLINE_CHOICE_RE = re.compile(r"(?<=\s)(?:[-–—]\s*)?(?:\*\*|__)?\(?(?P<letter>[A-Ja-j])\s?[)）]")
# (A few marks before the word at most: a run of them is searched from one place only.)
_INLINE_ANSWER_RE = re.compile(r"\s(?=(?:\\?[*_][ \t]{0,3}){0,4}" + _ANSWER_WORDS
                               + r"[ \t]{0,3}[:：])", re.I)


def _inline_split(lines: list[str], code: list[bool]) -> tuple[list[str], list[int]]:
    """``lines`` with each line that holds a question's choices after its text ("16. Which?
    –A）x –B）y –C）z Answer: B") written as the page's reader takes it: one line for the
    question, one for each choice (from A, in order) and one for the answer line after
    them (unless its choices are written under it too: then "(A) and (B)" is its text);
    and, for each line, its line in the input (1-based)."""
    split: list[str] = []
    origin: list[int] = []
    for number, line in enumerate(lines, start=1):
        below = next((later for later in lines[number:number + 3] if later.strip()), "")
        cuts = [] if code[number - 1] or _CHOICE_RE.match(below) else _inline_cuts(line)
        pieces = [line[a:b].strip() for a, b in zip([0, *cuts], [*cuts, len(line)])]
        split += pieces if cuts else [line]
        origin += [number] * (len(pieces) if cuts else 1)
    return split, origin


_UNREAD_A_RE = re.compile(r"\s[-–—(]?\s*A\b")
_UNREAD_B_RE = re.compile(r"\s[-–—(]?\s*B\b")


def _unread_choices(line: str) -> bool:
    """Whether ``line`` holds choices A and B after its text, in a way not read as such
    ("-A x -B y")."""
    first = _UNREAD_A_RE.search(line)
    return first is not None and _UNREAD_B_RE.search(line, first.end()) is not None


def _inline_cuts(line: str) -> list[int]:
    """Where ``line`` is cut into its question, choices and answer (see _inline_split):
    nowhere unless it holds choices A and B, in order, after some text."""
    small = "a)" in line and "b)" in line and bool(_NUMBERED_RE.match(line))
    if not small and ("A" not in line or "B" not in line):
        return []
    letters = LETTERS.lower() if small else LETTERS
    cuts: list[int] = []
    for found in _INLINE_CHOICE_RE.finditer(line):
        if len(cuts) < len(letters) and found.group("letter") == letters[len(cuts)] and \
                found.start() > 0:
            cuts.append(found.start())
    if len(cuts) < 2:
        return []
    answer = _INLINE_ANSWER_RE.search(line, cuts[-1])
    return cuts + ([answer.start()] if answer else [])


# Month names, which vary in a page's timestamps as its numbers do.
_MONTHS_RE = re.compile(r"\b(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\b"
                        r"|[ap]\.m\.|[ap]m\b)\.?", re.I)


def _shape(line: str) -> str:
    """What a line says apart from its numbers and dates: the same for the lines a site
    repeats around every question ("Question #: 12", "Timestamp: Oct. 3, 2023")."""
    shape = _MONTHS_RE.sub("#", re.sub(r"\d+(?:[:.,]\d+)*", "#", _plain(line)))
    return " ".join(shape.casefold().split())


def _furniture(text: _Lines, spans: list[tuple[int, int]]) -> set[int]:
    """The lines (outside code, choices and answer lines) whose words, numbers and dates
    aside, are written in most of the file's questions: a site's page furniture around
    each question ("Question #: 1", "[All … Questions]", a timestamp, a "View on" link),
    not any question's text. Needs five questions or more to tell."""
    if len(spans) < 5:
        return set()
    places: dict[str, list[int]] = {}
    questions: dict[str, int] = {}  # a shape -> in how many questions it is written
    for start, end in spans:
        seen: set[str] = set()
        for k in range(start, end):
            if text.code[k] or text.is_choice(k):
                continue
            shape = _shape(text.lines[k])
            if shape and not HRULE_RE.match(text.lines[k]) and not cues.answer_line(
                    _plain(text.lines[k])):
                places.setdefault(shape, []).append(k)
                questions[shape] = questions.get(shape, 0) + (shape not in seen)
                seen.add(shape)
    return {k for shape, found in places.items() if 2 * questions[shape] > len(spans)
            for k in found}


# A number with its section's ("Question 7.4", "2.10."): all of it is the numbering.
_DOTTED_RE = re.compile(r"^(?:(?:Q|Question|Pregunta|Frage|Questão|Domanda|Soru|Вопрос|Питання)"
                        r"\s*#?\s*)?\d{1,4}(?:\.\d{1,4})+\.?(?:[:)]|(?=\s|$))\s*", re.I)


# A heading's number written against its first word: "6.以下…", "12.What", "7.（多选）…",
# "9.`len`…"; not a decimal ("2.0 release") nor an ellipsis ("1... and").
TIGHT_NUMBER_RE = re.compile(r"^\d{1,4}\.(?=[^\s\d.])")


def unnumbered(text: str) -> str:
    """``text`` without the number it opens with, written with a space after it or not."""
    return NUMBERING_RE.sub("", text, count=1) if NUMBERING_RE.match(text) else \
        TIGHT_NUMBER_RE.sub("", text, count=1)


def _header(line: str) -> str:
    """A question's header as its prompt's first line: without its heading marks, its
    numbering and the emphasis or tags around all of it; the rest as written."""
    heading = _HEADING_RE.match(line)
    if heading is None:
        numbered = _NUMBERED_RE.match(line) or _LOOSE_RE.match(line)
        shown = numbered.group("text") if numbered else \
            _BULLET_RE.sub("", line).strip()  # a label's line, or an item's ("* Which …?")
        return _breaks_as_spaces(_unwrapped(shown))
    text = re.sub(r"[ \t]+#+[ \t]*$", "", heading.group("text").rstrip())  # a closing "##"
    text = re.sub(r"^(?:<a\b[^<>]*>\s*</a>\s*)+", "", text.strip())  # an anchor to link to
    for opening in ("", "**", "__", "<b>", "<strong>"):
        if text.startswith(opening) and _DOTTED_RE.match(text[len(opening):]):
            text = _DOTTED_RE.sub("", text[len(opening):], count=1)  # "Question 7.4"
            break
        if text.startswith(opening):
            numbered = _NUMBERED_RE.match(text[len(opening):])
            if numbered or NUMBERING_RE.match(text[len(opening):]) or \
                    TIGHT_NUMBER_RE.match(text[len(opening):]):
                text = numbered.group("text") if numbered else unnumbered(text[len(opening):])
                break
    return _breaks_as_spaces(_unwrapped(text))


def _breaks_as_spaces(text: str) -> str:
    """A header's "<br>"s, outside its code, as the spaces they show as on one line."""
    if "<" not in text:
        return text
    pieces = re.split(r"(`+[^`]*`+)", text)  # code spans at the odd places
    return "".join(piece if k % 2 else re.sub(r"\s*<br\s*/?>\s*", " ", piece, flags=re.I)
                   for k, piece in enumerate(pieces))


@dataclass
class _Answer:
    """An answer as written: its letters, what follows them on its line (as written),
    the line it is at, and the explanation written above it (from its label on)."""

    letters: str
    more: str
    line: int
    above: tuple[str, ...] = ()


def _told_apart(text: _Lines, start: int, k: int, end: int, key: answer_key.Key | None
                ) -> tuple[_Answer | None, int]:
    """The answer of a question with no answer line, told apart from its choices: by the
    sentences of its feedback or explanation under them ("B is correct because …", "A is
    not correct …", see cues.feedback_answer), or by the file's answer key (its header's
    number); (None, k) if neither tells. With it, the line its explanation starts at."""
    label = next((j for j in range(start + 1, end) if not text.code[j]
                  and _only_label(_plain(text.lines[j]))), end)  # "## Feedback": no choices
    last = max((j for j in range(start, label) if text.is_choice(j)), default=start)
    after = [j for j in range(last + 1, end) if not text.code[j]]
    said = cues.feedback_answer([_plain(text.lines[j]) for j in after])
    if said:  # the section from its label or first such sentence on is the explanation
        boundary = next(j for j in after if cues.feedback(_plain(text.lines[j]).strip())
                        or _only_label(_plain(text.lines[j])))
        return _Answer(", ".join(sorted(said)), "", start), boundary
    number = answer_key.number(text.lines[start]) if key is not None else None
    entry = key.entries.get(number) if key is not None and number is not None else None
    if entry is None:
        return None, k
    # The paragraph apart under the choices is the explanation (no answer line parts them).
    return _Answer(entry.letters, entry.rest, start), next(
        (j for j in after if text.lines[j].strip() and _apart(text, j)), k)


def _question(text: _Lines, start: int, end: int, path: str, furniture: set[int],
              key: answer_key.Key | None = None) -> tuple[Item | None, list[Diagnostic]]:
    lines = text.lines
    k, early, body = start + 1, None, []
    while k < end and not text.is_choice(k):
        line_answer = None if text.code[k] else cues.answer_line(_plain(lines[k]))
        if line_answer:  # "Suggested Answer: A" above the choices: an answer line, no text
            early = _Answer(line_answer.group("letters"), "", k)
        else:
            body.append(k)
        k += 1
    aside: list[int] = []
    first = k
    letters, choices, found, k = _choices(text, k, end, aside)
    if found is None and early is None:  # no answer line: the right choices in bold?
        found, choices, k = _bold_answer(text, letters, choices, start, end)
        aside = [j for j in aside if j < k]  # below bold choices: their explanation
    if found is None and early is None:
        found, boundary = _told_apart(text, start, k, end, key)
        if found is not None and boundary < k:  # the choices again, up to the explanation
            aside = []
            letters, choices, _, k = _choices(text, first, boundary, aside)
    body += aside
    said: list[Diagnostic] = []
    titled = _is_title(text, start, body)  # the question starts under the file's title
    at = text.at(next(k for k in body if text.lines[k].strip()) if titled else start)
    if found is None or early is not None and _picked(found.letters) == _picked(
            early.letters):
        found = found or early
    elif early is not None:
        said.append(_disagree(path, text, early, found))
    if found is None:
        rest, more_said = _rest(text, k, end, path, furniture)
        where = "" if not any(_opens_answer(lines[j]) for j in range(k, end)) else (
            " (a <details> block under them names no choice's letter first)")
        if key is not None and not where:
            return None, [answer_key.missing(key, answer_key.number(lines[start]), path, at),
                          *said, *more_said]
        return None, [error("E703", path, at, "a question with lettered choices but no answer "
                            f"line (\"Answer: B\") under them{where}; not converted"),
                      *said, *more_said]
    k = _listed_after(text, k, end, found, letters, choices)
    k = _restated_after(text, k, end, found, letters, choices, path, said)
    end, said_after = _item_end(text, found, k, end, path, furniture)
    said += said_after
    rest, more_said = _rest(text, k, end, path, furniture)
    picked, more = _answer_of(text, found, letters, choices, path, said,
                              followed=any(line.strip() for line in rest))
    said += more_said
    if not picked <= set(letters):
        return None, [error("E703", path, at, f"the answer {found.letters!r} names a letter "
                            f"none of the {len(letters)} choices has; not converted"), *said]
    return Item(prompt=_prompt(text, start, body, furniture), path=path, line=at,
                explanation=_explanation([*found.above, *([more] if more else []), *rest]),
                choices=tuple(Choice("\n".join(text).strip(), letter in picked)
                              for letter, text in zip(letters, choices))), said


def _bold(first: str) -> str:
    """A choice's text without the bold around all of it ("**Packets**", "<b>Packets</b>",
    or "Packets**" when the bold opened before its letter: "**B. Packets**"); "" if it is
    not all in bold."""
    plain = first.strip()
    for mark in ("**", "__"):
        count = _outside_code(plain).count(mark)
        if count == 1 and plain.endswith(mark) and len(plain) > 2:
            return plain[:-2].rstrip()
        if count == 2 and plain.startswith(mark) and plain.endswith(mark) and len(plain) > 4:
            return plain[2:-2].strip()
    tagged = re.fullmatch(r"<(b|strong)>([^<>]+)</\1>", plain, re.I)
    return tagged[2].strip() if tagged else ""


# A mark the page shows on a choice's whole text: a colour, a highlight, an underline.
_VISUAL_RE = re.compile(r"<(?P<tag>font)\s+color\s*=\s*(?P<q>[\"']?)(?P<colour>[#\w]+)(?P=q)\s*>"
                        r"|<(?P<span>span)\s+style\s*=\s*(?P<sq>[\"'])\s*color\s*:\s*"
                        r"(?P<hue>[#\w]+)\s*;?\s*(?P=sq)\s*>|<(?P<plain>mark|u)>", re.I)


def _visual(first: str) -> tuple[str, str]:
    """The mark around all of a choice's text and the text inside it ("<font color='red'>
    Paris</font>" -> ("font red", "Paris")); ("", "") when it has none."""
    plain = first.strip()
    opening = _VISUAL_RE.match(plain)
    if not opening:
        return "", ""
    tag = (opening["tag"] or opening["span"] or opening["plain"]).lower()
    closing = f"</{tag}>"
    inner = plain[opening.end():]
    if not inner.lower().endswith(closing) or re.search(rf"</?{tag}\b", inner[:-len(closing)],
                                                         re.I):
        return "", ""
    kind = f"{tag} {(opening['colour'] or opening['hue'] or '').lower()}"
    return kind, inner[:-len(closing)].strip()


def _visually_marked(choices: list[str]) -> list[str]:
    """The texts of the choices a visual mark (see _visual) picks out, "" for the others:
    all marked the same way, when some are and the others bear none; else all ""."""
    marks = [_visual(c) for c in choices]
    kinds = {kind for kind, _ in marks if kind}
    if len(kinds) != 1 or any(not text and kind for kind, text in marks):
        return [""] * len(choices)
    return [text for _, text in marks]


def _marked(first: str) -> str:
    """A choice's text inside its bold (see _bold) or visual mark (see _visual)."""
    return _bold(first) or _visual(first)[1]


def _bold_answer(text: _Lines, letters: list[str], choices: list[list[str]], start: int,
                 end: int) -> tuple[_Answer | None, list[list[str]], int]:
    """Where no answer line is written, the right choices as the page shows them: the
    one-line choices in bold, when some are and some are not (all in bold is a style),
    or those with a sign beside them that says right ("A) Mars ✅", see cues.marked).
    Returns the answer (at the header's line), the choices without their bold, and the
    line after the last choice's: what follows it is the explanation. (None, choices,
    end) if the choices are not so marked."""
    if len(choices) < 2 or any(len(c) > 1 for c in choices[:-1]):
        return None, choices, end
    signs = cues.marked([c[0] for c in choices])  # "A) Mars ✅", "b) 4 (correct)"
    bolds = [text if right else "" for text, right in signs] if signs else \
        [_bold(c[0]) for c in choices]
    if not any(bolds):  # "<font color='red'>Paris</font>": the page's colour says it
        bolds = _visually_marked([c[0] for c in choices])
    if all(bolds) or not any(bolds):
        return None, choices, end
    if signs:
        choices = [[text, *c[1:]] for (text, _), c in zip(signs, choices)]
    last = next(j for j in range(end - 1, start, -1) if text.is_choice(j))
    picked = ", ".join(letter for letter, bold in zip(letters, bolds) if bold)
    return _Answer(picked, "", start), [[bold or c[0]] for bold, c in zip(bolds, choices)], \
        last + 1


_picked = cues.picked  # "A and C" -> {"A", "C"}


def _disagree(path: str, text: _Lines, first: _Answer, last: _Answer) -> Diagnostic:
    return warning("W711", path, text.at(first.line), f"this answer ({first.letters}) "
                   f"differs from the one at line {text.at(last.line)} ({last.letters}); "
                   f"{last.letters} was taken")


def _is_title(text: _Lines, start: int, body: list[int]) -> bool:
    """Whether the header at ``start`` is the file's title rather than its question's text:
    a level-1 heading that opens the file, neither numbered nor asking, over text of the
    question's own, not code (one question a file, under the file's name)."""
    line = text.lines[start]
    if not re.match(r"^#\s", line) or any(t.strip() for t in text.lines[:start]) or \
            _number(line) is not None or _plain(line).rstrip(" *_").endswith(("?", "？")):
        return False
    return any(not text.code[j] and _plain(text.lines[j]) for j in body)


def _prompt(text: _Lines, start: int, body: list[int], furniture: set[int]) -> str:
    """The header and the lines above the choices, without the page furniture among them
    (while text of the question's own is left); a header that is the file's title is
    none of it (see _is_title)."""
    if _is_title(text, start, body):
        return "\n".join(text.lines[k] for k in body if k not in furniture).strip()
    text_lines = [k for k in body if text.lines[k].strip() and k not in furniture]
    places = [*([] if text_lines and cues.question_label(_plain(text.lines[start]))
                else [start]), *body]  # "## Question 7" over its text: numbering, no text
    kept = [k for k in places if k not in furniture]
    if not any(text.lines[k].strip() and not text.code[k] for k in kept):
        kept = places  # all of it repeats in most questions: it is the questions' text
    parts = [_header(text.lines[k]) if k == start else text.lines[k] for k in kept]
    return "\n".join(parts).strip()


def _key(text: str) -> str:
    """What a learner reads in ``text``, for comparing an answer line with a choice: its
    letters and digits, case aside."""
    return re.sub(r"[\W_]+", "", _plain(text)).casefold()


# A letter as a choice is labelled, inside an answer's text: "b. Right-Sizing, d. Reserving".
_LABEL_IN_TEXT_RE = re.compile(r"(?:^|(?<=[\s,;，、]))\(?([A-Ja-j])[.)）](?=\s)")


def _answer_of(text: _Lines, found: _Answer, letters: list[str], choices: list[list[str]],
               path: str, said: list[Diagnostic], followed: bool) -> tuple[set[str], str]:
    """The letters an answer line picks, and what of its text is left for the
    explanation: nothing when the text restates the picked choices (a warning, W711, when
    its words differ from theirs: the letter decides); else the text, a remark. Text
    written as a choice is ("B) Volta") is taken for one when an explanation of its own
    follows (``followed``)."""
    picked, more = _picked(found.letters), found.more
    inside = cues.explanation_inside(more)
    if inside:  # the answer's words, then the explanation on the same line
        found.more = more[:inside.start()]
        more = cues.without_explanation_label(more[inside.end():])
        picked, rest = _answer_of(text, found, letters, choices, path, said, followed=True)
        return picked, "\n\n".join(part for part in (rest, more.strip()) if part)
    if not more or not set(letters) >= picked:
        return picked, more
    named = {m.upper() for m in _LABEL_IN_TEXT_RE.findall(more)} & set(letters)
    words = {letter: _key("\n".join(c)) for letter, c in zip(letters, choices)}
    said_key = _key(_LABEL_IN_TEXT_RE.sub(" ", more))
    for chosen in (picked | named, picked):
        if said_key == "".join(words[letter] for letter in letters if letter in chosen):
            return chosen, ""
    if _bold_answer_only(text.lines[found.line]):
        return picked, more  # the bold holds the answer: what follows it is a remark
    other = _listed_or_remark(more, picked, letters, choices)
    if other is not None:
        return other
    wanted = "".join(words[letter] for letter in letters if letter in picked)
    if difflib.SequenceMatcher(None, said_key[:200], wanted[:200]).ratio() >= 0.6 or (
            followed and _choice_like(more)):
        said.append(warning("W711", path, text.at(found.line), f"the answer line says "
                            f"{clip(more)!r}, not the words of choice "
                            f"{', '.join(sorted(picked))}; the letter was taken"))
        return picked, ""
    return picked, more


def _bold_answer_only(line: str) -> bool:
    """Whether ``line``'s bold holds its answer's label and letter and nothing else, other
    words after it ("**Réponse : B**. Because …")."""
    found = _BOLD_ANSWER_ONLY_RE.match(line.strip())
    said = cues.answer_line(found["answer"].strip()) if found else None
    return bool(said and not said["rest"].strip(" ."))


def _listed_or_remark(more: str, picked: set[str], letters: list[str],
                      choices: list[list[str]]) -> tuple[set[str], str] | None:
    """What an answer line's text after one letter says when it is not the choice's words
    as written: each right choice in short, labelled ("B. Amazon SQS, E. Step
    Functions", each inside its choice's words): those letters, no explanation; or a
    sentence about the choice ("– The transfer is free.", ending as a sentence ends and
    its choice does not): a remark, the explanation. None if neither."""
    if len(picked) != 1:
        return None
    texts = {letter: "\n".join(c).strip() for letter, c in zip(letters, choices)}
    cuts = list(_LABEL_IN_TEXT_RE.finditer(more))
    if cuts:
        ends = [m.start() for m in cuts[1:]] + [len(more)]
        pieces = [more[:cuts[0].start()]] + [more[m.end():e] for m, e in zip(cuts, ends)]
        named = [min(picked)] + [m.group(1).upper() for m in cuts]
        if all(letter in texts and _key(piece) and _key(piece) in _key(texts[letter])
               for letter, piece in zip(named, pieces)):
            return set(named), ""
    plain = _plain(more).rstrip()
    if plain.endswith((".", "!", "。")) and len(plain.split()) > 3 \
            and not texts.get(min(picked), "").endswith((".", "!", "。")):
        return picked, more
    return None


def _choice_like(text: str) -> bool:
    """Whether ``text`` reads as a choice's words rather than a remark: it does not go on
    from a sentence ("because …" starts lower case), it is one phrase, and short."""
    plain = _plain(text)
    first = re.search(r"[^\W\d_]", plain)
    return first is not None and not plain[first.start()].islower() and len(plain) <= 120 \
        and not re.search(r"[.!?。]\s+\S", plain)


def _listed_after(text: _Lines, k: int, end: int, found: _Answer, letters: list[str],
                  choices: list[list[str]]) -> int:
    """The line after the right choices listed one a line inside a <details> block under
    its first ("- a. Dependency management", "- b. Efficient use"), each added to
    ``found``: a line that restates a choice, letter and words, names it right."""
    words = {letter: _key("\n".join(c)) for letter, c in zip(letters, choices)}
    while k < end and text.details[k] and not text.code[k]:
        listed = cues.letters_first(_plain(text.lines[k]))
        if not text.lines[k].strip():
            k += 1
            continue
        letter = listed.group("letters").upper() if listed else ""
        if letter not in words or _key(listed.group("rest") if listed else "") != words[letter]:
            break
        first = _picked(found.letters)
        if len(first) == 1 and _key(found.more) == words.get(min(first)):
            found.more = ""  # its own line restated its own choice
        found.letters += f", {letter}"
        k += 1
    return k


def _item_end(text: _Lines, found: _Answer, k: int, end: int, path: str,
              furniture: set[int]) -> tuple[int, list[Diagnostic]]:
    """Where a question ends whose answer line is indented, inside a list's item: at the
    first line of text after it, outside code, that is less indented, as the page shows
    it (a closing remark at the margin is no part of the last question); that text is
    said (W701) unless it is a rule or page furniture."""
    line = text.lines[found.line]
    indent = len(line) - len(line.lstrip())
    if indent < 2 or text.details[found.line]:
        return end, []
    for j in range(k, end):
        written = text.lines[j]
        if written.strip() and not text.code[j] and len(written) - len(written.lstrip()) < indent:
            left = [t for t in range(j, end) if text.lines[t].strip() and t not in furniture
                    and not HRULE_RE.match(text.lines[t])]
            return j, [warning("W701", path, text.at(left[0]), "text that is no question was "
                               f"not converted: {clip(text.lines[left[0]].strip())!r}")
                       ] if left else []
    return end, []


def _restated_after(text: _Lines, k: int, end: int, found: _Answer, letters: list[str],
                    choices: list[list[str]], path: str, said: list[Diagnostic]) -> int:
    """The line after a second statement of the answer right under the first (a visible
    "Answer: b" and then a <details> block that says it again, or the right choices
    listed one a line inside the block): the answer, said twice, is no explanation. A
    second statement that names other letters is reported (W711); the first is taken."""
    lines = text.lines
    j = k
    while j < end and not lines[j].strip():
        j += 1
    if j >= end or text.code[j]:
        return k
    plain = _plain(lines[j])
    again = cues.answer_line(plain)
    second: _Answer | None = None
    if again:
        second, after = _Answer(again.group("letters"), "", j), j + 1
    elif _opens_answer(lines[j]) and not text.details[j]:
        second, after = _from_details(text, j, end)
    if second is None:
        return k
    if _picked(second.letters) != _picked(found.letters):
        said.append(_disagree(path, text, second, found))
    return after


def _explanation(lines: list[str]) -> str:
    """The explanation's lines as one text, without the label before it ("Explanation:",
    "Explicación:", "解釋：") and, when all of it is one block quote (a "> 💡 …" note),
    without the quote's marks."""
    text = "\n".join(lines).strip()
    body = [line for line in text.split("\n") if line.strip()]
    if body and all(line.lstrip().startswith(">") for line in body):
        text = "\n".join(re.sub(r"^\s*> ?", "", line) for line in text.split("\n")).strip()
    return cues.without_bracketed_labels(cues.without_explanation_label(_untagged(text)))\
        .strip()


def _untagged(text: str) -> str:
    """``text`` without the tag that wraps it when an explanation's label opens it
    ("<span class=spoiler>Justification: …</span>"): the label is then found."""
    opening = _OPEN_TAG_RE.match(text)
    if opening is None or not cues.explanation_label(text[opening.end():].lstrip()):
        return text
    closing = re.search(rf"</{opening[1]}>\s*$", text, re.I)
    return text[opening.end():closing.start() if closing else len(text)].strip()


def _choices(text: _Lines, k: int, end: int, aside: list[int]
             ) -> tuple[list[str], list[list[str]], _Answer | None, int]:
    """The lettered choices from line ``k`` on, the answer under them (its letters and what
    follows them on its line, as written; the explanation above it, from a line that
    starts with its label on), and the line after it. A paragraph at the margin apart
    from the last choice ("Choose two.") is the question's text: its lines go to ``aside``."""
    lines, code = text.lines, text.code
    choices: list[list[str]] = []
    letters: list[str] = []
    listed = False  # whether the choices are a list's items ("- a. …")
    above: list[str] = []  # the explanation above the answer line, once its label is seen
    while k < end:
        line = lines[k]
        if choices and not code[k] and not above and cues.explanation_label(_plain(line)):
            above.append(line)  # "**Explanation:** …" before "**Answer:** B"
            k += 1
            continue
        if code[k]:  # code under a choice: the choice's, line for line
            if choices:
                choices[-1].append(line)
            k += 1
            continue
        plain, places = _plain_at(line)
        answer, after = _answer_at(text, k, end, letters if choices else [], plain, places)
        if after > k:  # an answer, or an answer's label, or a <details> with none
            if answer is not None:
                answer.above = tuple(above)
                return letters, choices, answer, after
            k = after
            continue
        if above or (choices and text.details[k] and line.strip() and not _is_tag_line(line)):
            above.append(line)  # the explanation, above its answer (in a <details> block too)
            k += 1
            continue
        choice = _CHOICE_RE.match(line)
        item = bool(re.match(r"\s*[-*+]\s", line))
        if choice and listed and not item and lines[k - 1].strip():
            choices[-1][-1] += " " + line.strip()  # no list mark: the item's text goes on
        elif choice and not text.details[k] and len(letters) < len(LETTERS) and \
                choice.group("letter").upper() == LETTERS[len(letters)]:
            listed = item if not letters else listed
            letters.append(choice.group("letter").upper())
            choices.append([choice.group("text")])
        elif choices and line.strip() and not text.details[k] and aside \
                and aside[-1] == k - 1:
            aside.append(k)  # the paragraph apart under the choices goes on
        elif choices and line.strip() and not text.details[k] and text.goes_on(k):
            choices[-1][-1] += " " + line.strip()  # its paragraph goes on: the same text
        elif choices and line.strip() and not text.details[k] and _apart(text, k):
            aside.append(k)
        elif choices and line.strip() and not text.details[k]:
            choices[-1].append(line.strip() if not line.startswith("    ") else line)
        k += 1
    return letters, choices, None, k


def _apart(text: _Lines, k: int) -> bool:
    """Whether line ``k`` starts a paragraph at the margin after a blank line, outside
    code, and no choice or answer follows it before the next blank line: no more of the
    choice above it."""
    lines = text.lines
    if lines[k].startswith((" ", "\t")) or lines[k - 1].strip() or text.code[k - 1]:
        return False
    j = k
    while j < len(lines) and lines[j].strip() and not text.code[j]:
        j += 1
    return not any(_CHOICE_RE.match(lines[t]) for t in range(k, j))


def _rest(text: _Lines, k: int, end: int, path: str, furniture: set[int]
          ) -> tuple[list[str], list[Diagnostic]]:
    """The explanation's lines from line ``k`` on (structure tags, rules and page
    furniture outside code left out), up to a question written there under no header it
    could be read by: that one is an error at its line, never more of this question's
    explanation."""
    lines, code = text.lines, text.code
    stop = text.next_first[k]
    if stop < end and text.answered(stop, end):
        top = stop  # the paragraph above its choices: its text
        while top > k and lines[top - 1].strip() and not code[top - 1]:
            top -= 1
        shown = clip(lines[top] if top < stop else lines[stop])
        said = [error("E702", path, text.at(top), (
            f"a question ({shown!r}) with choices and an answer line but no header "
            "(\"12. What …\" or a heading); not converted, nor added to the explanation "
            "before it: give it a header"))]
    else:
        top, said = end, []
    return [_without_summary(line) if "<" in line and not code[j] else line
            for j, line in enumerate(lines[k:top], start=k)
            if code[j] or not (_is_tag_line(line) or HRULE_RE.match(line)
                               or j in furniture)], said


def _from_details(text: _Lines, k: int, end: int) -> tuple[_Answer | None, int]:
    """The answer written first inside the <details> block that opens at line ``k`` (its
    letters and what follows them on its line, as written; the block's summary, whatever
    it says, is its label), and the line after that answer; (None, k) if the block does
    not start with one."""
    lines, code = text.lines, text.code
    j = k
    while j < end and not code[j]:
        content = _without_summary(lines[j])
        plain, places = _plain_at(content)
        if plain.strip(" *_:"):
            found = cues.answer_line(plain) or cues.letters_first(plain)
            if not found:
                return None, k
            return _Answer(found.group("letters"), _written_from(
                content, plain, places, found.start("rest")), j), j + 1
        j += 1
        if j < end and not text.details[j] and lines[j].strip() and not _opens_answer(lines[j]):
            return None, k
    return None, k
