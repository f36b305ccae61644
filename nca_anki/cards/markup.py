"""A question's text (CommonMark with GitHub's extensions) as safe HTML for a card field.

The only module that knows Markdown. Text is rendered by markdown-it-py, which passes the
whole CommonMark spec (bench/markdown_engines.py measured it against Python-Markdown,
which passed 61 %), with GitHub's tables, strikethrough and links from bare
``https://``/``www.`` addresses. Source text is data: raw HTML is shown as the text it
is, except the four harmless inline tags real banks write (``<br>``, ``<sub>``, ``<sup>``,
``<kbd>``), and every rendered field passes an allow-list sanitiser. Kept as written, for
the card and for the reader:

- MathJax delimiters ``\\(...\\)`` and ``\\[...\\]``, anywhere in a paragraph (Anki's MathJax
  needs them verbatim; Markdown would read ``\\(`` as an escaped parenthesis);
- identifiers and arithmetic: ``__init__`` and ``4*8*2`` are not bold or emphasis;
- a fenced code block's tabs; a fence that names its language (```` ```python ````) is
  highlighted here, at build time, by Pygments: classes the note type's CSS colours, no
  script on the card.

An image ``![alt](path)`` becomes ``<img src="path" alt="alt">``; cards/render.py swaps
the path for the media file's name (reading/media.py). docs/card.md, "Text on the card".
"""

from __future__ import annotations

import bisect
import functools
import html as html_text
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import nh3

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.rules_inline import StateInline
    from markdown_it.token import Token

_ALLOWED_TAGS = {
    "p", "br", "strong", "em", "b", "i", "code", "pre", "ul", "ol", "li", "blockquote",
    "a", "sub", "sup", "kbd", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead",
    "tbody", "tr", "th", "td", "del", "s", "span", "img",
}
# An image's src is the path as written until cards/render.py names the media file.
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "img": {"src", "alt"}}
_ALIGNMENTS = {"left", "center", "right"}


@functools.cache
def cleaner() -> nh3.Cleaner:
    """The allow-list sanitiser, made once, with the Markdown engine (the fast paths need
    neither). The only classes a field may carry are the names Pygments' HTML formatter
    gives tokens ("k" keyword, "s2" string...), read from the installed Pygments, and the
    only alignments left, center and right: nothing from a source file can set them."""
    from pygments.token import STANDARD_TYPES
    classes = {name for name in STANDARD_TYPES.values() if name}
    return nh3.Cleaner(
        tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRIBUTES,
        tag_attribute_values={"span": {"class": classes},
                              "th": {"align": _ALIGNMENTS}, "td": {"align": _ALIGNMENTS}},
        url_schemes={"http", "https", "mailto"})


@dataclass(frozen=True)
class Html:
    html: str
    # Each image in the source text: (src as the engine normalised it, alt text). The
    # html's <img src="..."> holds the src until cards/render.py names the media file.
    images: tuple[tuple[str, str], ...]


# MathJax delimiters, \(...\) and \[...\], anywhere in a paragraph, as written. Tried where
# a backslash starts, before Markdown's escapes: an escaped backslash ("\\") is consumed
# first, so "\\(" is no math while "\\\(x\)" is; a backslash inside the math escapes the
# next character, so "\\" never closes it. (mdit-py-plugins' texmath was tried: its
# bracket mode takes "\[...\]" only as a block of its own lines and wraps math in tags of
# its own; dollarmath would turn prices and shell variables into math.)
_MATH_RE = re.compile(r"\\\((?:\\[^)]|[^\\])+?\\\)|\\\[(?:\\[^\]]|[^\\])+?\\\]")
# A Python "dunder" name: around a whole word "__init__" would be bold; in a question bank
# it is an identifier. Bold is **word**.
_DUNDER_RE = re.compile(r"__[^\W_](?:\w*[^\W_])?__(?!\w)")
# The inline tags a field may carry, without attributes; any other tag stays text.
_TAG_RE = re.compile(r"<(?:br\s*/?|(sub|sup|kbd))>", re.IGNORECASE)
_STARS_RE = re.compile(r"\*+")


def _literal(state: StateInline, silent: bool, found: re.Match[str] | None) -> bool:
    """Takes ``found`` (if it matched) as plain text, out of reach of later rules."""
    if not found:
        return False
    if not silent:
        state.push("text", "", 0).content = found.group()
    state.pos = found.end()
    return True


# Where math can close: a run of backslashes of odd length before ")" or "]" (an even
# run is escaped backslashes, then a plain bracket). Found once per paragraph, then each
# opening delimiter looks up its closing one: matching _MATH_RE from every "\\(" scanned
# to the paragraph's end when none closed it, time that grew with the square of the
# paragraph (a line of 40,000 "\\(" took 35 s).
_CLOSE_RUN_RE = re.compile(r"(?<!\\)\\+[)\]]")
# Where an inline tag closes, by name.
_CLOSE_TAG_RE = re.compile(r"</(sub|sup|kbd)\s*>", re.IGNORECASE)


@dataclass(frozen=True)
class _Closers:
    """Where each math delimiter and inline tag of one paragraph closes (sorted)."""

    math: dict[str, list[int]]  # ")" or "]": the position of each closing backslash
    tags: dict[str, list[tuple[int, int]]]  # "sub"...: (start, end) of each closing tag


def _closers(state: StateInline) -> _Closers:
    cache = state.env.setdefault("nca_closers", {})
    found = cache.get(state.src)
    if found is None:
        math: dict[str, list[int]] = {")": [], "]": []}
        for run in _CLOSE_RUN_RE.finditer(state.src):
            if (run.end() - run.start()) % 2 == 0:  # odd backslashes and the bracket
                math[run.group()[-1]].append(run.end() - 2)
        tags: dict[str, list[tuple[int, int]]] = {"sub": [], "sup": [], "kbd": []}
        for tag in _CLOSE_TAG_RE.finditer(state.src):
            tags[tag.group(1).lower()].append((tag.start(), tag.end()))
        found = cache[state.src] = _Closers(math, tags)
    return found


def _math(state: StateInline, silent: bool) -> bool:
    """The same as matching _MATH_RE at the position (tests/cards/test_markup.py compares
    them), from the paragraph's closers."""
    src, at = state.src, state.pos
    if not src.startswith(("\\(", "\\["), at):
        return False
    closers = _closers(state).math[")" if src[at + 1] == "(" else "]"]
    index = bisect.bisect_left(closers, at + 2)
    # The first closer after the opening; none, one with nothing before it, or one past
    # the paragraph's end: no math here.
    if index == len(closers) or closers[index] == at + 2 or closers[index] + 2 > state.posMax:
        return False
    end = closers[index] + 2
    if not silent:
        state.push("text", "", 0).content = src[at:end]
    state.pos = end
    return True


def _dunder(state: StateInline, silent: bool) -> bool:
    at = state.pos
    if not state.src.startswith("__", at) or at and (state.src[at - 1].isalnum()
                                                      or state.src[at - 1] == "_"):
        return False
    return _literal(state, silent, _DUNDER_RE.match(state.src, at, state.posMax))


def _arithmetic(state: StateInline, silent: bool) -> bool:
    """Asterisks between two letters or digits (4*8*2, a*b) are literal: CommonMark would
    make "4*8*2" emphasis, and intra-word emphasis is not how question banks use "*"."""
    at = state.pos
    if state.src[at] != "*" or not at or not state.src[at - 1].isalnum():
        return False
    run = _STARS_RE.match(state.src, at, state.posMax)
    assert run is not None
    end = run.end()
    return end < state.posMax and state.src[end].isalnum() and _literal(state, silent, run)


def _inline_tag(state: StateInline, silent: bool) -> bool:
    """``<br>`` (also ``<br/>``), and ``<sub>``, ``<sup>`` or ``<kbd>`` with its closing
    tag later in the same paragraph: kept as that tag, the text between rendered as
    Markdown. An opening tag never closed stays text."""
    if state.src[state.pos] != "<":
        return False
    tag = _TAG_RE.match(state.src, state.pos, state.posMax)
    if not tag:
        return False
    name = (tag.group(1) or "").lower()
    if not name:
        if not silent:
            state.push("html_inline", "", 0).content = "<br>"
        state.pos = tag.end()
        return True
    closers = _closers(state).tags[name]
    index = bisect.bisect_left(closers, (tag.end(), 0))
    if index == len(closers) or closers[index][1] > state.posMax:
        return False
    start, end = closers[index]
    if not silent:
        state.push("html_inline", "", 0).content = f"<{name}>"
        limit = state.posMax
        state.pos, state.posMax = tag.end(), start
        # Inside, a tag of the same name finds no closer before this one's: tags nest
        # at most three deep (sub, sup, kbd), so this recursion is shallow.
        state.md.inline.tokenize(state)
        state.posMax = limit
        state.push("html_inline", "", 0).content = f"</{name}>"
    state.pos = end
    return True


def _cell(_renderer: Any, tokens: Sequence[Token], idx: int, _options: Any, _env: Any) -> str:
    """A table cell with its column's alignment as ``align`` (markdown-it writes a style
    attribute, which the sanitiser does not let through)."""
    token = tokens[idx]
    style = str(token.attrGet("style") or "")
    align = style.removeprefix("text-align:")
    return f'<{token.tag} align="{align}">' if align in _ALIGNMENTS else f"<{token.tag}>"


@functools.lru_cache(maxsize=256)
def _lexer(language: str) -> Any:
    """Pygments' lexer for a fence's language name ("python", "bash", "c++"...), or None."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        # tabsize 0: tabs stay tabs; the CSS sets how wide they show.
        return get_lexer_by_name(language, tabsize=0, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


@functools.cache
def _formatter() -> Any:
    from pygments.formatters import HtmlFormatter
    return HtmlFormatter(nowrap=True)


def _highlight(code: str, language: str) -> str:
    """A fenced block's code as Pygments' classed spans ("" when the fence names no
    language Pygments knows: markdown-it then escapes the code itself)."""
    name = language.strip().split(maxsplit=1)[0].lower() if language.strip() else ""
    lexer = _lexer(name) if name else None
    if lexer is None:
        return ""
    from pygments import highlight
    return str(highlight(code, lexer, _formatter()))



def _fence(_renderer: Any, tokens: Sequence[Token], idx: int, _options: Any, _env: Any) -> str:
    """A fenced code block as ``<pre><code>``: highlighted when its language is known, and
    without the ``language-`` class markdown-it adds (nothing on the card uses it)."""
    from markdown_it.common.utils import escapeHtml
    token = tokens[idx]
    code = _highlight(token.content, token.info) or escapeHtml(token.content)
    return f"<pre><code>{code}</code></pre>\n"


def _images(tokens: Sequence[Token]) -> tuple[tuple[str, str], ...]:
    found = []
    for token in tokens:
        for child in token.children or ():
            if child.type == "image":
                found.append((str(child.attrGet("src") or ""), child.content))
    return tuple(found)


def _links() -> Any:
    """GitHub's autolinks: an address with its scheme (https://...) or starting "www.".
    Other addresses without a scheme are not links: "config.py" and "train.sh" are file
    names, not sites in Paraguay and St Helena (linkify-it's fuzzy links would take them)."""
    from linkify_it import LinkifyIt

    class Links(LinkifyIt):
        def match(self, text: str) -> list[Any] | None:
            found = [link for link in super().match(text) or ()
                     if link.schema or link.raw.lower().startswith("www.")]
            return found or None

    return Links(options={"fuzzy_email": False, "fuzzy_ip": False}).add("//", None
                                                                          ).add("ftp:", None)


# A bare address is linked from at most this many characters: markdown-it's own rule hands
# linkify-it the whole rest of the paragraph at every "://", which took minutes over a line
# of 40,000 "http://a" (time that grows with the square of the line). An address longer
# than this is linked up to here; the rest of it stays text.
URL_LIMIT = 2048
_SCHEME_RE = re.compile(r"(?:^|[^a-z0-9.+-])([a-z][a-z0-9.+-]*)$", re.IGNORECASE)


def _bare_link(state: StateInline, silent: bool) -> bool:
    """markdown-it's "linkify" rule with a bounded look: the scheme among the last 33
    characters before "://" (linkify-it's schemes are short), the address among the next
    URL_LIMIT. Otherwise the same, token for token."""
    pos, src = state.pos, state.src
    if state.linkLevel > 0 or not src.startswith("://", pos) or pos + 3 > state.posMax:
        return False
    tail = state.pending[-33:]
    match = _SCHEME_RE.search(tail)
    if not match or (match.start(1) == 0 and len(tail) < len(state.pending)):
        return False  # no scheme, or one longer than any linkify-it knows
    proto = match.group(1)
    if src[pos - len(proto):pos] != proto:
        # Looking ahead (a link's label is skipped over without filling the pending
        # text), the pending text is not what precedes: markdown-it's rule then took a
        # link from the wrong place and stopped the build ("inline rule didn't increment
        # state.pos"). No link starts here.
        return False
    links: Any = state.md.linkify  # _links(), set by _engine
    link = links.match_at_start(src[pos - len(proto):min(state.posMax,
                                                                      pos + URL_LIMIT)])
    if not link:
        return False
    url = link.url.rstrip("*")  # a "*" at the end is emphasis, as markdown-it has it
    full_url = state.md.normalizeLink(url)
    if not state.md.validateLink(full_url) or len(url) <= len(proto) + 3:
        return False
    if not silent:
        state.pending = state.pending[:-len(proto)]
        token = state.push("link_open", "a", 1)
        token.attrs = {"href": full_url}
        token.markup, token.info = "linkify", "auto"
        token = state.push("text", "", 0)
        token.content = state.md.normalizeLinkText(url)
        token = state.push("link_close", "a", -1)
        token.markup, token.info = "linkify", "auto"
    state.pos += len(url) - len(proto)
    return True


def _engine() -> MarkdownIt:
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False, "linkify": True})
    md.enable(["table", "strikethrough", "linkify"])
    md.linkify = _links()
    md.inline.ruler.at("linkify", _bare_link)
    md.inline.ruler.before("escape", "nca_math", _math)
    md.inline.ruler.before("emphasis", "nca_dunder", _dunder)
    md.inline.ruler.before("emphasis", "nca_arithmetic", _arithmetic)
    md.inline.ruler.before("html_inline", "nca_tags", _inline_tag)
    md.add_render_rule("th_open", _cell)
    md.add_render_rule("td_open", _cell)
    md.add_render_rule("fence", _fence)
    return md


# Anki plays "[sound:file]" and speaks "[anki:tts]..." wherever they appear in a card's
# HTML. In a question's text they are words about Anki, not media: the colon becomes its
# character reference, which the card shows as ":" and Anki's player does not match.
# (Every such text contains "[", so it takes the Markdown path.) docs/anki-import.md,
# "Media tags in card text".
_MEDIA_TAG_RE = re.compile(r"\[(sound|anki):", re.IGNORECASE)


def _inert_media_tags(html: str) -> str:
    return _MEDIA_TAG_RE.sub(lambda m: f"[{m.group(1)}&#58;", html) if "[" in html else html


# Text with none of Markdown's syntax (most prompts, choices and explanations) renders as
# its paragraphs and nothing else, so it skips Markdown and the sanitiser: the same HTML
# (tests/cards/test_markup.py compares both paths), in a fraction of the time. Anything that
# might be markup - a special character, a line that could start a list, heading, quote,
# table or code block, a hard line break, a web address - takes the full path.
_SPECIAL_RE = re.compile(r"[\\`*_\[\]<>&#|~!{}\t\r\f\v\x00-\x08\x0b\x0e-\x1f\x7f]")
# A web address becomes a link. Tested apart from the characters above: one alternative
# in that pattern would cost it the engine's quick scan for a character class (measured:
# five times slower on a 10,000-question build's fields).
_WWW_RE = re.compile(r"www\.", re.IGNORECASE)


def _maybe_link(text: str) -> bool:
    return "://" in text or ("w." in text or "W." in text) and bool(_WWW_RE.search(text))
_LINE_START_RE = re.compile(r"[-+=>:]|\d+[.)]")  # at a line's start: list, quote, heading...


def _maybe_markup(text: str) -> bool:
    """True if ``text`` could hold any Markdown syntax. (One pattern with the line tests as
    multiline alternatives took three times as long.)"""
    if _SPECIAL_RE.search(text) or _maybe_link(text):
        return True
    return any(line[:1] == " " or line[-1:] == " " or _LINE_START_RE.match(line)
               for line in text.split("\n"))


_PARAGRAPH_BREAK_RE = re.compile(r"\n(?:[ ]*\n)+")


def _is_plain(text: str) -> bool:
    """True if ``text`` (without leading or trailing newlines) has no Markdown syntax."""
    if not text.isascii() and any(ch.isspace() and ch not in " \n" for ch in text):
        return False  # unusual whitespace (NBSP, em space...): let Markdown decide
    return not _maybe_markup(text)


def _plain_html(text: str) -> str | None:
    """The HTML of ``text`` if it has no Markdown syntax at all, else None."""
    text = text.strip("\n")
    if not _is_plain(text):
        return None
    return "\n".join(f"<p>{paragraph}</p>" for paragraph in _PARAGRAPH_BREAK_RE.split(text)
                      if paragraph)


# The Markdown most fields that have any use: `code`, **bold** or *emphasis* on one line,
# each span standing alone between spaces (or the line's ends, or punctuation after it),
# and nothing else of Markdown's. Such a line becomes its HTML directly, without the
# Markdown pipeline; the same HTML (tests/cards/test_markup.py compares it with Markdown and the
# sanitiser on generated text). Anything else - nested or intra-word marks, a backslash,
# an underscore, HTML characters - takes the full path.
_OTHER_SYNTAX_RE = re.compile(r"[\\_\[\]<>&#|~!{}\t\r\f\v\x00-\x08\x0b\x0e-\x1f\x7f\n]")
_SPAN_RE = re.compile(
    r"(?:(?<=\s)|^)(?:`(?P<code>[^`\s](?:[^`]*[^`\s])?)`"
    r"|\*\*(?P<strong>[^*`\s](?:[^*`]*[^*`\s])?)\*\*"
    r"|\*(?P<em>[^*`\s](?:[^*`]*[^*`\s])?)\*)(?=[\s.,;:?)]|$)")
_SPAN_TAGS = {"code": "code", "strong": "strong", "em": "em"}


def _simple_spans_html(text: str) -> str | None:
    """The HTML of ``text`` if it is one line whose only Markdown is simple spans (see
    above), else None."""
    text = text.strip("\n")
    if (not text or _OTHER_SYNTAX_RE.search(text) or _maybe_link(text) or text[0] == " "
            or text[-1] == " "
            or _LINE_START_RE.match(text)
            or not text.isascii() and any(ch.isspace() and ch != " " for ch in text)):
        return None
    parts, at = [], 0
    for span in _SPAN_RE.finditer(text):
        parts.append(text[at:span.start()])
        kind = span.lastgroup or ""
        parts.append(f"<{_SPAN_TAGS[kind]}>{span.group(kind)}</{_SPAN_TAGS[kind]}>")
        at = span.end()
    parts.append(text[at:])
    if any("*" in part or "`" in part for part in parts[::2]):
        return None  # a mark outside the spans: emphasis rules this does not follow
    return f"<p>{''.join(parts)}</p>"


_ANY_TAG_RE = re.compile(r"<[^<>]*>")


def _shows_anything(html: str) -> bool:
    """Whether a field's ``html`` shows a card anything: a picture, or a character that is
    not a space ("<p><br></p>", "<ul><li></li></ul>", "<h1></h1>" show nothing)."""
    return "<img" in html or bool(html_text.unescape(_ANY_TAG_RE.sub("", html)).strip())


def _as_text(text: str) -> str:
    """``text`` shown as the characters it is written in, in paragraphs: a text that
    Markdown or the tags a card keeps would render to nothing (a lone ``<br>``, ``-``,
    ``#`` or ``---``, a choice in a quiz about markup) is never a blank field."""
    return "\n".join(f"<p>{html_text.escape(paragraph.strip(), quote=False)}</p>"
                     for paragraph in _PARAGRAPH_BREAK_RE.split(text.strip("\n"))
                     if paragraph.strip())


class Markdown:
    """Renders source text to field HTML; each distinct text once per build."""

    def __init__(self) -> None:
        self._engine: MarkdownIt | None = None
        self.block = functools.lru_cache(maxsize=4096)(self._block)
        self._inline_cached = functools.lru_cache(maxsize=4096)(self._inline)

    @property
    def engine(self) -> MarkdownIt:
        """markdown-it as configured here, made on first use: a build whose texts all take
        the fast paths above never imports it."""
        if self._engine is None:
            self._engine = _engine()
        return self._engine

    def _block(self, text: str) -> Html:
        plain = _plain_html(text)
        if plain is None:
            plain = _simple_spans_html(text)
        if plain is not None:
            return Html(plain, ())
        md = self.engine
        tokens = md.parse(text)
        html = _inert_media_tags(cleaner().clean(md.renderer.render(tokens, md.options, {}))
                                 .strip())
        if not _shows_anything(html) and text.strip():
            return Html(_as_text(text), ())  # "<br>", "-", "#" alone: a quiz on markup
        return Html(html, _images(tokens))

    def inline(self, text: str) -> Html:
        """``text`` as inline HTML: its one paragraph without the ``<p>`` around it."""
        line = text.strip("\n")
        if line and "\n" not in line and _is_plain(line):
            return Html(line, ())  # _plain_html's one "<p>line</p>", unwrapped as below
        return self._inline_cached(text)

    def _inline(self, text: str) -> Html:
        rendered = self.block(text)
        html = rendered.html
        if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
            return Html(html[3:-4], rendered.images)
        return rendered
