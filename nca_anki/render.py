"""Turn questions into note fields (HTML) and the note type's card templates.

The only module that knows Jinja and Markdown. Source text is data: Markdown is rendered
with raw HTML disabled and the result passes an allow-list sanitiser, so nothing from a
question file reaches a card as live markup. Templates come from the author's
``templates/`` folder, with autoescaping on and undefined variables as errors.
"""

from __future__ import annotations

import hashlib
import string
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType


import jinja2
import markdown
import nh3
from markupsafe import Markup, escape

from .diagnostics import Diagnostic, error
from .parse import Question
from .shuffle import Layout
from .topics import Topic

# The note type's identity. Anki matches note types by id, and any change to the field
# names/order or template names is a schema change that strands every learner's notes in a
# duplicated "+ " note type (docs/anki-import.md). These values are frozen: do not edit.
NOTE_TYPE_ID = 1607392319_001
NOTE_TYPE_NAME = "NCA Multiple Choice (nca-anki)"
CARD_TEMPLATE_NAME = "Multiple choice"
FIELDS = ("Prompt", "Choices", "Answer", "Explanation", "Source")

_NOTE_TYPE_FILES = ("front.html", "back.html", "style.css")  # choices.html is per note
LABELS = tuple(string.ascii_uppercase[:10])  # choices beyond J are an error

_ALLOWED_TAGS = {
    "p", "br", "strong", "em", "b", "i", "code", "pre", "ul", "ol", "li", "blockquote",
    "a", "sub", "sup", "hr", "h1", "h2", "h3", "h4", "table", "thead", "tbody", "tr",
    "th", "td", "del", "span",
}
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}


@dataclass(frozen=True)
class NoteType:
    id: int
    name: str
    fields: tuple[str, ...]
    template_name: str
    front: str
    back: str
    css: str

    @property
    def fingerprint(self) -> str:
        """Changes whenever anything Anki stores for the note type changes."""
        parts = (self.name, *self.fields, self.template_name, self.front, self.back, self.css)
        return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


@dataclass(frozen=True)
class RenderedNote:
    """A question's note fields in ``FIELDS`` order, ready for identity and packaging."""

    question: Question
    part: int
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    slot: int | None = None  # where the correct choice sits in the static order (the lock keeps it)


class _MarkdownRenderer:
    def __init__(self) -> None:
        self._md = markdown.Markdown(extensions=["sane_lists", "fenced_code", "tables"],
                                     output_format="html")
        # Raw HTML in the source is shown as text, never passed through.
        self._md.preprocessors.deregister("html_block")
        self._md.inlinePatterns.deregister("html")

    def block(self, text: str) -> str:
        self._md.reset()
        html = self._md.convert(text)
        return nh3.clean(html, tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRIBUTES,
                         url_schemes={"http", "https", "mailto"}).strip()

    def inline(self, text: str) -> str:
        html = self.block(text)
        if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
            html = html[3:-4]
        return html


def _template_line(exc: BaseException, filename: str | None) -> int:
    """The template line a Jinja runtime error was raised at (0 if unknown)."""
    line = 0
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        if filename and tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


class Renderer:
    """Renders with the templates in ``templates_dir`` (shown as ``display`` in messages)."""

    def __init__(self, templates_dir: Path, display: str) -> None:
        self.display = display
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(templates_dir)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=False,
        )
        self.markdown = _MarkdownRenderer()

    def _where(self, name: str) -> str:
        return f"{self.display.rstrip('/')}/{name}"

    def _render(self, name: str, context: dict[str, object]
                ) -> tuple[str | None, Diagnostic | None]:
        try:
            template = self.env.get_template(name)
        except jinja2.TemplateNotFound:
            return None, error(self._where(name), 0, f"template not found; searched "
                               f"{self.display}; restore it from the project's templates/")
        except jinja2.TemplateSyntaxError as exc:
            return None, error(self._where(name), exc.lineno or 0,
                               f"template syntax error: {exc.message}")
        except (OSError, UnicodeDecodeError) as exc:
            return None, error(self._where(name), 0, f"cannot read template: {exc}")
        try:
            return template.render(**context).strip(), None
        except jinja2.TemplateError as exc:
            return None, error(self._where(name), _template_line(exc, template.filename),
                               f"template error: {exc}")
        except Exception as exc:  # a template can raise anything through a filter or call
            return None, error(self._where(name), _template_line(exc, template.filename),
                               f"template error: {type(exc).__name__}: {exc}")

    def note_type(self) -> tuple[NoteType | None, tuple[Diagnostic, ...]]:
        def field(name: str) -> Markup:
            if name not in FIELDS:
                raise KeyError(f"no field {name!r}; the fields are {', '.join(FIELDS)}")
            return Markup("{{%s}}" % name)

        context: dict[str, object] = {"field": field, "fields": FIELDS, "labels": LABELS}
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
        return NoteType(NOTE_TYPE_ID, NOTE_TYPE_NAME, FIELDS, CARD_TEMPLATE_NAME,
                        front, back, css), ()

    def note(self, topic: Topic, part: int, question: Question, layout: Layout
             ) -> tuple[RenderedNote | None, tuple[Diagnostic, ...]]:
        """Render ``question`` with its choices in ``layout.order`` (see shuffle.py)."""
        if len(question.choices) > len(LABELS):
            return None, (error(question.path, question.line,
                                f"Question {question.number} has {len(question.choices)} "
                                f"choices; at most {len(LABELS)} are supported"),)
        choices = [{"label": label,
                    "html": Markup(self.markdown.inline(question.choices[source].text)),
                    "pinned": source in layout.pinned}
                   for label, source in zip(LABELS, layout.order)]
        choices_html, problem = self._render("choices.html",
                                             {"choices": choices, "shuffle": layout.shuffle})
        if problem:
            return None, (problem,)
        answer = " ".join(LABELS[layout.order.index(i)] for i in question.correct_indexes)
        source = escape(f"{topic.deck_name.split('::')[-1]} — part {part}")
        fields = (
            self.markdown.inline(question.prompt),
            choices_html or "",
            answer,
            self.markdown.block(question.explanation),
            str(source),
        )
        return RenderedNote(question, part, fields, (f"{topic.slug}::part-{part}",),
                            layout.slot), ()


def deck_description(topic: Topic) -> str:
    """The deck's description (HTML), shown on the deck's overview screen in Anki."""
    parts = ", ".join(str(f.part) for f in topic.files)
    return str(escape(f"{len(topic.questions)} multiple-choice questions on {topic.name} "
                      f"(part{'s' if len(topic.files) > 1 else ''} {parts}). "
                      "Built by nca-anki."))
