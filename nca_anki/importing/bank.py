"""What every importer reads a bank into: plain records, each question with its place in
the input, whatever the format (importing/markdown.py, json_bank.py, typescript.py,
aiken.py, gift.py).
convert.py writes them out as question files."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.records import LABELS


@dataclass(frozen=True)
class Choice:
    text: str  # Markdown, as this project's question files take it
    correct: bool


@dataclass(frozen=True, kw_only=True)
class Item:
    """One multiple-choice question read from the input."""

    prompt: str
    choices: tuple[Choice, ...]
    explanation: str = ""
    path: str  # the input file, as given
    line: int  # where the question starts in it (1-based)
    where: str = ""  # more of its place, where lines say too little (a JSON path)
    # Images the input carries inside it (Moodle XML's base64 <file>s), by the name its
    # texts show them by: checked images, written beside the question files (convert.py).
    media: tuple[tuple[str, bytes], ...] = ()

    @property
    def place(self) -> str:
        return f"{self.where} " if self.where else ""


@dataclass(frozen=True, kw_only=True)
class Section:
    """Questions the input groups under one title: one part of a topic."""

    title: str
    items: tuple[Item, ...]
    path: str
    # A structured bank's keys, each with the role it was read as, as --map names them
    # (roles.as_map): what --write-settings writes down (settings.py).
    roles: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Reading:
    """What one input file gave: its sections, and what could not be read or converted."""

    sections: tuple[Section, ...]
    problems: tuple[Diagnostic, ...] = field(default=())


# "Q1.", "Q 1:", "Question 1:", "P45." (Pregunta), "Frage 3:", "В12.", "1.", "1)" before a
# question's text (the translations of quiz repositories number their own way).
NUMBERING_RE = re.compile(r"^(?:(?:Q|P|F|D|В|П|Question|Pregunta|Frage|Questão|Domanda|Soru|"
                          r"Вопрос|Питання)\s*#?\s*\d+\s*(?:[.:)-]\s*|\s+)|\d+\s*[.)]\s+)",
                          re.I)  # "Q78.What", "Q54 .Rust": spaces as typed


# A thematic break ("---", "***", "___"): a separator in a Markdown source, not content.
HRULE_RE = re.compile(r"^\s{0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$")


def title_from_name(path: str) -> str:
    """A topic title from a file name without one inside: "gpu-basics_2.md" ->
    "Gpu Basics 2"."""
    words = re.split(r"[-_\s.]+", PurePath(path).stem)
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or "Imported"


def one_line(text: str) -> str:
    return " ".join(text.split())


def category_name(path: str) -> str:
    """A category's own name: the last part of its path ("$course$/Top/GPU basics"), its
    HTML tags gone ("Gift <b>Cat</b>"), "//" read as a "/" in a name, as Moodle writes it."""
    plain = html.unescape(re.sub(r"<[^>\n]*>", "", path))
    parts = [p.replace("\0", "/").strip() for p in plain.replace("//", "\0").split("/")]
    parts = [p for p in parts if p and not re.fullmatch(r"\$\w+\$", p)]
    return " ".join(parts[-1].split()) if parts else ""


# The HTML Moodle's editor writes, as Markdown: emphasis, code, line and paragraph breaks,
# links. Only these tags are read as tags; anything else that looks like one
# ("vector<int>") stays text, and the card escapes it.
# <li><p>text</p></li>: the paragraph's text is the item's, on its number's line as a
# browser shows it, never "1." alone above a paragraph (an empty item in Markdown).
_ITEM_PARAGRAPH_RE = re.compile(r"(<li\b[^<>]*>)\s*<(?:p|div)\b[^<>]*>|</(?:p|div)>\s*(</li>)",
                                re.I)
_INLINE = {"b": "**", "strong": "**", "i": "*", "em": "*", "code": "`", "tt": "`"}
_BREAKS = {"br": "\n", "p": "\n\n", "div": "\n\n", "li": "\n* ", "ul": "\n\n",
           "ol": "\n\n", "span": "", "u": "", "sub": "", "sup": "", "font": "",
           "pre": "\n\n", "h1": "\n\n", "h2": "\n\n", "h3": "\n\n", "h4": "\n\n",
           "h5": "\n\n", "h6": "\n\n",
           # A <details> block is shown open; what is left of a table is a paragraph.
           "details": "\n\n", "summary": "\n\n", "table": "\n\n", "thead": "",
           "tbody": "", "tfoot": "", "tr": "\n\n", "th": "\n\n", "td": "\n\n",
           "caption": "\n\n",
           # Other elements a page writes around text: the text is what it shows.
           "label": "", "small": "", "big": "", "mark": "", "abbr": "", "cite": "",
           "center": "\n\n", "section": "\n\n", "article": "\n\n", "header": "\n\n",
           "footer": "\n\n", "figure": "\n\n", "figcaption": "\n\n", "dl": "\n\n",
           "dt": "\n\n", "dd": "\n\n", "blockquote": "\n\n", "hr": "\n\n"}
# As a browser reads them: a comment, a style or a script never closed runs to the end;
# an <xml> or <head> never closed is left (stopping at the next one keeps it linear).
_UNSEEN_RE = re.compile(r"<!--.*?(?:-->|\Z)|<(style|script)\b.*?(?:</\1\s*>|\Z)"
                        r"|<(xml|head)\b(?:(?!<\2\b).)*?</\2\s*>"
                        r"|</?[a-z]+:[a-z]+\b[^<>]*>|<(?:link|meta)\b[^<>]*>", re.I | re.S)
# Spaces just inside emphasis ("<b>Reference: </b>see") go just outside it: "**Reference: **"
# is no emphasis in Markdown, so the card would show the asterisks. Empty emphasis goes.
_EMPHASIS_OPEN_SPACE_RE = re.compile(r"(<(?:b|strong|i|em)\b[^<>]*>)((?:\s|&nbsp;)+)", re.I)
_EMPHASIS_CLOSE_SPACE_RE = re.compile(r"((?:\s|&nbsp;)+)(</(?:b|strong|i|em)\s*>)", re.I)
_EMPTY_EMPHASIS_RE = re.compile(r"<(b|strong|i|em)\b[^<>]*></\1\s*>", re.I)
_SUP_RE = re.compile(r"<(sup|sub)>\s*([0-9+\-n]{1,4})\s*</\1>", re.I)
_SUPERSCRIPT = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")
_SUBSCRIPT = str.maketrans("0123456789+-n", "₀₁₂₃₄₅₆₇₈₉₊₋ₙ")
_TAG_RE = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]*)\b([^<>]*)>")
_SRC_RE = re.compile(r"""\bsrc\s*=\s*["']([^"'<>\s]+)["']""", re.I)
_ALT_RE = re.compile(r"""\balt\s*=\s*["']([^"'<>\[\]]*)["']""", re.I)
_HREF_RE = re.compile(r"""href\s*=\s*["']([^"']*)["']""", re.I)


# A <summary> with its text, an innermost <table> (none inside it), its rows and cells
# (their closing tags optional, as HTML has them). Each pattern stops at the next tag of
# its kind, so a tag never closed costs one look to that next tag.
_SUMMARY_RE = re.compile(r"<summary\b[^<>]*>((?:[^<]|<(?!/?summary\b))*)</summary\s*>", re.I)
_TABLE_RE = re.compile(r"<table\b[^<>]*>((?:[^<]|<(?!/?table\b))*)</table\s*>", re.I)
_ROW_RE = re.compile(r"<tr\b[^<>]*>((?:[^<]|<(?!/?tr\b))*)", re.I)
_CELL_RE = re.compile(r"<t([hd])\b[^<>]*>((?:[^<]|<(?!/?t[hdr]\b))*)", re.I)
_LABEL_WORDS = 6  # a <summary> of at most this many words, no question, is a label


def _summary(match: re.Match[str]) -> str:
    """A <details> block's summary: dropped when it only labels what the block holds
    ("Explanation", "Show answer"), its own paragraph when it says more."""
    shown = " ".join(re.sub(r"<[^<>]*>", " ", match[1]).split())
    if len(shown.split()) <= _LABEL_WORDS and not shown.endswith("?"):
        return "\n\n"
    return f"\n\n{match[1]}\n\n"


def _table(match: re.Match[str]) -> str:
    """An HTML table as Markdown: a table of one-line cells, two columns or more, as a
    GitHub table; any other as its cells' paragraphs, a header cell of one line bold."""
    rows = [[(cell[1].lower() == "h", html_to_markdown(re.sub(r"</t[hd]\s*>", "", cell[2],
                                                                flags=re.I)))
             for cell in _CELL_RE.finditer(re.sub(r"</tr\s*>", "", row[1], flags=re.I))]
            for row in _ROW_RE.finditer(match[1])]
    rows = [row for row in rows if row]
    if not rows:
        return "\n\n"
    width = len(rows[0])
    if width > 1 and all(len(row) == width and all("\n" not in text for _, text in row)
                         for row in rows):
        lines = ["| " + " | ".join(text.replace("|", "\\|") for _, text in row) + " |"
                 for row in rows]
        lines.insert(1, "|" + " --- |" * width)
        return "\n\n" + "\n".join(lines) + "\n\n"
    return "\n\n" + "\n\n".join(f"**{text}**" if head and "\n" not in text else text
                                 for row in rows for head, text in row if text) + "\n\n"


def _blocks_as_markdown(text: str) -> str:
    """``text`` with its <summary> labels gone and its tables, innermost first, as
    Markdown (see _table); tables nested deeper than a few are left to the tag pass."""
    text = _SUMMARY_RE.sub(_summary, text)
    for _ in range(4):
        if "<t" not in text.lower():
            break
        text, found = _TABLE_RE.subn(_table, text)
        if not found:
            break
    return text


def html_to_markdown(text: str, html_ok: bool = True) -> str:
    """Text that may hold the HTML Moodle's editor writes (GIFT, Moodle XML), as Markdown
    (see _INLINE, _BREAKS); as it is if it holds no known tag or entity, or ``html_ok``
    is false (its format is plain text or Markdown)."""
    if not html_ok or ("<" not in text and "&" not in text):
        return text
    # What a browser never shows: comments (Word's <!--[if gte mso 9]> too), style and
    # script blocks, Word's <xml> and namespaced tags (<o:p>), <link> and <meta>.
    text = _UNSEEN_RE.sub("", text)
    given = text  # as it was before its tables and summaries became Markdown
    text = _blocks_as_markdown(text)
    text = _ITEM_PARAGRAPH_RE.sub(lambda m: m[1] or m[2], text)
    text = _emphasis_spaces_outside(text)
    # Exponents and indices as the characters they are: O(n<sup>2</sup>) is O(n²).
    text = _SUP_RE.sub(lambda m: m[2].translate(_SUPERSCRIPT if m[1].lower() == "sup"
                                                else _SUBSCRIPT), text)
    links: list[str] = []

    numbered: list[int] = []  # each open list's next number

    def tag(match: re.Match[str]) -> str:
        closing, name, attributes = match[1], match[2].lower(), match[3]
        if name in _INLINE:
            return _INLINE[name]
        if name in ("ol", "ul"):
            if closing and numbered:
                numbered.pop()
            elif not closing:
                numbered.append(1)
            return _BREAKS[name]
        if name == "li" and not closing and numbered:
            # Numbered, <ul> too: a question file reads a line that starts "- ", "* ", "+ "
            # or "• " as a choice, so a bulleted list in a question would become choices.
            numbered[-1] += 1
            return f"\n{numbered[-1] - 1}. "
        if name in _BREAKS:
            return "" if closing and name in ("li", "br") else _BREAKS[name]
        if name == "img":  # a picture: shown as Markdown shows one, checked by convert.py
            src = _SRC_RE.search(attributes)
            alt = _ALT_RE.search(attributes)
            return f"![{alt[1] if alt else ''}]({src[1]})" if src else ""
        if name == "a":
            if closing:
                return f"]({links.pop()})" if links else ""
            href = _HREF_RE.search(attributes)
            if href and href[1].startswith(("http://", "https://")) and \
                    not re.search(r"\s", href[1].strip()):  # two addresses are no link
                links.append(href[1])
                return "["
            return ""
        return match[0]  # not a tag Moodle's editor writes: text

    converted = _TAG_RE.sub(tag, text)
    if converted == given and "&" not in text:
        return given
    converted = html.unescape(_tags_kept_as_text(converted)).replace("\xa0", " ")
    lines = [" ".join(line.split()) if not line.startswith(("* ", "- ")) else line.rstrip()
             for line in converted.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


# A tag a card keeps (cards/markup.py: <br>, <sub>, <sup>, <kbd>) written with "&lt;": the
# page shows it as text, so the question file says it with "\<", as text, not as a tag.
_ESCAPED_LIVE_TAG_RE = re.compile(r"&(?:lt|#0*60|#x0*3c);(?=/?(?:br|sub|sup|kbd)\b)", re.I)


def _tags_kept_as_text(text: str) -> str:
    r"""``text`` (Markdown with HTML entities) with each tag a card keeps that the page
    wrote escaped ("&lt;br&gt;", a page about HTML) written "\<br>", shown as text; in
    code ("`&lt;br&gt;`") it is text anyway."""
    if "&" not in text:
        return text
    pieces = text.split("`")
    return "`".join(_ESCAPED_LIVE_TAG_RE.sub(r"\\<", piece) if k % 2 == 0 else piece
                    for k, piece in enumerate(pieces))


def _emphasis_spaces_outside(text: str) -> str:
    """``text`` with the spaces just inside each emphasis tag moved outside it (twice: one
    tag may sit inside another) and emphasis left empty by that removed."""
    for _ in range(2):
        text = _EMPHASIS_OPEN_SPACE_RE.sub(r"\2\1", text)
        text = _EMPHASIS_CLOSE_SPACE_RE.sub(r"\2\1", text)
    return _EMPTY_EMPHASIS_RE.sub("", text)


def one_paragraph(text: str) -> str:
    """A choice's text on one line, as a question file holds a choice (its code, in a
    fence, stays as it is)."""
    if "```" in text or "~~~" in text:
        return text
    line = " ".join(text.split())
    # "1. first = x; 2. …" (an <ol> in the answer) stays text, not a list inside the choice
    return re.sub(r"^(\d{1,3})([.)])(?=\s)", r"\1\\\2", line)


def a_kind(kind: str) -> str:
    """ "a matching", "an essay": the article a question type's name takes."""
    return f"{'an' if kind[:1].lower() in 'aeiou' else 'a'} {kind}"


FEEDBACK_JOINED = "feedback on single answers was added to the explanation, one paragraph each"


# More answers than a card could ever show, even with empty ones left out: refused before
# each is converted (a million "~" in one question took half a minute to read).
MAX_ANSWERS = 100


def too_many(count: int, path: str, line: int) -> Diagnostic:
    return error("E704", path, line, f"has {count:,} answers; at most {len(LABELS)} are "
                 "supported; not converted")


def choices_problem(choices: list[Choice], path: str, line: int, no_right: str
                    ) -> Diagnostic | None:
    """Why ``choices`` cannot be a multiple-choice question's (fewer than two, or none
    right: ``no_right`` says how the format marks one), or None."""
    if len(choices) < 2:
        return error("E702", path, line, "fewer than two answers; not converted")
    if not any(c.correct for c in choices):
        return error("E703", path, line, f"{no_right}; not converted")
    return None


# --- answers with credit (GIFT's %weight%, Moodle XML's fraction) ----------------------------

# A number as Moodle writes a fraction ("100", "33.33333", "-50", "100.0"; GIFT's "%50%"),
# in ASCII digits only: float() also takes "nan", "inf", "1_0" and "٥٠".
_CREDIT_RE = re.compile(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*",
                        re.ASCII)
FULL_CREDIT = 100.0
_CLOSE = 1e-3  # of a percent: "99.9999" is written for 100 by some exporters


def credit(raw: str) -> float | None:
    """The credit ``raw`` gives, in percent of the question's marks (100 full, 50 half, a
    negative one a penalty), or None if it is no number from -100 to 100."""
    if not _CREDIT_RE.fullmatch(raw):
        return None
    value = float(raw)
    return value if -FULL_CREDIT - _CLOSE <= value <= FULL_CREDIT + _CLOSE else None


@dataclass(frozen=True)
class Credited:
    """One answer of a format that grades answers, before the card's right/wrong is
    decided: its text, its credit in percent and its line."""

    text: str
    credit: float
    line: int


def credited_choices(answers: list[Credited], single: bool, path: str, line: int
                     ) -> tuple[list[Choice], list[Diagnostic]]:
    """The choices a card shows for ``answers``, and what the card changes.

    A single-answer question (Moodle's "one answer only") is right only with an answer of
    full credit; one of partial credit is counted wrong, which is said at its line, and
    several of full credit (each alone right in Moodle) are all asked for. In a question
    of several answers, those with a positive credit are the right ones, as Moodle grades
    them; Moodle wants their credits to add up to 100%, and says so if not."""
    notes: list[Diagnostic] = []
    if single:
        choices = [Choice(a.text, abs(a.credit - FULL_CREDIT) <= _CLOSE) for a in answers]
        notes += [warning("W702", path, a.line, f"the answer {_quoted(a.text)} gives "
                          f"{_percent(a.credit)} (partial credit) in a question with one right "
                          "answer: the card counts it wrong; only an answer of 100% is right")
                  for a in answers if _CLOSE < a.credit < FULL_CREDIT - _CLOSE]
        full = sum(c.correct for c in choices)
        if full > 1:
            notes.append(warning("W702", path, line, f"{full} answers give full credit in a "
                                 "question with one right answer (each alone is right in "
                                 f"Moodle): the card asks for all {full}"))
        return choices, notes
    choices = [Choice(a.text, a.credit > _CLOSE) for a in answers]
    total = sum(a.credit for a in answers if a.credit > _CLOSE)
    if any(c.correct for c in choices) and abs(total - FULL_CREDIT) >= 0.5:
        notes.append(warning("W702", path, line, f"the right answers' credits add up to "
                             f"{_percent(total)}, not 100% (Moodle refuses such a question): the "
                             f"card takes all {sum(c.correct for c in choices)} with a "
                             "positive credit as right"))
    return choices, notes


def _percent(value: float) -> str:
    return f"{round(value, 5):.10g}%"


def _quoted(text: str) -> str:
    shown = " ".join(text.split())
    return repr(shown if len(shown) <= 60 else shown[:59] + "…")
