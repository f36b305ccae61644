"""Markdown checkbox quizzes (the shape of the big GitHub quiz repositories) -> questions.

    # Python                      <- the topic's title (the first heading that is no question)
    #### Q1. What does this print?
    ```python
    print(1)
    ```
    - [ ] `0`
    - [x] `1`                     <- "[x]" marks a correct choice; several may be marked
    **Explanation:** `print` writes its argument.

A question may also be an ordered list's item, its choices indented under it::

    1. Which GPU first had Tensor Cores?
       - [ ] Pascal
       - [x] Volta

       Volta (2017) brought them.  <- the explanation, inside the item

A heading followed by a list whose items all start "[ ]" or "[x]" is a question: the
heading (without its "Q1." numbering) and any blocks between it and the list are the
prompt, the list's items the choices, and the blocks after the list, up to the next
heading, the explanation. The blocks are found by markdown-it-py (the project's Markdown
engine), which gives each block's lines; the text of each part is those lines exactly as
written, so code, inline code, tables and links arrive as they were. Anything else is
reported at its line, never dropped silently.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing import answer_key, callouts, choice_labels, cues, lettered, page
from nca_anki.importing.bank import (HRULE_RE, NUMBERING_RE, Choice, Item, Reading, Section,
                                     html_to_markdown, one_paragraph, title_from_name)

_TASK_RE = re.compile(r"^(?P<lead>\s{0,3}[-*+]\s+)\[(?P<mark>[ xX])\](?:[ \t]+|$)(?P<text>.*)$")
_FENCE_RE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})")
# The text runs to the line's end; _heading_text takes off a closing "##" (a pattern
# that did, lazily, tried every space of a long line again: time that grew with its square).
_HEADING_RE = re.compile(r"^\s{0,3}#{1,6}(?:[ \t]+|$)(?P<text>.*)$")


@dataclass(frozen=True)
class _Block:
    kind: str  # markdown-it's token type without "_open": heading, paragraph, bullet_list...
    start: int  # first line, 0-based
    end: int  # after the last line
    level: int = 0  # a heading's level
    items: tuple[tuple[int, int], ...] = ()  # a list's items: (start, end) lines


def _blocks(text: str) -> list[_Block]:
    from markdown_it import MarkdownIt  # the renderer's engine, loaded when it is used

    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(text)
    found: list[tuple[_Block, list[tuple[int, int]]]] = []  # each block, a list's items
    for token in tokens:  # one pass: a list's items are the items read after it opens
        if token.level == 1 and token.type == "list_item_open" and token.map and found:
            found[-1][1].append((token.map[0], token.map[1]))
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        kind = token.type.removesuffix("_open")
        level = int(token.tag[1]) if kind == "heading" else 0
        found.append((_Block(kind, token.map[0], token.map[1], level), []))
    return [_Block(b.kind, b.start, b.end, b.level, tuple(items)) if items else b
            for b, items in found]


def _heading_text(lines: list[str], heading: _Block) -> str:
    """A heading's text: "## Text" (ATX), or the lines above a "---"/"===" (setext)."""
    match = _HEADING_RE.match(lines[heading.start])
    if match:
        text = match.group("text").rstrip(" \t")
        bare = text.rstrip("#")
        if bare != text and bare[-1:] in (" ", "\t"):  # a closing sequence after a space
            text = bare
        return text.strip()
    return " ".join(line.strip() for line in lines[heading.start:heading.end - 1]).strip()


# Emoji, arrows and other symbols before a title's first word ("📚 Python", "⬆️ Top").
_LEADING_SYMBOLS_RE = re.compile(r"^[^\w(\[`'\"]+")


def _title(text: str) -> str:
    """A topic title from a heading: no Markdown emphasis, no symbols before its words;
    "" if it is navigation."""
    plain = re.sub(r"[*_]{1,3}", "", text).strip()
    if _is_navigation(plain):
        return ""
    return _LEADING_SYMBOLS_RE.sub("", plain).strip()


# A link into the page ("[Back to Top](#table-of-contents)"), a badge ("[![CI](…)](…)") or
# an image alone, with emphasis around: navigation, not a question's text.
_NAV_LINK_RE = re.compile(r"\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)"  # a badge: an image, linked
                          r"|\[[^\]\[]*\]\(#[^)]*\)"  # a link into the page
                          r"|!\[[^\]]*\]\([^)]*(?:badge|shields\.io)[^)]*\)")  # a badge alone


def _is_navigation(text: str) -> bool:
    """Whether ``text`` (a line or a paragraph) is only in-page links, badges, images,
    rules and separators."""
    rest = _NAV_LINK_RE.sub("", text)
    rest = re.sub(r"[*_|•·\-\s]+|<br\s*/?>|&nbsp;", "", rest)
    return bool(HRULE_RE.match(text)) or (not rest and bool(text.strip()))


def _without_navigation(text: str) -> str:
    """``text`` without its paragraphs that are navigation (see _is_navigation), and
    without rules (``---``) outside code: a separator in the source, not content."""
    kept_lines, fence = [], ""
    for line in text.split("\n"):
        found = _FENCE_RE.match(line)
        if found and (not fence or found.group("fence").startswith(fence)):
            fence = "" if fence else found.group("fence")
        if fence or not HRULE_RE.match(line):
            kept_lines.append(line)
    text = "\n".join(kept_lines)
    paragraphs = re.split(r"\n[ \t]*\n", text)
    kept = [p for p in paragraphs if not all(_is_navigation(line) or not line.strip()
                                             for line in p.split("\n"))]
    return "\n\n".join(kept).strip("\n")


def _fences_under_choices(text: str) -> str:
    """``text`` with a fenced block written at the margin right under a choice's line
    (``- [ ] A`` then a ```` ``` ```` line) indented under it, as the author meant: the
    block belongs to that choice. Line for line, so every line keeps its number."""
    lines = text.split("\n")
    never: dict[str, int] = {}  # a fence -> a line after which no fence closes it
    k = 0
    while k < len(lines) - 1:
        task = _TASK_RE.match(lines[k])
        at = k + 1  # the fence may follow a blank line or two
        while task and at < len(lines) - 1 and at - k <= 2 and not lines[at].strip():
            at += 1  # (a "<!---->" separator is handled below)
        if task and re.fullmatch(r"\s*<!--\s*-->\s*", lines[at]):
            # "<!---->" then an indented code block: the comment ends the list only so
            # that the block can follow (a Markdown formatter's way); it is the choice's.
            stop = at + 1
            while stop < len(lines) and (not lines[stop].strip()
                                         or lines[stop].startswith("    ")):
                stop += 1
            if any(lines[j].strip() for j in range(at + 1, stop)):
                pad = " " * len(task.group("lead"))
                lines[at] = ""
                for j in range(at + 1, stop):
                    lines[j] = pad + lines[j] if lines[j].strip() else lines[j]
                k = stop
                continue
        fence = _FENCE_RE.match(lines[at]) if task else None
        if task and fence and len(lines[at]) - len(lines[at].lstrip()) < len(
                task.group("lead")):
            mark = fence.group("fence")
            end = None if never.get(mark, len(lines)) <= at else next(
                (j for j in range(at + 1, len(lines))
                 if lines[j].strip().startswith(mark[0] * len(mark))
                 and not lines[j].strip().strip(mark[0])), None)
            if end is None:  # no fence as long closes after here: none will after a later one
                never[mark] = min(never.get(mark, len(lines)), at)
            if end is not None:
                pad = " " * len(task.group("lead"))
                indent = len(lines[at]) - len(lines[at].lstrip())
                for j in range(at, end + 1):  # the block's own indent kept past the fence's
                    line = lines[j]
                    lines[j] = pad + (line[indent:] if line[:indent].strip() == "" else
                                      line.lstrip()) if line.strip() else line
                k = end
        k += 1
    return "\n".join(lines)


_Q_LINE_RE = re.compile(r"^\s{0,3}(?:\*\*)?(?:Q|Question)\s*#?\s*\d+\s*[.:)]\s*\S", re.I)


def _questions_without_headings(text: str, path: str, problems: list[Diagnostic]) -> str:
    """``text`` with each "Q67. What …?" line that a list of choices follows written as a
    heading, line for line: some quizzes number a question without a heading mark, often
    right under the previous one's reference line (an ATX heading may interrupt a
    paragraph, so the line above stays where it was). A line whose numbering is damaged
    ("9 What …", "Q9 What …") is one too when its number is the next (W707)."""
    lines = text.split("\n")
    code = page.code_lines(text)  # a "# comment" or "9 items" in code is code
    last = None  # the number of the last question's header
    for k, line in enumerate(lines):
        if code[k]:
            continue
        nxt = next((x for x in lines[k + 1:k + 4] if x.strip()), "")
        header = _HEADING_RE.match(line) or _TASK_RE.match(nxt)
        numbered = lettered._LOOSE_RE.match(_HEADING_RE.sub(r"\g<text>", line)) \
            if header else None
        if numbered is None or not numbered.group("number").isascii():
            continue
        number = int(numbered.group("number"))
        if _HEADING_RE.match(line) or _ORDERED_RE.match(line):
            last = number
        elif _Q_LINE_RE.match(line):
            lines[k], last = f"#### {line.strip()}", number
        elif last is not None and number == last + 1:
            problems.append(warning("W707", path, k + 1, f"{clip(line)!r} was read as question "
                                    f"{number}'s header, though its numbering is not "
                                    f"\"{number}. \"; write it so to be sure"))
            lines[k], last = f"#### {numbered.group('text')}", number
    return "\n".join(lines)


def _front_matter(text: str) -> tuple[str, dict[str, str]]:
    """``text`` with its YAML front matter (``---`` … ``---`` at the top) blanked out line
    for line, and its plain ``key: value`` pairs (quoted, or not; a ``|`` or ``>`` block)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return text, {}
    end = next((k for k in range(1, len(lines)) if lines[k].strip() in ("---", "...")), None)
    if end is None:
        return text, {}
    values: dict[str, str] = {}
    k = 1
    while k < end:
        match = re.match(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$", lines[k])
        k += 1
        if not match:
            continue
        key, value = match[1].casefold(), match[2].strip()
        if value in ("|", ">", "|-", ">-", "|+", ">+"):
            block = []
            while k < end and (not lines[k].strip() or lines[k].startswith((" ", "\t"))):
                block.append(lines[k].strip() if value[0] == ">" else lines[k])
                k += 1
            indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            value = (" " if value[0] == ">" else "\n").join(
                b[indent:] if value[0] == "|" else b for b in block).strip()
        elif value.startswith('"') and value.endswith('"') and len(value) >= 2:
            try:
                value = json.loads(value)
            except ValueError:
                value = value[1:-1]
        elif value.startswith("'") and value.endswith("'") and len(value) >= 2:
            value = value[1:-1].replace("''", "'")
        values[key] = value
    blanked = [""] * (end + 1) + lines[end + 1:]
    return "\n".join(blanked), values


_FRONT_PROMPT_KEYS = ("question", "prompt", "title", "q")
_FRONT_EXPLANATION_KEYS = ("explanation", "answer_explanation", "rationale", "feedback")


def _is_task_list(block: _Block, lines: list[str]) -> bool:
    return block.kind == "bullet_list" and bool(block.items) and all(
        _TASK_RE.match(lines[start]) for start, _ in block.items)


# A list item wholly in bold ("* **Packets**"): the right choice, where a quiz marks it so.
_BULLET_RE = re.compile(r"^\s{0,3}[-*+]\s+(?P<text>\S.*?)\s*$")
_ITEM_RE = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+(?P<text>\S.*?)\s*$")
_BOLD_RE = re.compile(r"^(?:(\*\*|__)(?P<text>(?!\1)\S(?:.*\S)?)\1"
                      r"|<(b|strong)>\s*(?P<tagged>(?:(?!</?(?:b|strong)>).)+?)\s*</\3>)$", re.I)
# A whole paragraph in emphasis ("*Which layer…?*"): the prompt, its emphasis the cue.
_EMPHASIS_RE = re.compile(r"^(\*{1,3}|_{1,3})(?P<text>[^*_\s](?:.*[^*_\s])?)\1$", re.S)


_BUTTON_RE = re.compile(r"<button\b[^<>]*\bonclick\s*=", re.I)


def _not_converted(blocks: list[_Block], written: list[str], path: str) -> list[Diagnostic]:
    """What is said of ``blocks``, text under no list of choices: a warning at each block
    with text (navigation has none), or, where the choices are HTML buttons whose right
    one only the page's script knows, one error at them for the whole question."""
    buttons = next((b for b in blocks if b.kind == "html_block" and len(_BUTTON_RE.findall(
        "\n".join(written[b.start:b.end]))) >= 2), None)
    if buttons is not None:
        return [error("E702", path, buttons.start + 1, (
            "choices written as HTML buttons (<button onclick=…>), whose right one only the "
            "page's script knows, were not read: write them as '- [ ]' and '- [x]'; not "
            "converted"))]
    return [warning("W701", path, block.start + 1, "text that is no question (no list of "
                    "'- [ ]' choices under it) was not converted: "
                    f"{_text(written, block.start, block.end).strip()[:60]!r}")
            for block in blocks if not all(_is_navigation(line) or not line.strip()
                                           for line in written[block.start:block.end])]


def _widget_read(segment: list[_Block], lists: list[int], lines: list[str], path: str,
                 items: list[Item], problems: list[Diagnostic]) -> int | None:
    """Where ``segment`` has no list of choices but a quiz widget: its question added to
    ``items``, or its refusal to ``problems``; and the level of the heading it is read
    under (0 if refused). None if there is no widget."""
    widget = None if lists else _widget_question(segment, lines, path)
    if isinstance(widget, Item):
        items.append(widget)
        return segment[0].level
    if widget is not None:
        problems.append(widget)
        return 0
    return None


def _widget_question(segment: list[_Block], lines: list[str], path: str
                     ) -> Item | Diagnostic | None:
    """The question a heading's blocks write as an HTML quiz widget: choices as elements
    whose markup says which is right (see page.widget_choices), the heading and the text
    above them its prompt, the right choice's feedback its explanation. Where the markup
    does not say, the question is refused at the choices (E702, returned); None if there
    are none."""
    widgets = [b for b in segment if b.kind == "html_block"]
    html = "\n".join(_text(lines, b.start, b.end) for b in widgets)
    found = page.widget_choices(html) if "<" in html else []
    if len(found) < 2:
        return None
    first = widgets[0]
    undecided = any(c.right is None or not c.text for c in found) or not any(
        c.right for c in found)
    if undecided and sum(c.tag in ("button", "input") for c in found) < 2:
        return None  # links or items a page's script handles: its text, no quiz's choices
    if undecided:
        return error("E702", path, first.start + 1, (
            "choices written as HTML elements (<button onclick=…>) whose markup does not say "
            "which is right (no 'true'/'false' argument, data-correct or class 'correct'), or "
            "with no text, were not read: write them as '- [ ]' and '- [x]'; not converted"))
    heading = segment[0] if segment[0].kind == "heading" else None
    head = NUMBERING_RE.sub("", _heading_text(lines, heading).strip(), count=1) if heading \
        else ""
    start = heading.end if heading else segment[0].start
    between = _text(lines, start, first.start) if first.start > start else ""
    if between and cues.question_label(head):
        head = ""  # "### Frage 1" over its text: the page's numbering, as for lists
    prompt = "\n\n".join(part for part in (head, between) if part)
    if not prompt:
        return None
    feedback = "\n\n".join(c.feedback for c in found if c.right and c.feedback)
    return Item(prompt=prompt, explanation=feedback, path=path,
                line=(heading or first).start + 1,
                choices=tuple(Choice(c.text, bool(c.right)) for c in found))


def _is_bold_list(block: _Block, lines: list[str]) -> bool:
    """Whether ``block`` is a list of one-line choices (bulleted or numbered) that marks
    its right ones: some wholly in bold and some not (all in bold, or none, is a list,
    not a question's choices), or some with a sign beside them that says right ("Paris
    ✅", "Sky (correct)", see cues.marked) and some without it."""
    return _marked_choices(block, lines) is not None


def _marked_choices(block: _Block, lines: list[str]) -> list[Choice] | None:
    """The choices of the list ``block`` as its marks say (see _is_bold_list), without
    the marks, or of the paragraph ``block`` that writes them after boxes ("☐ Oak  ☑
    **Ash**", see cues.boxed); None if it is no such list."""
    if block.kind == "paragraph":
        boxes = cues.boxed(_text(lines, block.start, block.end))
        return None if boxes is None else [Choice(_unbolded(text), right)
                                           for text, right in boxes]
    if block.kind not in ("bullet_list", "ordered_list") or not 2 <= len(block.items) <= 10 or any(
            any(line.strip() for line in lines[start + 1:end]) for start, end in block.items):
        return None
    found = [_ITEM_RE.match(lines[start]) for start, _ in block.items]
    texts = [t["text"] for t in found if t]
    if len(texts) != len(found):
        return None
    signs = cues.marked(texts)
    if signs is not None:
        return [Choice(text, right) for text, right in signs]
    bold = [_BOLD_RE.match(text) for text in texts]
    if block.kind != "bullet_list" or not any(bold) or all(bold):
        return None
    return [Choice((b["text"] or b["tagged"]) if b else text, b is not None)
            for b, text in zip(bold, texts)]


def _unbolded(text: str) -> str:
    """``text`` without the bold around all of it ("**Ash**" -> "Ash")."""
    bold = _BOLD_RE.match(text)
    return (bold["text"] or bold["tagged"]) if bold else text


def _is_choice_list(block: _Block, lines: list[str], asked: frozenset[int]) -> bool:
    """A list of choices: of "- [ ]" items, or, in a file that has none, a list whose right
    choices are in bold under a question (``asked``: where such lists start)."""
    return _is_task_list(block, lines) or block.start in asked


# What a question's text ends or starts with: "?", "…", a blank "___", emphasis around
# it. A list of bold items under other text ("Features:") is a README's, not a quiz's.
_ASKS_RE = re.compile(r"[?？…]|\.\.\.|_{3,}|^[*_]")


def _asked(blocks: list[_Block], lines: list[str]) -> frozenset[int]:
    """Where the lists of bold choices (see _is_bold_list) that a question is above
    start: right under a heading, or a paragraph or numbered line that asks (see
    _ASKS_RE); or further under a heading that asks or is numbered, with only the
    question's text between (its code, a paragraph: "## 10. What is the output?", code,
    then the choices), no other list."""
    found = set()
    asking = False  # under a heading that asks, with no list since
    for above, block in zip([None, *blocks], blocks):
        if block.kind == "heading":
            asking = _heading_asks(_heading_text(lines, block))
            continue
        if not _is_bold_list(block, lines):
            asking = asking and block.kind not in ("bullet_list", "ordered_list")
            continue
        if asking or (above is not None and _asks_above(above, lines)):
            found.add(block.start)
        asking = False
    return frozenset(found)


def _asks_above(above: _Block, lines: list[str]) -> bool:
    """Whether ``above``, right above a list of bold choices, is its question: a heading
    that asks or numbers a question (see _heading_asks), or a paragraph or numbered line
    that asks."""
    if above.kind == "heading":
        return _heading_asks(_heading_text(lines, above))
    text = _text(lines, above.start, above.end).strip()
    text = NUMBERING_RE.sub("", text, count=1).rstrip("*_ \t")
    return above.kind in ("paragraph", "ordered_list") and bool(
        _ASKS_RE.search(text[-3:]) or _ASKS_RE.match(text))


def _heading_asks(head: str) -> bool:
    """Whether a heading is a question's: it asks ("…?"), or numbers one ("### 2. Which
    …", "## 9.What", "## Question 7"); a section's name over a list ("### Broker:",
    "#### Hardware") is a page's notes, its bold words emphasis."""
    head = head.rstrip("*_ \t")
    return bool(_ASKS_RE.search(head[-3:]) or NUMBERING_RE.match(head)
                or lettered.TIGHT_NUMBER_RE.match(head) or cues.question_label(head))


def _folded(lines: list[str]) -> frozenset[int]:
    """The first lines of the top-level blocks that are a ``<details>`` element's: the
    HTML block that opens it and the blocks inside, up to its ``</details>``."""
    return frozenset(b.first - 1 for b in page.blocks("\n".join(lines)) if b.parent == -1 and (
        b.in_details or b.kind == "html" and _DETAILS_OPEN_RE.match(b.content)))


_DETAILS_OPEN_RE = re.compile(r"\s*<details\b", re.I)


def _split_questions(segment: list[_Block], asked: frozenset[int], folded: frozenset[int]
                     ) -> list[list[_Block]]:
    """``segment`` cut into one part per list of bold choices when it holds several: each
    with the blocks above it (its prompt) and the quotes or ``<details>`` block right
    after it (its explanation); a heading over several questions is a part of its own (a
    title, or text), unless the first list is right under it: then it asks the first."""
    if sum(b.start in asked for b in segment) < 2:
        return [segment]
    heading = segment[0] if segment[0].kind == "heading" else None
    # A heading right above a list of choices is that question's text, not a title.
    asks = heading is not None and segment[1].start in asked
    parts: list[list[_Block]] = [[heading]] if heading and not asks else []
    current: list[_Block] = [heading] if heading and asks else []
    after = False  # after a list of choices, before its next question
    for block in segment[1:] if heading else segment:
        if after and block.kind != "blockquote" and block.start not in folded:
            parts.append(current)
            current, after = [], False
        current.append(block)
        after = after or block.start in asked
    parts.append(current)
    return [part for part in parts if part]


def _unquoted(text: str) -> str:
    """An explanation written as a quote ("> Because …") without its quote marks."""
    quoted = [line for line in text.split("\n") if line.strip()]
    if not quoted or not all(re.match(r"^\s{0,3}>", line) for line in quoted):
        return text
    return "\n".join(re.sub(r"^\s{0,3}> ?", "", line) for line in text.split("\n"))


def _text(lines: list[str], start: int, end: int) -> str:
    """Lines ``start`` to ``end`` exactly as written, without blank lines around them."""
    return "\n".join(lines[start:end]).strip("\n").rstrip()


def _distinct_choices(lines: list[str], items: tuple[tuple[int, int], ...]
                      ) -> list[tuple[Choice, bool]]:
    """The choices of a list's ``items`` (see _choice); a choice whose lines, joined with a
    space as the page joins them, would read as another choice does ("Hello" / "World"
    beside "Hello World": an output on two lines, as its author wrote it) keeps its line
    break as ``<br>``, so that the two stay two."""
    read = [_choice(lines, s, e) for s, e in items]
    texts = [choice.text for choice, _ in read]
    if len(set(texts)) == len(texts):
        return read
    return [_choice(lines, s, e, "<br>") if texts.count(choice.text) > 1 else (choice, inlined)
            for (s, e), (choice, inlined) in zip(items, read)]


def _choice(lines: list[str], start: int, end: int, join: str = " ") -> tuple[Choice, bool]:
    """The choice of the list item at lines ``start`` to ``end``, and whether its code,
    a one-line block alone, was put inline (a question file's choice needs a line); the
    lines that go on its first line's paragraph are joined with ``join``."""
    first = _TASK_RE.match(lines[start])
    assert first is not None
    indent = len(first.group("lead"))
    text = first.group("text").rstrip()
    # The lines right under the first that are not a fence continue its paragraph,
    # however far indented (an indented code block cannot interrupt a paragraph).
    k = start + 1
    while text and k < end and lines[k].strip() and not _FENCE_RE.match(lines[k]):
        text = f"{text}{join}{lines[k].strip()}"
        k += 1
    rest = [line[indent:] if line[:indent].strip() == "" else line.lstrip()
            for line in lines[k:end]]
    while rest and not rest[-1].strip():
        rest.pop()
    # A blank line before a code block under the choice (a "loose" list) adds nothing.
    rest = [r for k, r in enumerate(rest) if r.strip() or (
        k + 1 < len(rest) and not rest[k + 1].lstrip().startswith(("```", "~~~")))]
    while rest and not rest[0].strip():
        rest.pop(0)
    fence = _FENCE_RE.match(rest[0]) if rest else None
    if not text and fence and len(rest) == 3 and rest[2].strip() == fence.group("fence"):
        # Only a one-line code block ("[0, 1, 2]"): the same code, inline, on the line.
        code = rest[1].strip()
        ticks = "``" if "`" in code else "`"
        return Choice(f"{ticks} {code} {ticks}" if ticks == "``" else f"`{code}`",
                      first.group("mark") in "xX"), True
    if rest and all(r.startswith("    ") or not r.strip() for r in rest):
        # An indented code block under the choice: the same code, fenced, as a question
        # file writes code under a choice.
        rest = ["```", *(r[4:] for r in rest), "```"]
    if rest and not any(r.lstrip().startswith(("```", "~~~")) or r.startswith("    ")
                        or not r.strip() for r in rest):
        text = " ".join([text, *(r.strip() for r in rest)])  # a wrapped line: the same text
    elif rest:
        text = "\n".join([text, *rest])
    return Choice(text, first.group("mark") in "xX"), False


# A heading's number written right against its first word: "## 9.What will …".
_ORDERED_RE = re.compile(r"^(?P<lead>\s{0,3}\d{1,9}[.)])(?P<space>[ \t]+|$)(?P<text>.*)$")


def _is_bold_line(line: str) -> bool:
    """Whether ``line`` is a list item wholly in bold, or with a sign beside it that says
    right ("- Paris ✅"): a right choice, see _is_bold_list."""
    item = _BULLET_RE.match(line.strip())
    return bool(item and (_BOLD_RE.match(item["text"]) or cues.choice_mark(item["text"])[1]))


def _headed(text: str, blocks: list[_Block], bold: bool = False) -> str:
    """``text`` with each question written as an ordered list's item (``1. What …?`` and
    its ``- [ ]`` choices indented under it) rewritten as a heading and its body, line for
    line: the item's first line becomes a heading, the rest loses the item's indent. A
    list none of whose items holds choices is left as it is."""
    lines = text.split("\n")
    for block in blocks:
        if block.kind != "ordered_list":
            continue
        lifted = []
        for start, end in block.items:
            first = _ORDERED_RE.match(lines[start])
            if first is None:
                break
            indent = len(first.group("lead")) + max(1, len(first.group("space")))
            body = [line[indent:] if line[:indent].strip() == "" else line.lstrip()
                    for line in lines[start + 1:end]]
            lifted.append((start, end, [f"#### {first.group('text')}", *body]))
        else:
            if any(_TASK_RE.match(line) or (bold and _is_bold_line(line))
                   for _, _, item in lifted for line in item[1:]):
                for start, end, item in lifted:
                    lines[start:end] = item
    return "\n".join(lines)


# The HTML a page renders that bank.html_to_markdown turns into Markdown (and comments,
# which a page never shows). Anything else that looks like a tag ("<T>", "<pod-name>")
# is text, as is everything in code.
_HTML_RE = re.compile(r"<!--|</?(?:b|strong|i|em|code|tt|br|p|div|li|ul|ol|span|u|sub|sup|"
                      r"font|pre|h[1-6]|img|a|details|summary|table|thead|tbody|tfoot|tr|"
                      r"th|td|caption|label|small|big|mark|abbr|cite|center|section|article|header|"
                      r"footer|figure|figcaption|dl|dt|dd|blockquote|hr)\b[^<>]*>", re.I)
_SPAN_RE = re.compile(r"(`{1,8})[^`]*?\1|`+")  # a code span (a run of ticks: text)
# The tags a card keeps as they are (cards/markup.py): a line break, sub- and superscript,
# a key.
_CARD_TAG_RE = re.compile(r"<br\s*/?>|</?(?:sub|sup|kbd)>", re.I)


def _html_as_markdown(text: str) -> str:
    """``text`` (Markdown) with the HTML in it as Markdown, as the page shows it: each
    run of lines between blank lines and code blocks that holds a tag is converted by
    bank.html_to_markdown, its code spans kept as written and its indent kept."""
    if "<" not in text:
        return text
    out: list[str] = []
    group: list[str] = []
    fence = ""

    def flush() -> None:
        if group:
            out.extend(_converted("\n".join(group)).split("\n"))
            group.clear()

    for line in text.split("\n"):
        found = _FENCE_RE.match(line)
        if found and (not fence or found.group("fence").startswith(fence)):
            flush()
            fence = "" if fence else found.group("fence")
            out.append(line)
        elif fence or not line.strip():
            flush()
            out.append(line)
        else:
            group.append(line)
    flush()
    return "\n".join(out)


def _converted(group: str) -> str:
    """One run of lines (no blank line, no code block) with its HTML as Markdown."""
    spans: list[str] = []

    def kept(match: re.Match[str]) -> str:
        spans.append(match[0])
        return f"\ue000{len(spans) - 1}\ue001"

    prose = _SPAN_RE.sub(kept, group) if "`" in group else group
    if not group.lstrip().startswith("<"):  # Markdown text, not an HTML block: the card
        prose = _CARD_TAG_RE.sub(kept, prose)  # shows these tags itself, a table's too
    if not _HTML_RE.search(prose):
        return group
    prose = _WEB_IMAGE_RE.sub(_image_link, prose)
    indent = min(len(line) - len(line.lstrip()) for line in group.split("\n") if line.strip())
    converted = html_to_markdown(prose)
    converted = re.sub("\ue000(\\d+)\ue001", lambda m: spans[int(m[1])], converted)
    return "\n".join(" " * indent + line if line.strip() else line
                     for line in converted.split("\n"))


# An <img> whose picture is on the web: a card, studied offline, cannot show it, but the
# question is not lost for it (as a Markdown image on the web would be): a link to it.
_WEB_IMAGE_RE = re.compile(r"""<img\b[^<>]*?\bsrc\s*=\s*["'](https?://[^"'<>\s]+)["'][^<>]*>""",
                           re.I)


def _image_link(match: re.Match[str]) -> str:
    alt = re.search(r"""\balt\s*=\s*["']([^"'<>\[\]]+)["']""", match[0], re.I)
    shown = alt[1].strip() if alt and alt[1].strip() else "\U0001f5bc\ufe0f"  # a frame: 🖼️
    return f'<a href="{match[1]}">{shown}</a>'


def _item_as_markdown(item: Item, notes: list[Diagnostic]) -> Item:
    """``item`` with the HTML in its texts as Markdown (see _html_as_markdown); a picture
    on the web that became a link is said in ``notes``."""
    changed = Item(prompt=_html_as_markdown(item.prompt), path=item.path, line=item.line,
                explanation=_html_as_markdown(item.explanation), where=item.where,
                choices=tuple(Choice(_choice_as_markdown(c.text), c.correct)
                              for c in item.choices), media=item.media)
    texts = [(item.prompt, changed.prompt), (item.explanation, changed.explanation),
             *((c.text, d.text) for c, d in zip(item.choices, changed.choices))]
    if any(len(_WEB_IMAGE_RE.findall(old)) > len(_WEB_IMAGE_RE.findall(new))
           for old, new in texts):
        notes.append(warning("W702", item.path, item.line, "shows a picture on the web "
                             "(<img src=…>): a card is studied offline, so it is a link to "
                             "it there; save it beside the bank to show it"))
    return changed


def _choice_as_markdown(text: str) -> str:
    """A choice's text with its HTML as Markdown, on one line as a choice is (a "<br>" in
    it is a space there)."""
    converted = _html_as_markdown(text)
    if converted == text or not converted.split("\n")[0].strip():
        return text  # a "<br>" alone over code: the line of text a choice starts with
    return one_paragraph(converted)


# A front matter line that opens a YAML list ("questions:" then "  - id: q1"): more than
# a question's own keys; the structured reader (yaml_bank.py, shape.py) reads it.
_FRONT_LIST_RE = re.compile(r"^[A-Za-z_][\w-]*[ \t]*:[ \t]*\n(?:[ \t]*(?:#.*)?\n)*[ \t]*- ",
                            re.M)


def _opens_question(segment: list[_Block], segments: list[list[_Block]], number: int,
                    lines: list[str], written: list[str]) -> bool:
    """Whether ``segment`` (a heading and the blocks under it, none a list of choices) is
    the opening of the question right after it: that one's heading is at the same level,
    a list of choices is under it, no rule (``---``) parts them, no list is under the
    first and not both are numbered."""
    following = segments[number + 1] if number + 1 < len(segments) else []
    if not following or following[0].kind != "heading" or \
            following[0].level != segment[0].level:
        return False
    if any(block.kind in ("hr", "bullet_list", "ordered_list") for block in segment[1:]):
        return False  # a rule parts them; a list under it is its own (damaged) choices
    if all(NUMBERING_RE.match(_HEADING_RE.sub(r"\g<text>", written[h[0].start]).strip())
           for h in (segment, following)):  # as written: an item "3. …" is a heading here
        return False  # each numbered: two questions, the first without its choices
    if cues.question_label(_heading_text(lines, following[0])) and not any(
            segments[:number]):  # the file's first heading over "# Frage 1": its title
        return False
    return any(_is_task_list(block, lines) or _is_bold_list(block, lines)
               for block in following[1:])


def _scenario_text(lines: list[str], segment: list[_Block]) -> str:
    """The text a scenario heading and its blocks give the question's prompt."""
    head = NUMBERING_RE.sub("", _heading_text(lines, segment[0]).strip(), count=1)
    rest = _text(lines, segment[0].end, segment[-1].end)
    return "\n\n".join(part for part in (head, rest) if part)


def _structured_front_matter(text: str, path: str) -> Reading | None:
    """The questions a front matter holds as YAML records (``questions:`` then a list of
    ``{text, options: [{text, isCorrect}]}``), read as a YAML bank is, every line the
    file's own; None if it holds no list of questions (a title, tags: metadata)."""
    from nca_anki.importing import yaml_bank

    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return None
    end = next((k for k in range(1, len(lines)) if lines[k].strip() in ("---", "...")), None)
    if end is None or not _FRONT_LIST_RE.search("\n".join(lines[1:end]) + "\n"):
        return None
    reading = yaml_bank.read("\n".join(lines[:end]), path)  # "---" starts a YAML document
    # Questions found, converted or refused each at its line; else metadata, not a bank.
    found = reading.sections or any(d.is_error and d.code != "E701" for d in reading.problems)
    return reading if found else None


def read(text: str, path: str) -> Reading:
    structured = _structured_front_matter(text, path)
    body = _read_markdown(text, path)
    linked: list[Diagnostic] = []
    body = Reading(tuple(Section(title=s.title, path=s.path, items=tuple(
        _item_as_markdown(item, linked) for item in s.items)) for s in body.sections),
        (*body.problems, *linked))
    if structured is None:
        return body
    return Reading((*structured.sections, *body.sections),
                   (*structured.problems, *body.problems))


def _segments(blocks: list[_Block], asked: frozenset[int], lines: list[str]
              ) -> list[list[_Block]]:
    """``blocks`` cut at each heading (a heading and the blocks under it), and, in a file
    whose choices are marked in bold, at each question under one heading too."""
    segments: list[list[_Block]] = [[]]
    for block in blocks:
        if block.kind == "heading":
            segments.append([])
        segments[-1].append(block)
    segments = [part for segment in segments for part in _split_prompted(segment, lines)]
    if not asked:
        return segments
    folded = _folded(lines)
    return [part for segment in segments for part in _split_questions(segment, asked, folded)]


def _split_prompted(segment: list[_Block], lines: list[str]) -> list[list[_Block]]:
    """``segment`` cut into one question per list of ``- [ ]`` choices when it holds several
    and each has a paragraph of its own right above it (``**1. …**``, ``**2. …**`` under
    one heading): that paragraph is its prompt, what follows the list its explanation.
    The heading, over them all, is a part of its own (a title or a section's name)."""
    heading = segment[0] if segment and segment[0].kind == "heading" else None
    body = segment[1:] if heading else segment
    lists = [k for k, block in enumerate(body) if _is_task_list(block, lines)]
    if len(lists) < 2 or any(k == 0 or body[k - 1].kind != "paragraph" for k in lists):
        return [segment]
    starts = [k - 1 for k in lists]
    parts = [[heading]] if heading else []
    if starts[0] > 0:
        parts.append(body[:starts[0]])
    parts += [body[a:b] for a, b in zip(starts, [*starts[1:], len(body)])]
    return parts


def _choices(lines: list[str], choices: _Block, prompt: str, explanation: str,
             headed: bool, labels: list[tuple[int, str]] | None = None
             ) -> tuple[list[tuple[Choice, bool]], str, str]:
    """The choices of the list ``choices`` (each with whether its code was put inline), and
    the prompt and explanation as they go with them: where the right choice is in bold,
    the prompt without its numbering and the emphasis around it, the explanation without
    its quote marks."""
    if _TASK_RE.match(lines[choices.start]):
        if not headed:  # "**1. Which …?**" above its choices: the numbering and emphasis go
            emphasis = _EMPHASIS_RE.match(prompt)
            prompt = NUMBERING_RE.sub("", emphasis["text"] if emphasis else prompt, count=1)
        read = _distinct_choices(lines, choices.items)
        kept = _without_labels(read)
        if labels is not None and kept != read:  # said once for the file (_labels_said)
            labels.append((choices.start + 1, read[0][0].text[:len(read[0][0].text)
                                                               - len(kept[0][0].text)].strip()))
        return kept, prompt, cues.without_bracketed_labels(explanation)
    prompt = prompt if headed else NUMBERING_RE.sub("", prompt, count=1)
    emphasis = _EMPHASIS_RE.match(prompt)
    return ([(choice, False) for choice in _marked_choices(choices, lines) or ()],
            emphasis["text"] if emphasis else prompt, _unquoted(explanation))


def _without_labels(read: list[tuple[Choice, bool]]) -> list[tuple[Choice, bool]]:
    """``read`` without the labels written into its choices ("- [x] A. 4", "- [ ] B、5",
    "- [ ] (c) …", "- [ ] 1. …"), when every choice has its own, in order (the rule every
    reader shares, choice_labels.py): the card letters its choices itself."""
    starts = choice_labels.starts([choice.text for choice, _ in read])
    if starts is None:
        return read
    return [(Choice(choice.text[at:], choice.correct), inlined)
            for (choice, inlined), at in zip(read, starts)]


def _labels_said(labels: list[tuple[int, str]], path: str) -> list[Diagnostic]:
    """One W716 for the questions whose "- [ ]" choices each started with their own label
    ("- [x] A. 4"), left out as every reader leaves them out (choice_labels.py): at the
    first, with how many there were."""
    if not labels:
        return []
    (line, label), count = labels[0], len(labels)
    return [warning("W716", path, line, f"the '- [ ]' choices of {count} question"
                    f"{'s' if count > 1 else ''} start with their own letters ('{label} …' "
                    "first), which the card shows itself: left out of the texts")]


def _answered_in_words(read: list[tuple[Choice, bool]], explanation: str
                       ) -> tuple[list[tuple[Choice, bool]], str]:
    """Choices none of which is ticked, and the explanation under them, when a line of it
    outside code is an answer line that names choices by their letters ("**✅ Correct
    answer: b**", see cues.answer_line): those choices are the right ones, the letters the
    choices are labelled with ("**a.** …"), if all are, leave their texts, and the line
    leaves the explanation (what follows its letters on it stays), as does the label
    the explanation then starts with."""
    lines, fence = explanation.split("\n"), False
    for k, line in enumerate(lines):
        fence = fence != bool(_FENCE_RE.match(line))
        found = None if fence else cues.answer_line(lettered._plain(line))
        if found is None:
            continue
        picked = cues.picked(found["letters"])
        letters = lettered.LETTERS[:len(read)]
        read = list(zip(_unlabelled([choice for choice, _ in read]),
                        [inlined for _, inlined in read]))
        if not picked or not picked <= set(letters):
            return read, explanation  # a letter no choice has: no choice is marked
        rest = [found["rest"]] if found["rest"].strip() else []
        left = "\n".join([*lines[:k], *rest, *lines[k + 1:]]).strip("\n")
        return ([(Choice(choice.text, letter in picked), inlined)
                 for letter, (choice, inlined) in zip(letters, read)],
                cues.without_explanation_label(left))  # "💡 Explanation : …"
    return _answered_in_feedback(read, explanation)


def _answered_in_feedback(read: list[tuple[Choice, bool]], explanation: str
                          ) -> tuple[list[tuple[Choice, bool]], str]:
    """Choices none of which is ticked, answered by the sentences of the explanation under
    them that say which letters are right and which are not ("B is correct because …",
    see cues.feedback_answer): the explanation stays whole, without its label."""
    code = page.code_lines(explanation)
    picked = cues.feedback_answer([lettered._plain(line) for k, line in
                                   enumerate(explanation.split("\n")) if not code[k]])
    letters = lettered.LETTERS[:len(read)]
    if not picked or not picked <= set(letters):
        return read, explanation
    choices = _unlabelled([choice for choice, _ in read])
    return ([(Choice(choice.text, letter in picked), inlined)
             for letter, choice, (_, inlined) in zip(letters, choices, read)],
            cues.without_explanation_label(explanation.strip("\n")))


def _unlabelled(choices: list[Choice]) -> list[Choice]:
    """``choices`` without the letters they are labelled with ("a) …", "**b.** …"), when
    every one is, in order from A: the card shows its own."""
    labels = [lettered._CHOICE_RE.match(choice.text) for choice in choices]
    if not all(labels) or "".join(m["letter"] for m in labels if m).upper() != \
            lettered.LETTERS[:len(choices)]:
        return choices
    return [Choice(m["text"] + choice.text[m.end("text"):], choice.correct)
            for m, choice in zip(labels, choices) if m]


def _keyed(items: list[Item], key: answer_key.Key | None, lines: list[str], path: str
           ) -> tuple[list[Item], list[Diagnostic]]:
    """``items`` with the answer key's letters (see answer_key.py) as the right choices of
    each question that marks none, found by the number its header line gives it; one the
    key has no entry for, or names a letter it has no choice for, is refused at its line
    (E703), and an entry no question takes is said (W718)."""
    if key is None:
        return items, []
    kept: list[Item] = []
    said: list[Diagnostic] = []
    numbers: set[int] = set()
    for item in items:
        asked = answer_key.number(lines[item.line - 1]) if item.line <= len(lines) else None
        numbers |= {asked} if asked is not None else set()
        if any(choice.correct for choice in item.choices):
            kept.append(item)
            continue
        entry = key.entries.get(asked) if asked is not None else None
        if entry is None:
            said.append(answer_key.missing(key, asked, path, item.line))
            continue
        picked = cues.picked(entry.letters)
        letters = lettered.LETTERS[:len(item.choices)]
        if not picked <= set(letters):
            said.append(error("E703", path, item.line, f"the answer key at line {entry.line} "
                              f"gives {entry.letters!r}, a letter none of its "
                              f"{len(item.choices)} choices has; not converted"))
            continue
        choices = _unlabelled(list(item.choices))
        restated = "".join(lettered._key(c.text) for letter, c in zip(letters, choices)
                           if letter in picked)
        remark = entry.rest if lettered._key(entry.rest) not in ("", restated) else ""
        kept.append(Item(prompt=item.prompt, path=item.path,  # "1. b - see chapter 3"
                         explanation="\n\n".join(p for p in (remark, item.explanation) if p),
                         line=item.line, where=item.where, media=item.media,
                         choices=tuple(Choice(c.text, letter in picked)
                                       for letter, c in zip(letters, choices))))
    return kept, [*said, *answer_key.unused(key, numbers, path)]


def _more_explanation(items: list[Item], heading: _Block | None, question_level: int,
                      lines: list[str], segment: list[_Block]) -> bool:
    """Whether ``segment``, under a heading below the last question's ("##### Explanation"),
    is more of that question's explanation; if so, it is added to it."""
    if not (heading and items and question_level and heading.level > question_level):
        return False
    last = items[-1]
    more = _text(lines, heading.start, segment[-1].end)
    items[-1] = Item(prompt=last.prompt, choices=last.choices, path=last.path, line=last.line,
                     explanation="\n\n".join(p for p in (last.explanation, more) if p),
                     where=last.where, media=last.media)
    return True


def _title_or_text(title: str, heading: _Block | None, after_questions: bool,
                   lines: list[str], body: list[_Block], segment: list[_Block]
                   ) -> tuple[str, list[_Block]]:
    """A segment without choices: the file's title (a first heading of level 1 or 2 above
    every question, none taken yet) and the blocks under it, or the title as it was and
    every block of the segment (text that is no question)."""
    if heading and not title and heading.level <= 2 and not after_questions:
        return _title(_heading_text(lines, heading)), body
    return title, segment


def _read_markdown(text: str, path: str) -> Reading:
    """The questions of ``text``, those that mark no choice answered by its answer key (see
    answer_key.py), read with the key's lines blank: they are no question's text."""
    if callouts.has_quiz(text):  # "> [!question] …" and "> [!success]- Answer" boxes
        text = callouts.unfolded(text, page.code_lines(text))
    key = answer_key.find(text)
    reading = _read_page(answer_key.blanked(text, key) if key else text, path, key)
    if key is None:
        return reading
    said: list[Diagnostic] = []
    lines = text.split("\n")
    sections = []
    for section in reading.sections:
        items, more = _keyed(list(section.items), key, lines, path)
        said += more
        if items:
            sections.append(Section(title=section.title, path=section.path, items=tuple(items)))
    if not reading.sections:
        said += answer_key.unused(key, set(), path)
    return Reading(tuple(sections), (*reading.problems, *said))


def _read_page(text: str, path: str, key: answer_key.Key | None) -> Reading:
    written = text.split("\n")  # as the author wrote it, for what the problems quote
    text, front = _front_matter(text)
    lifted: list[Diagnostic] = []
    text = _questions_without_headings(_fences_under_choices(text), path, lifted)
    front_prompt = next((front[k] for k in _FRONT_PROMPT_KEYS if front.get(k)), "")
    front_explanation = next((front[k] for k in _FRONT_EXPLANATION_KEYS if front.get(k)), "")
    blocks = _blocks(text)
    # The right choice in bold, in a file with no "- [ ]" lists and no answer lines.
    bold = not any(b.task is not None for b in page.blocks(text)) \
        and not lettered.has_lettered(text, key)
    headed = _headed(text, blocks, bold)
    if headed != text:  # numbered questions, now headings: their blocks again
        text, blocks = headed, _blocks(headed)
    lines = text.split("\n")
    problems: list[Diagnostic] = list(lifted)
    items: list[Item] = []
    title = ""
    bold = bold and not any(_is_task_list(b, lines) for b in blocks)
    asked = _asked(blocks, lines) if bold else frozenset()
    segments = _segments(blocks, asked, lines)
    question_level = 0  # the heading level of the last question read
    labels: list[tuple[int, str]] = []  # where "- [ ]" choices' own letters were left out
    scenario: tuple[str, int] | None = None  # a heading the next question's prompt opens with
    for number, segment in enumerate(segments):
        if not segment:
            continue
        heading = segment[0] if segment[0].kind == "heading" else None
        body = segment[1:] if heading else segment
        lists = [k for k, b in enumerate(body) if _is_choice_list(b, lines, asked)]
        if not lists and _more_explanation(items, heading, question_level, lines, segment):
            continue
        if not lists and heading and _opens_question(segment, segments, number, lines,
                                                        written):
            # A scenario heading right above the question's, at its level, with no choices
            # of its own: the page shows one question, so its prompt opens with it.
            scenario = (_scenario_text(lines, segment), heading.start + 1)
            question_level = 0
            continue
        level = _widget_read(segment, lists, lines, path, items, problems)
        if level is not None:  # choices written in HTML (see _widget_question)
            question_level = level
            continue
        if not lists:
            question_level = 0
            title, unread = _title_or_text(title, heading, bool(items), lines, body, segment)
            problems += _not_converted(unread, written, path)
            continue
        first = lists[0]
        choices_block = body[first]
        head = _heading_text(lines, heading) if heading else ""
        head = lettered.unnumbered(head.strip())
        start = heading.end if heading else body[0].start
        between = _text(lines, start, choices_block.start)
        opening, scenario_line = scenario or ("", 0)
        scenario = None
        if between and cues.question_label(head):
            head = ""  # "# Frage 12" over its text: the page's numbering, not the question's
        prompt = "\n\n".join(part for part in (opening, head, between) if part)  # as blocks
        explanation_end = segment[-1].end
        for later in lists[1:]:
            extra = body[later]
            problems.append(error("E702", path, extra.start + 1,
                                  "a second list of '- [ ]' choices under one heading: it was "
                                  "not converted; give each question its own heading"))
            # The paragraph right above it is that question's text, not this one's.
            above = body[later - 1] if later - 1 > first else None
            explanation_end = min(explanation_end, above.start if above is not None
                                  and above.kind == "paragraph" else extra.start)
        explanation = _without_navigation(_text(lines, choices_block.end, explanation_end))
        if front_prompt and not items and not heading:
            # One question a file, its text in the front matter: "question: …".
            prompt = "\n\n".join(p for p in (front_prompt.strip(), prompt) if p)
            explanation = "\n\n".join(p for p in (explanation, front_explanation.strip())
                                       if p)
        line = scenario_line or (heading or body[0]).start + 1
        question_level = heading.level if heading else 0
        if not prompt:
            problems.append(error("E702", path, line, "a list of '- [ ]' choices without a "
                                  "question above it was not converted"))
            continue
        read, prompt, explanation = _choices(lines, choices_block, prompt, explanation,
                                             heading is not None, labels)
        if not any(choice.correct for choice, _ in read):
            read, explanation = _answered_in_words(read, explanation)
        if any(inlined for _, inlined in read):
            problems.append(warning("W702", path, choices_block.start + 1, "a choice that is "
                                    "only a one-line code block became inline code on its "
                                    "line (a question file's choice starts with a line of "
                                    "text)"))
        items.append(Item(prompt=prompt, explanation=explanation, path=path, line=line,
                          choices=tuple(choice for choice, _ in read)))
    if not items:
        items, problems, title = _lettered_instead(text, path, key, blocks, problems)
    items = [_signs_read(item, problems) for item in items]
    problems += _labels_said(labels, path)
    section = Section(title=title or title_from_name(path), items=tuple(items), path=path)
    return Reading((section,) if items else (), tuple(problems))


def _lettered_instead(text: str, path: str, key: answer_key.Key | None, blocks: list[_Block],
                      problems: list[Diagnostic]) -> tuple[list[Item], list[Diagnostic], str]:
    """A file with no "- [ ]" lists read for lettered choices and answer lines instead (see
    lettered.py): its questions, what is said of it and its title (the heading above its
    questions). Where that reading finds no question to read nor to refuse, ``problems``
    (the blocks not read, said as text) stay: the file is never silent; and lettered
    choices that nothing answers are said where they are (lettered.unanswered)."""
    if not lettered.has_lettered(text, key):
        more = [] if any(p.is_error for p in problems) else lettered.unanswered(text, path)
        return [], [*problems, *more], ""
    items, said = lettered.read(text, path, key)
    if not items and not said:  # choices and an answer, but no question's header over them
        more = [] if any(p.is_error for p in problems) else lettered.unheaded(text, path)
        return [], [*problems, *more], ""
    lines = text.split("\n")
    first = min([item.line for item in items] + [p.line for p in said if p.is_error],
                default=len(lines) + 1)
    title = next((_title(_heading_text(lines, b)) for b in blocks  # above the questions
                  if b.kind == "heading" and b.level <= 2 and b.start + 1 < first), "")
    return items, said, title or (title_from_name(path) if items else "")


def _signs_read(item: Item, problems: list[Diagnostic]) -> Item:
    """``item`` without the signs beside its choices that say which are right ("- [ ] Sky
    ✅", "A) Ice ✅" over "Answer: A"), see cues.marked: they are its answer where nothing
    else marks one; where something does and they differ, that is said (W711) and the
    other mark taken."""
    heads = [choice.text.split("\n", 1) for choice in item.choices]
    signs = cues.marked([head[0] for head in heads])
    if signs is None:
        return item
    marked = any(choice.correct for choice in item.choices)
    if marked and [right for _, right in signs] != [c.correct for c in item.choices]:
        problems.append(warning("W711", item.path, item.line, "the signs beside the choices "
                                "(✅, \"(correct)\") mark other choices than its answer "
                                "does; the answer was taken"))
    return Item(prompt=item.prompt, explanation=item.explanation, path=item.path,
                line=item.line, where=item.where, media=item.media, choices=tuple(
                    Choice("\n".join([text, *head[1:]]), choice.correct if marked else right)
                    for (text, right), head, choice in zip(signs, heads, item.choices)))
