"""Turn questions into note fields (HTML) and the note type's card templates.

The only module that knows Jinja. Each text of a question becomes safe HTML in markup.py;
each image it shows is named by the media resolver it is given (reading/media.py), or is
an error at its line. Templates come from the author's
``templates/`` folder, with autoescaping on and undefined variables as errors, and the
note type is checked as Anki would check it.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from urllib.parse import unquote
from typing import NamedTuple

import jinja2
import jinja2.sandbox
from markupsafe import Markup, escape

from nca_anki.cards.markup import Html, Markdown
from nca_anki.diagnostics import Diagnostic, error
from nca_anki.files import read_regular
from nca_anki.cards.report_link import report_link
from nca_anki.language import DEFAULT_LANGUAGE, direction, words_in
from nca_anki.records import (CARD_TEMPLATE_NAME, FIELD_IDS, FIELDS, LABELS, NOTE_TYPE_ID,
                              NOTE_TYPE_NAME, SPECIAL_FIELDS, TEMPLATE_ID, Layout, MediaFile,
                              NoteType, Question, RenderedNote, Topic)

# (question file, image src as written) -> the media file, or why it cannot be shown.
MediaResolver = Callable[[str, str], "MediaFile | str"]

_NOTE_TYPE_FILES = ("front.html", "back.html", "style.css")  # choices.html is per note


# An Anki template tag runs from "{{" to the first "}}"; Anki trims the braces and spaces
# around it, then reads "#", "^" or "/" as a section and, in a replacement, the text after
# the last ":" as the field (the rest are filters: "type:", "cloze:", "text:"...).
_ANKI_TAG_RE = re.compile(r"\{\{((?:(?!\{\{).)*?)\}\}", re.DOTALL)  # to the next "{{" at most


def _anki_tags(template: str) -> list[tuple[str, str, str]]:
    """(tag as written, kind: "#", "^", "/" or "" for a replacement, field) of each tag."""
    tags = []
    for match in _ANKI_TAG_RE.finditer(template):
        handle = match.group(1).lstrip("{").strip()
        if len(handle) > 1 and handle[0] in "#^/":
            tags.append((match.group(0), handle[0], handle[1:].strip()))
        elif handle:  # Anki ignores an empty "{{ }}"
            tags.append((match.group(0), "", handle.rsplit(":", 1)[-1]))
    return tags


def _occurrences(text: str, part: str) -> list[int]:
    found, at = [], text.find(part)
    while at >= 0:
        found.append(at)
        at = text.find(part, at + len(part))
    return found


def _template_line(exc: BaseException, filename: str | None) -> int:
    """The template line a Jinja runtime error was raised at (0 if unknown)."""
    line = 0
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        if filename and tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


TEMPLATE_LIMIT = 1 << 20  # bytes: the shipped templates are a few KB


class _Loader(jinja2.FileSystemLoader):
    """Jinja's loader, reading through files.read_regular: a template that is a named pipe
    or a device is refused, never opened (an open would wait, or read, for ever)."""

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)  # refuses "..", as Jinja does
        for folder in self.searchpath:
            path = Path(folder, *pieces)
            try:
                data = read_regular(path, TEMPLATE_LIMIT)
            except FileNotFoundError:
                continue
            return data.decode(self.encoding), str(path), lambda: True
        raise jinja2.TemplateNotFound(template)


class _Sandbox(jinja2.sandbox.SandboxedEnvironment):
    """Jinja's sandbox, with its verdict on each attribute kept: it depends only on the
    object's type and the attribute's name, and working it out again on every access was a
    tenth of rendering (10,000 questions: 120,000 accesses)."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._verdicts: dict[tuple[type, str], bool] = {}

    def is_safe_attribute(self, obj: object, attr: str, value: object) -> bool:
        key = (type(obj), attr)
        verdict = self._verdicts.get(key)
        if verdict is None:
            verdict = self._verdicts[key] = super().is_safe_attribute(obj, attr, value)
        return verdict


class Renderer:
    """Renders with the templates in ``templates_dir`` (shown as ``display`` in messages)."""

    def __init__(self, templates_dir: Path, display: str,
                 media: MediaResolver | None = None) -> None:
        self.display = display
        self.media = media
        # Sandboxed: a template is code from a pull request, and its output is published.
        # Jinja's sandbox refuses attributes that lead out of the data (a function's
        # __globals__, a class's __subclasses__...), so a template cannot reach Python and
        # read the machine's files into every deck; the loader serves only files inside
        # the templates folder.
        self.env = _Sandbox(
            loader=_Loader(str(templates_dir)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=False,
            auto_reload=False,  # a build reads each template once, not once per note
        )
        self.env.filters["css_string"] = css_string
        self.env.filters["js_minified"] = js_minified
        self.markdown = Markdown()
        self._templates: dict[str, jinja2.Template] = {}  # each loaded once, for every note

    def _where(self, name: str) -> str:
        return f"{self.display.rstrip('/')}/{name}"

    def _render(self, name: str, context: dict[str, object]
                ) -> tuple[str | None, Diagnostic | None]:
        try:
            template = self._templates.get(name) or self._load(name)
        except jinja2.TemplateNotFound:
            return None, error("E401", self._where(name), 0, f"template not found; searched "
                               f"{self.display}; restore it from the project's templates/")
        except jinja2.TemplateSyntaxError as exc:
            return None, error("E402", self._where(name), exc.lineno or 0,
                               f"template syntax error: {exc.message}")
        except (OSError, UnicodeDecodeError) as exc:
            why = getattr(exc, "strerror", None) or exc
            return None, error("E401", self._where(name), 0, f"cannot read template: {why}")
        try:
            return template.render(**context).strip(), None
        except jinja2.sandbox.SecurityError as exc:
            return None, error("E402", self._where(name), _template_line(exc, template.filename),
                               f"template error: {exc} Templates run sandboxed: they may use "
                               "the fields, labels and values they are given, not Python's "
                               "internals (docs/authors.md, \"Card templates\")")
        except jinja2.TemplateError as exc:
            return None, error("E402", self._where(name), _template_line(exc, template.filename),
                               f"template error: {exc}")
        except Exception as exc:  # noqa: BLE001 - a template can raise anything through a filter or call
            return None, error("E402", self._where(name), _template_line(exc, template.filename),
                               f"template error: {type(exc).__name__}: {exc}")

    def _load(self, name: str) -> jinja2.Template:
        template = self.env.get_template(name)
        # Jinja keeps a template's globals (range, namespace...) as a ChainMap over the
        # environment's, and copies them into every render's context by iterating that
        # ChainMap in Python: half the time of rendering choices.html for a note. A dict of
        # the same names renders the same; nothing changes the globals after this.
        template.globals = dict(template.globals)
        self._templates[name] = template
        return template

    def note_type(self, language: str = DEFAULT_LANGUAGE
                  ) -> tuple[NoteType | None, tuple[Diagnostic, ...]]:
        """The note type, its card's own words in ``language`` (language.py)."""
        def field(name: str) -> Markup:
            if name not in FIELDS:
                raise KeyError(f"no field {name!r}; the fields are {', '.join(FIELDS)}")
            return Markup("{{" + name + "}}")

        context: dict[str, object] = {"field": field, "fields": FIELDS, "labels": LABELS,
                                      "text": dict(words_in(language)), "lang": language,
                                      "dir": direction(language)}
        rendered: list[str] = []
        problems: list[Diagnostic] = []
        for name in _NOTE_TYPE_FILES:
            text, problem = self._render(name, context)
            if problem:
                problems.append(problem)
            rendered.append(text or "")
        if problems:
            return None, tuple(problems)
        front, back, css = rendered
        problems = [*self._check_anki_template("front.html", front, front=True),
                    *self._check_anki_template("back.html", back, front=False)]
        if problems:
            return None, tuple(problems)
        return NoteType(id=NOTE_TYPE_ID, name=NOTE_TYPE_NAME, fields=FIELDS,
                        template_name=CARD_TEMPLATE_NAME, front=front, back=back, css=css,
                        field_ids=FIELD_IDS, template_id=TEMPLATE_ID), ()

    def _check_anki_template(self, name: str, text: str, *, front: bool
                             ) -> list[Diagnostic]:
        """What Anki would reject or show as an error on every card: a field that does not
        exist, a section left open, a front without a field ("this card is blank")."""
        source = self.env.loader.get_source(self.env, name)[0] if self.env.loader else ""
        where = self._where(name)
        problems: list[Diagnostic] = []

        def report(tag: str, message: str) -> None:
            # The line of the tag as written in the template (0: made by an expression).
            lines = [source.count("\n", 0, at) + 1 for at in _occurrences(source, tag)]
            problems.extend(error("E402", where, line, message) for line in lines or [0])

        unknown: set[str] = set()
        sections: list[tuple[str, str]] = []  # (tag, field) of each open {{#Field}}/{{^Field}}
        shows_a_field = False
        for tag, kind, field in _anki_tags(text):
            if field not in FIELDS and field not in SPECIAL_FIELDS:
                if tag not in unknown:
                    unknown.add(tag)
                    report(tag, f"unknown field {field!r} in {tag}: Anki would show an error "
                                f"on every card; the fields are {', '.join(FIELDS)} (and "
                                f"Anki's {', '.join(SPECIAL_FIELDS)})")
            elif kind == "" and field in FIELDS:
                shows_a_field = True
            if kind in ("#", "^"):
                sections.append((tag, field))
            elif kind == "/":
                if sections and sections[-1][1] == field:
                    sections.pop()
                else:
                    report(tag, f"{tag} does not close the open {sections[-1][0]}" if sections
                           else f"{tag} closes no open section")
        for tag, field in sections:
            report(tag, f"{tag} is never closed; end the section with {{{{/{field}}}}}")
        if front and not shows_a_field:
            problems.append(error("E402",
                                  where, 0, 'the front shows no field: every card would say '
                                  '"The front of this card is blank"; place one with '
                                  '{{ field("Prompt") }}'))
        return problems

    def note(self, topic: Topic, part: int, question: Question, layout: Layout, *,
             show_on_pick: bool = False, language: str = DEFAULT_LANGUAGE,
             report_url: str = "") -> tuple[RenderedNote | None, tuple[Diagnostic, ...]]:
        """Render ``question`` with its choices in ``layout.order`` (see shuffle.py);
        ``show_on_pick``: picking (all the answers) shows the answer (nca-anki.toml);
        ``language``: of the card's own words in the fields (language.py);
        ``report_url``: the address of a "Report a problem" link (report_link.py)."""
        if len(question.choices) > len(LABELS):
            return None, (error("E117", question.path, question.line,
                                f"Question {question.number} has {len(question.choices)} "
                                f"choices; at most {len(LABELS)} are supported"),)
        prompt = self.markdown.inline(question.prompt)
        texts = [self.markdown.inline(choice.text) for choice in question.choices]
        explanation = self.markdown.block(question.explanation)
        media: tuple[MediaFile, ...] = ()
        if prompt.images or explanation.images or any(html.images for html in texts):
            named, problems = self._images(question, prompt, texts, explanation)
            if problems:
                return None, problems
            prompt, explanation = _named(prompt, named), _named(explanation, named)
            texts = [_named(html, named) for html in texts]
            media = tuple(sorted({m.name: m for m in named.values()}.values(),
                                 key=lambda m: m.name))
        words = words_in(language)
        choices = [_ChoiceView(label, Markup(texts[source].html), source in layout.pinned)
                   for label, source in zip(LABELS, layout.order)]
        correct = question.correct_indexes
        # "choose": how many to pick, for a question with several answers (0: one answer).
        choices_html, problem = self._render("choices.html", {
            "choices": choices, "shuffle": layout.shuffle,
            "choose": len(correct) if len(correct) > 1 else 0, "show_on_pick": show_on_pick,
            "text": words})
        if problem:
            return None, (problem,)
        answer = letters(sorted(LABELS[layout.order.index(i)] for i in correct))
        source = str(escape(words["source"].format(deck=topic.deck_name.split("::")[-1],
                                                   part=part)))
        if report_url:
            source += " · " + report_link(report_url, fingerprint=question.fingerprint,
                                          deck=topic.deck_name, label=words["report"])
        fields = (
            _prompt_field(question.prompt, prompt.html),
            choices_html or "",
            answer,
            explanation.html,
            source,
        )
        return RenderedNote(question=question, part=part, fields=fields,
                            tags=(f"{topic.slug}::part-{part}",), slots=layout.slots,
                            media=media), ()

    def _images(self, question: Question, prompt: Html, choices: list[Html],
                explanation: Html) -> tuple[dict[str, MediaFile], tuple[Diagnostic, ...]]:
        """The media file of each image src in the texts, or an error at each image's
        line that cannot be shown."""
        # Each text's first line, the text (to count lines into it) and what it is. An
        # explanation whose line is not known is reported at the question's header.
        places = [(question.line, question.prompt, "prompt", prompt),
                  *((choice.line, choice.text, f"choice {label}", html)
                    for label, choice, html in zip(LABELS, question.choices, choices)),
                  (question.explanation_line or question.line,
                   question.explanation if question.explanation_line else "",
                   "explanation", explanation)]
        named: dict[str, MediaFile] = {}
        problems = []
        for line, text, where, html in places:
            for src, _ in html.images:
                found = self.media(question.path, src) if self.media else \
                    "images need the source folder, and this build has none"
                if isinstance(found, MediaFile):
                    named[src] = found
                else:
                    problems.append(error("E122", question.path, line + _line_of(text, src),
                                          f"Question {question.number}'s {where}: {found}"))
        return named, tuple(problems)


def js_minified(script: object) -> Markup:
    """The card's script without its comments and spare white space (rjsmin). The front
    and back each carry it, and a deck deflates the second copy to almost nothing only
    while the two lie within deflate's 32 KiB window of each other: the commented
    script, 30 KB, had grown past it, and every deck by 9 KB (19.4 to 28.4 KB for a
    seed deck). Minified it is 17 KB, with room to grow, and the comments stay in
    templates/card.js, where they are read."""
    import rjsmin

    return Markup(rjsmin.jsmin(str(script)))


def css_string(value: object) -> Markup:
    """``value`` for the inside of a CSS string: every character but a letter, a digit or a
    space as a CSS escape (a hex number and the space that ends it), so no text can end
    the string, the rule or the style element."""
    return Markup("".join(ch if ch.isascii() and (ch.isalnum() or ch == " ") else
                          f"\\{ord(ch):x} " for ch in str(value)))


def letters(names: list[str]) -> str:
    """The correct letters as the Answer field names them: "B", "B and D", "A, C and D".
    Capital letters appear only as the letters: the card's script and CSS find them so."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# A short prompt of one paragraph is set in semi-bold, as the card's heading (its code spans
# in normal weight); a longer one, or one with a code block, a table, a list or line breaks,
# reads as text in normal weight
# (templates/style.css, .nca-prose): a bold 1,000-character scenario or bold code is hard
# to read. 120 characters is about three lines on a 390 px phone. docs/card.md, "The
# prompt", has the screenshots this was decided by.
_HEADING_CHARACTERS = 120
_BLOCK_RE = re.compile(r"<(?:pre|table|ul|ol|p|blockquote|br|h\d)\b")


def _prompt_field(text: str, html: str) -> str:
    if len(" ".join(text.split())) <= _HEADING_CHARACTERS and not _BLOCK_RE.search(html):
        return html
    return f'<div class="nca-prose">{html}</div>'


class _ChoiceView(NamedTuple):
    """One choice as choices.html sees it (``choice.label`` or ``choice["label"]``). Jinja
    finds an attribute at once; a dict's keys only after a failed attribute lookup, which
    cost a tenth of a build."""

    label: str
    html: Markup
    pinned: bool


_IMG_SRC_RE = re.compile(r'(<img\b[^<>]*?\bsrc=")([^"]*)(")')


def _named(rendered: Html, named: dict[str, MediaFile]) -> Html:
    """``rendered`` with each image's src the name of its media file."""
    if not rendered.images:
        return rendered
    return Html(_IMG_SRC_RE.sub(lambda m: m[1] + named[html_lib.unescape(m[2])].name + m[3],
                                rendered.html), rendered.images)


def _line_of(text: str, src: str) -> int:
    """How many lines into ``text`` the image ``src`` is written (0 if not found as is)."""
    at = text.find(f"]({src}")
    if at < 0:
        at = text.find(f"]({unquote(src)}")
    return text.count("\n", 0, at) if at >= 0 else 0
