"""Text of a Moodle question (Moodle XML, GIFT) as Moodle shows it in a browser, written
as the question file's Markdown, and the letters authors write into every answer.

What the browser shows of a question's HTML is its text with the tags rendered and each
entity read once. Three things in that text would read otherwise in Markdown, so they are
written to show the same on the card:

- **Math.** Moodle's TeX filter reads ``$$…$$``; its MathJax filter ``\\(…\\)`` and
  ``\\[…\\]``. A card shows MathJax's two (docs/card.md), so ``$$…$$`` becomes ``\\(…\\)``
  where it stands in running text (the TeX filter shows it in the line) and ``\\[…\\]``
  where it is alone in its paragraph (shown on its own line either way). Math is kept as
  written: nothing inside it is escaped, so backslashes, underscores and ``*`` reach
  MathJax.
- **Markdown's punctuation in plain text.** ``_x_``, ``*a*``, ``[1](x)``, a backquote or a
  backslash show as typed in a browser; written as they are, Markdown would make emphasis,
  links, code of them or eat the backslash. They are written with a backslash before them
  (a ``[`` never: ``\\[`` opens a card's math; its ``]`` escaped, no link is made).
  An ``_`` or ``*`` between two letters or digits (``snake_case``, ``4*8``) is never
  emphasis and stays as typed. A line the browser starts (at the text's start, after a
  block tag or ``<br>``, or a line break) with ``- ``, ``+ ``, ``# `` or ``> `` is a line
  of text, not a list item, a heading or a quote: its mark is escaped too.
- **An entity written twice** (``&amp;lt;``, ``&amp;nbsp;``, ``&amp;#39;`` in the HTML):
  the browser reads it once and shows ``&lt;``, ``&nbsp;``, ``&#39;`` as text; Markdown
  would read it a second time. Its ``&`` is written ``\\&``. In plain text (``plain_text``,
  GIFT's ``[plain]``) every entity is shown as typed, so each ``&`` of one is.

One pass over the text, each math opener looking its closer up once (a closer never found
is remembered), so the time is linear in the text.

Labels: when every answer of a question starts with its own letter, in order and written
alike (``a. Paris``, ``A) Paris``, ``(a) Paris``, ``a- Paris``, ``a.- Paris``, ``1. …``),
Moodle numbers the answers itself and a card letters its choices itself: the labels are
left out, said once per file (W716).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing import choice_labels
from nca_anki.importing.bank import Choice, Section, html_to_markdown

# --- text --------------------------------------------------------------------------------------

# In text outside tags and math: the characters that are Markdown's structure inline. "]"
# is escaped, never "[": "\\[" opens a card's math, and a "[" whose "]" is escaped makes no
# link; a "~" only before another ("~~" strikes).
_PUNCTUATION_RE = re.compile(r"[\\`\]*_]|~(?=~)")
# An entity's "&" that Markdown would read: in HTML, of one written twice ("&amp;lt;", which
# the browser shows as "&lt;"); in plain text, of any ("&lt;" typed is shown as typed).
_ENTITY = r"(?=#\d{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{1,31};)"
_TWICE_RE = re.compile(r"&amp;" + _ENTITY)
_TYPED_RE = re.compile(r"&" + _ENTITY)
# A mark that makes a line one of Markdown's blocks: a list item, a heading, a quote.
# (A heading's run of "#", a list item's "-"/"+" or "1."/"1)" (its "." or ")" escaped), a
# line of "="/"-" alone, which underlines the line above as a heading.)
_BLOCK_MARK_RE = re.compile(r"^(\s*)(?:([-+>]|#{1,6}|&gt;)(?=\s|$)|(\d{1,9})([.)])(?=\s|$)|"
                            r"([=-])(?=[=-]*[ \t]*$))")
# Tags after which the browser starts a new line.
_BLOCK_TAG_RE = re.compile(r"</?(?:p|div|br|li|ul|ol|h[1-6]|t[dhr]|table|blockquote|pre|"
                           r"center|section|article|header|footer|d[tdl]|figure|figcaption|"
                           r"caption|summary|details|hr)\b", re.I)
_OPENERS = {"$$": "$$", "\\(": "\\)", "\\[": "\\]"}
_OPENER_RE = re.compile(r"\$\$|\\\(|\\\[|<[^<>]*>")
# Tags inside a line of text: math next to them is in running text, not alone.
_INLINE_TAG_RE = re.compile(r"</?(?:a|b|strong|i|em|u|span|font|code|tt|sub|sup|small|big|"
                            r"mark|abbr|cite|label)\b", re.I)


def moodle_html(text: str, answer: bool = False) -> str:
    """Moodle's HTML (``html``, ``moodle_auto_format``) as Markdown that the card shows as
    the browser shows the HTML (see the module's docstring). An ``answer`` is one line on
    the card: its ``$$…$$`` is inline math even where it is all the answer holds."""
    return html_to_markdown(_prepared(text, answer=answer))


def moodle_plain(text: str, answer: bool = False) -> str:
    """Moodle's plain text (``plain_text``, GIFT's ``[plain]``) as Markdown showing it as
    typed: its math kept, its Markdown punctuation escaped."""
    return _prepared(text, html=False, answer=answer)


def moodle_markdown(text: str, answer: bool = False) -> str:
    """Moodle's Markdown (``markdown``) kept as written, its ``$$…$$`` math written as a
    card shows math (``\\(…\\)``, or ``\\[…\\]`` alone in its paragraph), as for HTML:
    Moodle's TeX filter reads ``$$`` in any format."""
    return "".join(_math(text, start, end, answer) if kind == "math" else text[start:end]
                   for kind, start, end in _pieces(text))


def _escaped(text: str, html: bool, line_start: bool) -> str:
    """Plain ``text`` written to show as typed: Markdown's punctuation escaped (see
    _PUNCTUATION_RE), and a line that starts with a mark of Markdown's blocks ("- ",
    "+ ", "# ", "> ", ``&gt;`` in HTML) written with that mark escaped; ``line_start``
    says whether ``text`` starts a line."""
    def one(match: re.Match[str]) -> str:
        found, at = match[0], match.start()
        if found in "*_" and 0 < at < len(text) - 1 and text[at - 1].isalnum() and \
                text[at + 1].isalnum():
            return found  # inside a word: never emphasis
        return "\\" + found
    escaped = (_TWICE_RE if html else _TYPED_RE).sub(r"\\\g<0>", _PUNCTUATION_RE.sub(one, text))
    lines = escaped.split("\n")
    return "\n".join(_BLOCK_MARK_RE.sub(_mark_escaped, line) if k or line_start else line
                     for k, line in enumerate(lines))


def _mark_escaped(match: re.Match[str]) -> str:
    """A line's mark of Markdown's blocks (_BLOCK_MARK_RE) written to show as typed."""
    if match[3]:  # "1." or "1)": its "." or ")" escaped
        return f"{match[1]}{match[3]}\\{match[4]}"
    return f"{match[1]}\\{match[2] or match[5]}"


class _Closers:
    """Where the next closer of each math opener is, each looked up once: a search that
    found nothing says so for every later opener of its kind."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: dict[str, int] = {}

    def after(self, closer: str, start: int) -> int:
        known = self.found.get(closer)
        if known is not None and (known < 0 or known >= start):
            return known
        self.found[closer] = self.text.find(closer, start)
        return self.found[closer]


def _prepared(text: str, html: bool = True, answer: bool = False) -> str:
    """``text`` with its plain text escaped for Markdown and its math written as a card
    shows math (see the module's docstring); tags are left to html_to_markdown."""
    out: list[str] = []
    line_start = True
    for kind, start, end in _pieces(text):
        piece = text[start:end]
        if kind == "text":
            out.append(_escaped(piece, html, line_start))
            line_start = _starts_next(piece, line_start)
        elif kind == "tag":
            out.append(piece if html else _escaped(piece, html, line_start))
            line_start = bool(html and _BLOCK_TAG_RE.match(piece))
        else:
            out.append(_math(text, start, end, answer))
            line_start = False
    return "".join(out)


def _starts_next(piece: str, line_start: bool) -> bool:
    """Whether what follows the text ``piece`` starts a line."""
    if not piece.strip():
        return line_start or "\n" in piece
    return "\n" in piece[len(piece.rstrip()):]


def _pieces(text: str) -> Iterator[tuple[str, int, int]]:
    """``text`` cut into its plain text, its tags and its math (each math from its opener
    to the end of its closer), in order: (kind, start, end)."""
    closers = _Closers(text)
    k = 0
    while (match := _OPENER_RE.search(text, k)) is not None:
        if match.start() > k:
            yield "text", k, match.start()
        found = match[0]
        if found.startswith("<"):
            yield "tag", match.start(), match.end()
            k = match.end()
            continue
        end = closers.after(_OPENERS[found], match.end())
        if end < 0 or end == match.end():
            yield "text", match.start(), match.end()  # an opener never closed is text
            k = match.end()
            continue
        yield "math", match.start(), end + 2
        k = end + 2
    if k < len(text):
        yield "text", k, len(text)


def _math(text: str, start: int, end: int, answer: bool) -> str:
    """The math at ``start:end`` as a card shows math: ``$$…$$`` as ``\\(…\\)``, or as
    ``\\[…\\]`` alone in its paragraph (never in an ``answer``); the rest as written."""
    if not text.startswith("$$", start):
        return text[start:end]
    inside = text[start + 2:end - 2]
    alone = not answer and _alone(text, start, end)
    return f"\\[{inside}\\]" if alone else f"\\({inside}\\)"


def _alone(text: str, start: int, end: int) -> bool:
    """Whether the math at ``start:end`` is alone in its paragraph or line: only spaces
    between it and the tag, line break or edge on each side, and no inline tag there."""
    before = text[max(0, start - 200):start]
    after = text[end:end + 200]
    left = before[max(before.rfind("\n"), before.rfind(">")) + 1:]
    right = after[:min(p for p in (after.find("\n"), after.find("<"), len(after)) if p >= 0)]
    if left.strip() or right.strip():
        return False
    tag_before = before[before.rfind("<"):] if before.rstrip().endswith(">") else ""
    tag_after = after.lstrip()
    tag_after = tag_after[:tag_after.find(">") + 1] if tag_after.startswith("<") else ""
    return not any(_INLINE_TAG_RE.match(tag) for tag in (tag_before, tag_after) if tag)


# --- blank answers ------------------------------------------------------------------------------


def blank_answers_problem(choices: list[Choice], blank: int, blank_right: bool, path: str,
                          line: int) -> Diagnostic | None:
    """Why a question of ``blank`` blank answers (no text, no picture; one of them right:
    ``blank_right``) left out as Moodle leaves them out, with ``choices`` kept, is no
    question; None if it still is one (or none was blank: the usual reasons apply).

    Moodle saves no answer whose text is blank, so its students never see one: the true
    reason is the blank answers, not "fewer than two answers" or "none right"."""
    if not blank:
        return None
    fix = "write each answer's text (a picture counts); not converted"
    if not choices:
        return error("E702", path, line, f"all {blank} of its answers are blank, and Moodle "
                     f"leaves a blank answer out, so it shows no choice; {fix}")
    total = blank + len(choices)
    if len(choices) < 2:
        return error("E702", path, line, f"{blank} of its {total} answers "
                     f"{'is' if blank == 1 else 'are'} blank, and Moodle leaves a blank answer "
                     f"out: fewer than two are left; {fix}")
    if blank_right and not any(c.correct for c in choices):
        return error("E703", path, line, f"its right answer is blank, and Moodle leaves a "
                     f"blank answer out: no right one is left; {fix}")
    return None


# --- labels ------------------------------------------------------------------------------------

# A choice's own label written into its text, and when every answer has one: the rule every
# reader shares (choice_labels.py).
_LABEL_RE = choice_labels.LABEL_RE


def without_labels(sections: list[Section], path: str, shown: Iterable[str] = ()
                   ) -> tuple[list[Section], list[Diagnostic]]:
    """``sections`` with the labels written into their choices' texts left out, and one
    W716 at the first such question saying how many there were.

    A label the file's other texts name (``shown``: its descriptions, with every prompt
    of the file) is the answer's content, not its numbering: a reading passage headed
    "A. Liam …", "B. Wim …" and answers "A. Liam …" that name its parts keep their
    letters."""
    named = _named(itertools.chain(shown, (item.prompt for section in sections
                                           for item in section.items)))
    done = choice_labels.left_out(sections, lambda item, starts: any(
        _key(c.text[:at], c.text[at:]) in named for c, at in zip(item.choices, starts)))
    if done.first is None:
        return sections, []
    return list(done.sections), [warning("W716", path, done.first.line, (
        f"every answer of {done.count} question{'s' if done.count > 1 else ''} starts with "
        f"its own letter ('{done.label} …' first), which the card shows itself: the letters "
        "were left out"))]


_NAMED_WORDS = 3  # a labelled line is named by its letter and its first words, up to these


def _key(label: str, text: str) -> tuple[str, str]:
    """A labelled text as another text may name it: its letter, and its first words (at
    most _NAMED_WORDS), without Markdown's escapes and emphasis, in lower case."""
    letter = re.sub(r"[^A-Za-z0-9]", "", label).lower()
    words = re.sub(r"[\\*_`]", "", text).lower().split()
    return letter, " ".join(words[:_NAMED_WORDS])


def _named(texts: Iterable[str]) -> set[tuple[str, str]]:
    """The labelled lines of ``texts`` ("A. Liam Hoekstra" over a paragraph), each by its
    letter and its first one, two and three words: a set looked up once per answer."""
    named: set[tuple[str, str]] = set()
    for text in texts:
        for line in text.split("\n"):
            match = _LABEL_RE.match(line.strip())
            if match is None:
                continue
            letter, words = _key(match[0], line.strip()[match.end():])
            split = words.split()
            named.update((letter, " ".join(split[:n])) for n in range(1, len(split) + 1))
    return named
