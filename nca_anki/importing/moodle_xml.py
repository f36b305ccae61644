"""Moodle XML (the default export of Moodle's question bank) -> questions.

    <quiz>
      <question type="category"><category><text>$course$/Top/GPU basics</text></category>
      </question>                                   <- the topic of the questions after it
      <question type="multichoice">
        <name><text>Q1</text></name>
        <questiontext format="html"><text><![CDATA[<p>Which …?</p>]]></text></questiontext>
        <generalfeedback format="html"><text>…</text></generalfeedback>   <- the explanation
        <answer fraction="100" format="html"><text>Volta</text>
          <feedback format="html"><text>…</text></feedback></answer>      <- added to it
        <answer fraction="0" format="html"><text>Pascal</text></answer>
      </question>

``multichoice`` and ``truefalse`` (two choices) are converted. In a question with one
right answer (``<single>true</single>``, Moodle's default) only an answer of fraction 100
is right; one of partial credit is counted wrong, with a warning at its line. In one of
several answers (``<single>false</single>``) each answer of a positive fraction is right,
as Moodle grades it (bank.credited_choices). The images a question carries
(``<file encoding="base64">``, shown as ``@@PLUGINFILE@@/name``) are each checked as a
real image of a type cards show, and written beside the question files. Every other type
is refused by name; a ``description`` is text that is no question. Text in Moodle's HTML
(``html``, ``moodle_auto_format``; CDATA or escaped) becomes Markdown that shows what the
browser shows, as GIFT's does (moodle_text.py: ``$$…$$`` math as MathJax's delimiters,
Markdown's punctuation and entities written twice escaped); ``plain_text`` is shown as
typed and ``markdown`` kept (its ``$$…$$`` math made MathJax's too). Letters written
into every answer ("a. …") are left out, said once (W716).

A Moodle course backup's question bank (``questions.xml``, rooted at
``<question_categories>``) is read too: each question rewritten in the export's shape
(``_as_exported``) and read as the export's are.

The standard library's expat reads the file, through handlers of our own that note each
element's true line (a ``<question`` inside a comment, a CDATA section or a processing
instruction is no element, and counts no line of its own), refuse any entity declaration
(no bank needs one; entity bombs and external entities come that way), an entity defined
outside the file, and elements nested deeper than a bank ever nests them.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import NoReturn
from xml.parsers import expat

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.importing import xml_records
from nca_anki.importing.bank import (FEEDBACK_JOINED, MAX_ANSWERS, Credited, Item, Reading,
                                     Section, a_kind, category_name, choices_problem, credit,
                                     credited_choices, one_paragraph, title_from_name,
                                     too_many)
from nca_anki.importing.moodle_text import (blank_answers_problem, moodle_html,
                                            moodle_markdown, moodle_plain, without_labels)
from nca_anki.reading.images import image_problem, image_type
from nca_anki.reading.media import MAX_IMAGE_BYTES

_EMBEDDED_RE = re.compile(r"@@PLUGINFILE@@/([^\"'\s)>]+)")
# Deeper than any bank nests its elements (quiz/question/answer/feedback/text is five);
# text in HTML is escaped or in CDATA, which is no element.
MAX_DEPTH = 64


class _Refused(Exception):
    """A document the reader will not read, at a line."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


class _Tree:
    """A document as ElementTree elements, with the line each element starts at."""

    def __init__(self, text: str) -> None:
        self.lines: dict[ET.Element, int] = {}
        self._builder = ET.TreeBuilder()
        self._depth = 0
        parser = self._parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._builder.data
        parser.EntityDeclHandler = self._entity
        parser.UnparsedEntityDeclHandler = self._entity
        parser.SkippedEntityHandler = self._skipped
        parser.ExternalEntityRefHandler = self._external
        try:
            parser.Parse(text, True)
        except expat.ExpatError as exc:
            raise _Refused(exc.lineno, f"not valid XML: {expat.ErrorString(exc.code)} "
                           f"(column {exc.offset + 1})") from None
        finally:  # its handlers are this tree's methods: a cycle that held the whole
            del self._parser  # document until the collector ran (issue 46, 3)
        self.root = self._builder.close()

    def _start(self, tag: str, attributes: dict[str, str]) -> None:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise _Refused(self._parser.CurrentLineNumber, f"elements nested more than "
                           f"{MAX_DEPTH} deep, as no Moodle bank nests them")
        self.lines[self._builder.start(tag, attributes)] = self._parser.CurrentLineNumber

    def _end(self, tag: str) -> None:
        self._depth -= 1
        self._builder.end(tag)

    def _entity(self, name: str, *_: object) -> NoReturn:
        raise _Refused(self._parser.CurrentLineNumber, "it declares an entity "
                       f"({clip(name, 40)!r}); a question bank needs none, and entities are "
                       "how XML bombs and external files come in")

    def _skipped(self, name: str, *_: object) -> NoReturn:
        raise _Refused(self._parser.CurrentLineNumber, f"the entity &{clip(name, 40)}; is defined "
                       "outside the file, which is never read")

    def _external(self, *_: object) -> NoReturn:
        raise _Refused(self._parser.CurrentLineNumber, "it refers to an external entity, "
                       "which is never read")


def _text(element: ET.Element | None, answer: bool = False
          ) -> tuple[str, dict[str, bytes], str]:
    """An element's <text> as Markdown (its embedded files shown by their own names), the
    images it carries (<file> elements, base64), and why one cannot go with it (""); an
    ``answer``'s math is inline (moodle_text.moodle_html)."""
    if element is None:
        return "", {}, ""
    raw = element.findtext("text") or ""
    form = element.get("format", "moodle_auto_format")
    files: dict[str, bytes] = {}
    for carried in element.findall("file"):
        name = carried.get("name", "")
        shown = repr(clip(name, 60))
        try:
            data = base64.b64decode("".join((carried.text or "").split()), validate=True)
        except (binascii.Error, ValueError):
            return "", {}, f"its embedded file {shown} is not valid base64"
        kind = image_type(data)
        if kind is None or not name or "/" in name or name.startswith("."):
            return "", {}, (f"its embedded file {shown} is not an image of a type cards show "
                            "(PNG, JPEG, GIF, WebP or SVG, by its bytes)")
        if len(data) > MAX_IMAGE_BYTES:
            return "", {}, f"its embedded image {shown} is larger than {MAX_IMAGE_BYTES:,} bytes"
        if why := image_problem(data, kind):
            return "", {}, f"its embedded image {shown} cannot be shown on a card: {why}"
        files[name] = data
    raw = _EMBEDDED_RE.sub(lambda m: m[1], raw)
    if form in ("html", "moodle_auto_format"):
        raw = moodle_html(raw, answer)
    elif form == "plain_text":
        raw = moodle_plain(raw, answer)
    elif form == "markdown":
        raw = moodle_markdown(raw, answer)
    return raw.strip(), files, ""


def read(text: str, path: str, overrides: Mapping[str, str] | None = None) -> Reading:
    try:
        tree = _Tree(text)
    except _Refused as refused:
        return Reading((), (error("E701", path, refused.line, f"{refused.message}; nothing "
                                  "in the file was converted"),))
    root = tree.root
    if root.tag == "question_categories":  # a course backup's question bank
        return _read_backup(root, tree.lines, path)
    if root.tag != "quiz":  # other XML: its records, read as JSON's are (--map for them)
        return xml_records.read_tree(root, tree.lines, path, overrides or {})
    problems: list[Diagnostic] = []
    sections: list[Section] = []
    title, items = title_from_name(path), list[Item]()
    shown: list[str] = []  # the descriptions' texts: answers' letters may name their parts
    inside = set(root.findall("question"))
    for question in root.iter("question"):
        line = tree.lines[question]
        if question not in inside:
            problems.append(error("E707", path, line, "a <question> that is not directly "
                                  "inside <quiz>, where Moodle reads questions; not converted"))
            continue
        kind = question.get("type", "")
        if kind == "category":
            name = category_name(question.findtext("category/text") or "")
            if items:
                sections.append(Section(title=title, items=tuple(items), path=path))
            title, items = name or title_from_name(path), []
            continue
        if kind == "description":
            shown.append(_text(question.find("questiontext"))[0])
        item = _question(question, kind, path, (line, tree.lines), problems)
        if item is not None:
            items.append(item)
    if items:
        sections.append(Section(title=title, items=tuple(items), path=path))
    sections, said = without_labels(sections, path, shown)
    return Reading(tuple(sections), tuple(problems + said))


def _question(question: ET.Element, kind: str, path: str,
              place: tuple[int, dict[ET.Element, int]], problems: list[Diagnostic]
              ) -> Item | None:
    line, lines = place
    prompt, media, bad = _text(question.find("questiontext"))
    if kind == "description":
        problems.append(warning("W701", path, line, "a description, not a question, was not "
                                f"converted: {' '.join(prompt.split())[:60]!r}"))
        return None
    if kind not in ("multichoice", "truefalse"):
        problems.append(error("E702", path, line, f"{a_kind(clip(kind, 40) or 'untyped')} "
                              "question, not multiple choice; not converted"))
        return None
    if not prompt and not bad:
        problems.append(error("E702", path, line, "no question text; not converted"))
        return None
    general, more, worse = _text(question.find("generalfeedback"))
    media, bad = {**media, **more}, bad or worse
    answers = question.findall("answer")
    if len(answers) > MAX_ANSWERS:
        problems.append(too_many(len(answers), path, line))
        return None
    credited, feedback, blank, blank_right = [], [], 0, False
    for answer in answers:
        text, inner, wrong = _text(answer, answer=True)
        media, bad = {**media, **inner}, bad or wrong
        value = credit(answer.get("fraction", "0"))
        if value is None:
            problems.append(error("E703", path, lines[answer], f"an answer's fraction "
                                  f"{clip(answer.get('fraction', ''), 40)!r} is no number from "
                                  "-100 to 100 (the percentage of the marks it gives); not "
                                  "converted"))
            return None
        if kind == "truefalse":
            text = {"true": "True", "false": "False"}.get(text.strip().casefold(), text)
        if not text:  # Moodle saves no blank answer: its students never see one
            blank, blank_right = blank + 1, blank_right or value > 0
            continue
        text = one_paragraph(text)
        credited.append(Credited(text, value, lines[answer]))
        note, extra, why = _text(answer.find("feedback"))
        media, bad = {**media, **extra}, bad or why
        if note:
            feedback.append(f"{text}: {note}")
    if bad:
        problems.append(error("E704", path, line, f"{bad}; not converted"))
        return None
    single = kind == "truefalse" or _single(question)
    choices, notes = credited_choices(credited, single, path, line)
    full = "1 (full marks)" if question.get("backup") else "100"  # a backup's scale: 0-1
    no_right = f"no answer has the fraction {full}" if single else \
        "no answer has a positive fraction"
    if (problem := blank_answers_problem(choices, blank, blank_right, path, line) or
            choices_problem(choices, path, line, no_right)) is not None:
        problems.append(problem)
        return None
    problems.extend(notes)
    if feedback:
        problems.append(warning("W702", path, line, FEEDBACK_JOINED))
    return Item(prompt=prompt, choices=tuple(choices), path=path, line=line,
                explanation="\n\n".join(p for p in (general, *feedback) if p),
                media=tuple(sorted(media.items())))


def _single(question: ET.Element) -> bool:
    """Whether a multichoice question takes one answer, as Moodle reads <single>: "true"
    when it is missing; "false", "0" or empty for several."""
    single = question.findtext("single")
    return single is None or single.strip().casefold() not in ("false", "0", "")




# A Moodle course backup (.mbz) holds its question bank in questions.xml, in another shape:
#   <question_categories><question_category><name>Topic</name><questions>   (Moodle 4:
#   …<question_bank_entries>…<question_versions><questions>)
#     <question id="7"><questiontext>&lt;p&gt;Which …?</questiontext>
#       <questiontextformat>1</questiontextformat><generalfeedback>…</generalfeedback>
#       <qtype>multichoice</qtype>
#       <plugin_qtype_multichoice_question><answers><answer id="8">
#         <answertext>…</answertext><answerformat>1</answerformat>
#         <fraction>1.0000000</fraction><feedback>…</feedback></answer></answers>
#       <multichoice><single>1</single></multichoice></plugin_qtype_multichoice_question>
# Each question is rewritten in the export's shape (fractions 0-1 as percentages, the
# format's number as its name) and read as the export's are.
_KINDS = {"match": "matching", "multianswer": "embedded-answers (cloze)",
          "shortanswer": "short-answer"}
_FORMATS = {"0": "moodle_auto_format", "1": "html", "2": "plain_text", "4": "markdown"}


def _read_backup(root: ET.Element, lines: dict[ET.Element, int], path: str) -> Reading:
    problems: list[Diagnostic] = []
    sections: list[Section] = []
    others: dict[str, list[int]] = {}
    for category in root.iter("question_category"):
        title = category_name(category.findtext("name") or "") or title_from_name(path)
        items = []
        for question in category.iter("question"):
            line, kind = lines[question], (question.findtext("qtype") or "").strip()
            if kind not in ("multichoice", "truefalse", "description"):
                others.setdefault(kind, []).append(line)
                continue
            item = _question(_as_exported(question, lines), kind, path, (line, lines),
                             problems)
            if item is not None:
                items.append(item)
        if items:
            sections.append(Section(title=title, items=tuple(items), path=path))
    problems.extend(_left_out(kind, found, path) for kind, found in others.items())
    sections, said = without_labels(sections, path, [])
    return Reading(tuple(sections), tuple(sorted(problems + said, key=lambda d: d.line)))


def _left_out(kind: str, lines: list[int], path: str) -> Diagnostic:
    """One message for every question of a type the import does not convert."""
    named = clip(_KINDS.get(kind, kind), 30) or "untyped"
    what = ("a random question (Moodle draws one from a category when the quiz is taken)"
            if kind == "random" else f"{a_kind(named)} question")
    more = len(lines) - 1
    also = f", and {more} more of its type (lines {', '.join(map(str, lines[1:4]))}" + \
        (", …)" if more > 3 else ")") if more else ""
    return error("E702", path, lines[0], f"{what}, not multiple choice{also}; not converted")


def _as_exported(question: ET.Element, lines: dict[ET.Element, int]) -> ET.Element:
    """A backup's ``question`` as Moodle's XML export writes it."""
    line = lines[question]
    shaped = ET.Element("question", type=question.findtext("qtype") or "", backup="1")
    for name in ("questiontext", "generalfeedback"):
        shaped.append(_exported_text(question, name, name))
    for answer in question.iterfind("./*/answers/answer"):
        fraction = (answer.findtext("fraction") or "").strip()
        try:
            fraction = f"{float(fraction) * 100:g}"
        except ValueError:
            pass  # credit() refuses it, with its text
        shaped_answer = _exported_text(answer, "answertext", "answer", "answerformat")
        shaped_answer.set("fraction", fraction)
        shaped_answer.append(_exported_text(answer, "feedback", "feedback"))
        shaped.append(shaped_answer)
        lines[shaped_answer] = lines[answer]
    single = question.findtext("./*/multichoice/single")
    if single is not None:
        ET.SubElement(shaped, "single").text = single
    lines[shaped] = line
    return shaped


def _exported_text(element: ET.Element, name: str, tag: str, form: str = "") -> ET.Element:
    """``<name>`` (escaped text) and ``<form>`` (its format's number) as ``<tag
    format="…"><text>…</text></tag>``."""
    number = (element.findtext(form or f"{name}format") or "1").strip()
    shaped = ET.Element(tag, format=_FORMATS.get(number, "html"))
    ET.SubElement(shaped, "text").text = element.findtext(name) or ""
    return shaped
