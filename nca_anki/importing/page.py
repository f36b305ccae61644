"""A Markdown file as the page GitHub shows: its blocks, found once by markdown-it-py
(CommonMark with tables and strikethrough, as GitHub renders), each with its place in the
input and the text written there.

    page = blocks(text)
    page[3].kind == "item", page[3].ordered, page[3].number == 12, page[3].task == "x"

The readers find a question's structure here: what is a heading, a list item, a quote,
code or the inside of a ``<details>`` block is the tree's decision, not a pattern over
lines (a ``# comment`` in a fenced block is code; a line that goes on a list item's
paragraph without its indent belongs to the item). Nothing is rendered: each block's
text is its lines of the input as written. HTML blocks stay HTML; ``widget_choices``
reads the quiz widgets written in them (buttons that say which choice is right).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from typing import Any

KINDS = ("heading", "paragraph", "item", "quote", "code", "html", "table", "rule")
_KIND_OF = {"heading_open": "heading", "paragraph_open": "paragraph",
            "list_item_open": "item", "blockquote_open": "quote", "fence": "code",
            "code_block": "code", "html_block": "html", "table_open": "table", "hr": "rule"}
_TASK_RE = re.compile(r"^\[(?P<mark>[ xX])\](?:[ \t]|$)")
_DETAILS_RE = re.compile(r"<(/?)details\b[^<>]*>", re.I)


@dataclass(frozen=True, kw_only=True)
class Block:
    """One block of the page. ``first`` and ``last`` are its lines in the input (1-based,
    both included); ``text`` is those lines as written (list marks and quote marks
    included), ``content`` what the block holds without them (markdown-it's: a
    paragraph's or heading's inline text, a code block's code)."""

    kind: str  # one of KINDS
    first: int
    last: int
    content: str = ""
    level: int = 0  # a heading's level
    depth: int = 0  # how many lists this block is in (an item: its own list counted)
    ordered: bool = False  # an item of an ordered list
    number: int | None = None  # an ordered item's number
    bullet: str = ""  # an item's mark: "-", "*", "+", or "." / ")" after a number
    task: str | None = None  # an item's box: " " or "x" ("[ ]" / "[x]"), None without
    fenced: bool = False  # code between fences (else indented)
    info: str = ""  # a fence's info string ("python")
    setext: bool = False  # a heading written as a line over "===" or "---"
    parent: int = -1  # the index of the item or quote this block is in, -1 at the top
    emphasised: bool = False  # all its text in bold or italic ("**Packets**")
    label: str = ""  # the bold words it starts with, before more text ("Answer:")
    in_quote: bool = False
    in_details: bool = False  # after a <details> tag (in an earlier block) not yet closed
    source: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @property
    def text(self) -> str:
        return "\n".join(self.source[self.first - 1:self.last])


@lru_cache(maxsize=4)  # the readers of one file ask for its blocks in turn
def blocks(text: str) -> tuple[Block, ...]:
    """``text``'s blocks, in the order they start (an item before the blocks it holds),
    in time linear in ``text`` (markdown-it nests at most 20 deep)."""
    from markdown_it import MarkdownIt  # the renderer's engine, loaded when it is used

    tokens = MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(text)
    source = tuple(text.split("\n"))
    found: list[Block] = []
    open_: list[tuple[str, int]] = []  # the containers we are in: (kind, index)
    details = 0  # <details> tags opened and not closed
    for k, token in enumerate(tokens):
        if token.nesting == -1:
            if token.type in ("list_item_close", "blockquote_close"):
                open_.pop()
            continue
        if token.type == "inline":
            details = _count_details(token.children or [], details)
            continue
        kind = _KIND_OF.get(token.type)
        if kind is None or token.map is None:
            continue
        block = _block(token, tokens, k, kind, open_, source, in_details=details > 0)
        found.append(block)
        if kind in ("item", "quote"):
            open_.append((kind, len(found) - 1))
        if kind == "html":
            details = _details_after(token.content, details)
    return tuple(found)


def code_lines(text: str) -> list[bool]:
    """For each line of ``text``, whether the page shows it as code: a fenced block and
    its fences, or an indented block. A fence never closed is taken as none (an author's
    slip, that would make the rest of the file code)."""
    code = [False] * (text.count("\n") + 1)
    for block in blocks(text):
        if block.kind == "code" and _closed(block):
            code[block.first - 1:block.last] = [True] * (block.last - block.first + 1)
    return code


def _closed(block: Block) -> bool:
    """Whether a code block ends where it is closed (a fenced one by its fence)."""
    if not block.fenced:
        return True
    opening = block.source[block.first - 1].strip()
    closing = block.source[block.last - 1].strip()
    return block.last > block.first and bool(closing) and \
        not closing.strip(closing[0]) and opening.startswith(closing[0] * len(closing))


def _block(token: Any, tokens: list[Any], k: int, kind: str, open_: list[tuple[str, int]],
           source: tuple[str, ...], in_details: bool) -> Block:
    inline = tokens[k + 1] if kind in ("heading", "paragraph") else None
    if kind == "item":  # its first paragraph's inline token
        inline = next((t for t in tokens[k + 1:k + 4] if t.type == "inline"), None)
    children = (inline.children or []) if inline is not None else []
    content = token.content if kind in ("code", "html") else (
        inline.content if inline is not None else "")
    task = _TASK_RE.match(content) if kind == "item" else None
    ordered = kind == "item" and token.markup in (".", ")")
    return Block(
        kind=kind, first=token.map[0] + 1, last=max(token.map[1], token.map[0] + 1),
        content=content, source=source,
        level=int(token.tag[1]) if kind == "heading" else 0,
        depth=sum(1 for kind_, _ in open_ if kind_ == "item") + (kind == "item"),
        ordered=ordered, number=int(token.info) if ordered and token.info.isdigit() else None,
        bullet=token.markup if kind == "item" else "",
        task=(task["mark"].lower() if task else None),
        fenced=token.type == "fence", info=token.info.strip() if token.type == "fence" else "",
        setext=kind == "heading" and token.markup in ("=", "-"),
        parent=open_[-1][1] if open_ else -1,
        emphasised=_emphasised(children), label=_label(children),
        in_quote=any(kind_ == "quote" for kind_, _ in open_) or kind == "quote",
        in_details=in_details)


_STRONG = ("strong_open", "em_open")


def _significant(children: list[Any]) -> list[Any]:
    return [c for c in children if not (c.type in ("text", "softbreak") and not c.content.strip())]


def _emphasised(children: list[Any]) -> bool:
    """Whether the inline ``children`` are one bold or italic span and nothing else (or a
    ``<b>``/``<strong>`` element)."""
    shown = _significant(children)
    if len(shown) < 3:
        return False
    if shown[0].type in _STRONG:
        depth = 0
        for n, child in enumerate(shown):
            depth += child.nesting if child.type.startswith(("strong_", "em_")) else 0
            if depth == 0:
                return n == len(shown) - 1
        return False
    opened = re.fullmatch(r"<(b|strong|em|i)>", shown[0].content.strip(), re.I) \
        if shown[0].type == "html_inline" else None
    return opened is not None and shown[-1].type == "html_inline" and \
        shown[-1].content.strip().lower() == f"</{opened[1].lower()}>"


def _label(children: list[Any]) -> str:
    """The bold words the inline ``children`` start with, when more text follows them."""
    shown = _significant(children)
    if len(shown) < 4 or shown[0].type != "strong_open":
        return ""
    words: list[str] = []
    for n, child in enumerate(shown[1:], start=1):
        if child.type == "strong_close":
            return "".join(words).strip() if n + 1 < len(shown) else ""
        words.append(child.content)
    return ""


def _count_details(children: list[Any], details: int) -> int:
    for child in children:
        if child.type == "html_inline":
            details = _details_after(child.content, details)
    return details


def _details_after(html: str, details: int) -> int:
    """How many <details> are open after ``html``, ``details`` being open before it."""
    for tag in _DETAILS_RE.finditer(html):
        details = max(0, details - 1) if tag[1] else details + 1
    return details


# --- quiz widgets in HTML ---------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class WidgetChoice:
    """A choice written as an HTML element whose markup says whether it is right."""

    text: str  # its text as the page shows it
    right: bool | None  # None: its markup does not say
    feedback: str  # a text its markup holds for the page to show when it is picked
    line: int  # its line in the HTML given, 1-based
    tag: str  # its element: "button", "li", "input" …


# The elements a quiz writes a choice as, and its marks of the right one.
_CHOICE_TAGS = frozenset({"button", "li", "label", "a", "div", "span", "input", "option"})
_TRUE = frozenset({"true", "1", "yes", "correct", "right"})
_FALSE = frozenset({"false", "0", "no", "wrong", "incorrect"})
_INLINE_TAGS = frozenset({"b", "strong", "i", "em", "code", "span", "u", "sub", "sup", "kbd"})
_RIGHT_CLASSES = frozenset({"correct", "right", "right-answer", "correct-answer"})
_WRONG_CLASSES = frozenset({"wrong", "incorrect", "wrong-answer"})
_CLASS_MARKS = _RIGHT_CLASSES | _WRONG_CLASSES
_CALL_RE = re.compile(r"^\s*[\w$.]+\s*\((?P<args>.*)\)\s*;?\s*(?:return\s+false\s*;?\s*)?$", re.S)
_ARG_RE = re.compile(r"""\s*(?:'(?P<single>(?:[^'\\]|\\.)*)'|"(?P<double>(?:[^"\\]|\\.)*)"|"""
                     r"""(?P<bare>[^,'"]+?))\s*(?:,|$)""", re.S)


def _arguments(call: str) -> list[str | bool] | None:
    """The literal arguments of ``call`` ("check(this, 'q1', true)"): strings, booleans
    (``true``/``false``), and other words as written; None if it is not one call."""
    found = _CALL_RE.match(call)
    if not found:
        return None
    args: list[str | bool] = []
    at, text = 0, found["args"]
    while at < len(text):
        arg = _ARG_RE.match(text, at)
        if arg is None or arg.end() == at:
            return None
        quoted = arg["single"] if arg["single"] is not None else arg["double"]
        bare = (arg["bare"] or "").strip()
        args.append(quoted.replace("\\'", "'").replace('\\"', '"') if quoted is not None
                    else (bare == "true") if bare in ("true", "false") else bare)
        at = arg.end()
    return args


def _mark(attrs: dict[str, str]) -> tuple[bool | None, list[str | bool] | None]:
    """What an element's attributes say of it: right, wrong or nothing (None); and its
    onclick call's arguments, to be told apart from its siblings'."""
    for name in ("data-correct", "data-right", "data-answer", "data-is-correct"):
        value = attrs.get(name, "").strip().lower()
        if value in _TRUE or value in _FALSE:
            return value in _TRUE, None
    classes = set(attrs.get("class", "").lower().split())
    if classes & _RIGHT_CLASSES:
        return True, None
    if classes & _WRONG_CLASSES:
        return False, None
    call = attrs.get("onclick")
    return None, _arguments(call) if call else None


class _Widgets(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, Any]] = []
        self.open: list[dict[str, Any]] = []  # the choice elements being read

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _CHOICE_TAGS:
            return
        values = {name.lower(): value or "" for name, value in attrs}
        right, args = _mark(values)
        classes = frozenset(values.get("class", "").lower().split()) - _CLASS_MARKS
        if right is None and args is None and not classes:
            return
        call = re.match(r"\s*([\w$.]+)", values.get("onclick", ""))
        choice = {"right": right, "args": args, "text": [], "line": self.getpos()[0],
                  "tag": tag, "kind": (call[1] if call else "", len(args or ())),
                  "classes": classes}
        self.found.append(choice)
        while self.open and self.open[-1]["tag"] == "input":
            self.open.pop()  # an <input>'s text is the text after it, up to the next one
        self.open.append(choice)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1]["tag"] == "input" and tag not in _INLINE_TAGS:
            self.open.pop()
        if self.open and self.open[-1]["tag"] == tag:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for choice in self.open[-1:]:
            choice["text"].append(data)


def widget_choices(html: str) -> list[WidgetChoice]:
    """The choices written in ``html`` as elements whose markup says which is right: an
    ``onclick`` call whose one boolean argument is ``true`` for some and ``false`` for the
    others, ``data-correct="true"`` (``data-answer``, ``data-right``), or a class
    ``correct``/``right``. A string argument of a call that only some choices give is the
    feedback the page shows. Where the marks do not tell, each choice's ``right`` is None."""
    parser = _Widgets()
    parser.feed(html)
    parser.close()
    found = _one_kind(parser.found)
    rights = _call_marks([c["args"] for c in found])
    out = []
    for n, choice in enumerate(found):
        right = choice["right"] if choice["args"] is None else rights[n][0]
        out.append(WidgetChoice(text=" ".join("".join(choice["text"]).split()),
                                right=right, feedback=rights[n][1] if choice["args"] else "",
                                line=choice["line"], tag=choice["tag"]))
    return out


def _one_kind(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The elements that are a question's choices: those marked by attributes (with the
    unmarked ones of their tag and class, the wrong ones), or else those whose onclick
    calls are of the kind most of them make (one function, as many arguments); another
    button ("restartQuiz()") is no choice."""
    marked = [c for c in found if c["right"] is not None]
    if marked:  # and the elements like them, of the same tag and class, unmarked: wrong
        alike = {(c["tag"], k) for c in marked for k in c["classes"]}
        return [c if c["right"] is not None else {**c, "right": False} for c in found
                if c["right"] is not None or any((c["tag"], k) in alike for k in c["classes"])]
    found = [c for c in found if c["args"] is not None]
    kinds: dict[tuple[str, int], int] = {}
    for choice in found:
        kinds[choice["kind"]] = kinds.get(choice["kind"], 0) + 1
    most = max(kinds.items(), key=lambda kind: kind[1])[0] if kinds else None
    return [c for c in found if c["kind"] == most]


def _call_marks(calls: list[list[str | bool] | None]) -> list[tuple[bool | None, str]]:
    """For each onclick call's arguments, whether the call marks its choice right (the
    one argument place that holds a boolean in every call, ``true`` in some and ``false``
    in the rest), and its feedback (a string at a place where the calls' strings differ)."""
    given = [c for c in calls if c is not None]
    width = {len(c) for c in given}
    if len(given) < 2 or len(width) != 1:
        return [(None, "")] * len(calls)
    places = range(width.pop())
    flags = [p for p in places if all(isinstance(c[p], bool) for c in given)]
    varying = [p for p in places if all(isinstance(c[p], str) for c in given)
               and len({c[p] for c in given}) > 1]
    if len(flags) != 1 or len({c[flags[0]] for c in given}) != 2:
        return [(None, "")] * len(calls)
    return [(None, "") if c is None else (bool(c[flags[0]]), "\n\n".join(
        str(c[p]).strip() for p in varying if str(c[p]).strip())) for c in calls]
