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

``multichoice`` (a positive fraction marks a right answer, so several answers of 50 each
are all right) and ``truefalse`` (two choices) are converted, with the images they carry
(``<file encoding="base64">``, shown as ``@@PLUGINFILE@@/name``), each checked as a real
image of a type cards show, and written beside the question files; every other type is
refused by name, a ``description`` is text that is no question. Text in Moodle's HTML
(``html``, ``moodle_auto_format``; CDATA or escaped) becomes Markdown as GIFT's does;
``plain_text`` and ``markdown`` are kept. The standard library's parser reads the file:
it never fetches an external entity, and its expat refuses entity expansion bombs.
"""

from __future__ import annotations

import base64
import binascii
import re
import xml.etree.ElementTree as ET

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.importing.bank import (FEEDBACK_JOINED, Choice, Item, Reading, Section, a_kind,
                                     category_name, choices_problem, html_to_markdown,
                                     one_paragraph, title_from_name)
from nca_anki.reading.images import image_problem, image_type
from nca_anki.reading.media import MAX_IMAGE_BYTES

_QUESTION_RE = re.compile(r"<question\b")
_CDATA_RE = re.compile(r"<!\[CDATA\[.*?(?:\]\]>|\Z)", re.S)  # never closed: to the end
_EMBEDDED_RE = re.compile(r"@@PLUGINFILE@@/([^\"'\s)>]+)")


def _question_lines(text: str) -> list[int]:
    """The line of each <question> element, in order (none inside CDATA counted)."""
    spans = [(m.start(), m.end()) for m in _CDATA_RE.finditer(text)]
    lines: list[int] = []
    k = last = 0
    line = 1
    for match in _QUESTION_RE.finditer(text):
        while k < len(spans) and spans[k][1] <= match.start():
            k += 1
        if k < len(spans) and spans[k][0] <= match.start() < spans[k][1]:
            continue
        line += text.count("\n", last, match.start())  # counted on from the one before
        last = match.start()
        lines.append(line)
    return lines


def _text(element: ET.Element | None) -> tuple[str, dict[str, bytes], str]:
    """An element's <text> as Markdown (its embedded files shown by their own names), the
    images it carries (<file> elements, base64), and why one cannot go with it ("")."""
    if element is None:
        return "", {}, ""
    raw = element.findtext("text") or ""
    form = element.get("format", "moodle_auto_format")
    files: dict[str, bytes] = {}
    for carried in element.findall("file"):
        name = carried.get("name", "")
        try:
            data = base64.b64decode("".join((carried.text or "").split()), validate=True)
        except (binascii.Error, ValueError):
            return "", {}, f"its embedded file {name!r} is not valid base64"
        kind = image_type(data)
        if kind is None or not name or "/" in name or name.startswith("."):
            return "", {}, (f"its embedded file {name!r} is not an image of a type cards show "
                            "(PNG, JPEG, GIF, WebP or SVG, by its bytes)")
        if len(data) > MAX_IMAGE_BYTES:
            return "", {}, f"its embedded image {name!r} is larger than {MAX_IMAGE_BYTES:,} bytes"
        if why := image_problem(data, kind):
            return "", {}, f"its embedded image {name!r} cannot be shown on a card: {why}"
        files[name] = data
    raw = _EMBEDDED_RE.sub(lambda m: m[1], raw)
    if form in ("html", "moodle_auto_format"):
        raw = html_to_markdown(raw)
    return raw.strip(), files, ""


def read(text: str, path: str) -> Reading:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else 0
        return Reading((), (error("E701", path, line, f"not valid XML: {exc}; nothing in the "
                                  "file was converted"),))
    if root.tag != "quiz":
        return Reading((), (error("E701", path, 1, f"not a Moodle XML bank (its root is "
                                  f"<{root.tag}>, not <quiz>); nothing converted"),))
    lines = _question_lines(text)
    problems: list[Diagnostic] = []
    sections: list[Section] = []
    title, items = title_from_name(path), list[Item]()
    for number, question in enumerate(root.iter("question")):
        line = lines[number] if number < len(lines) else 0
        kind = question.get("type", "")
        if kind == "category":
            name = category_name(question.findtext("category/text") or "")
            if items:
                sections.append(Section(title=title, items=tuple(items), path=path))
            title, items = name or title_from_name(path), []
            continue
        item = _question(question, kind, path, line, problems)
        if item is not None:
            items.append(item)
    if items:
        sections.append(Section(title=title, items=tuple(items), path=path))
    return Reading(tuple(sections), tuple(problems))


def _question(question: ET.Element, kind: str, path: str, line: int,
              problems: list[Diagnostic]) -> Item | None:
    prompt, media, bad = _text(question.find("questiontext"))
    if kind == "description":
        problems.append(warning("W701", path, line, "a description, not a question, was not "
                                f"converted: {' '.join(prompt.split())[:60]!r}"))
        return None
    if kind not in ("multichoice", "truefalse"):
        problems.append(error("E702", path, line, f"{a_kind(kind or 'untyped')} question, not "
                              "multiple choice; not converted"))
        return None
    if not prompt and not bad:
        problems.append(error("E702", path, line, "no question text; not converted"))
        return None
    general, more, worse = _text(question.find("generalfeedback"))
    media, bad = {**media, **more}, bad or worse
    choices, feedback = [], []
    for answer in question.findall("answer"):
        text, inner, wrong = _text(answer)
        media, bad = {**media, **inner}, bad or wrong
        try:
            right = float(answer.get("fraction", "0")) > 0
        except ValueError:
            problems.append(error("E703", path, line, f"an answer's fraction "
                                  f"{answer.get('fraction')!r} is not a number; not converted"))
            return None
        if kind == "truefalse":
            text = {"true": "True", "false": "False"}.get(text.strip().casefold(), text)
        if not text:
            continue
        text = one_paragraph(text)
        choices.append(Choice(text, right))
        note, extra, why = _text(answer.find("feedback"))
        media, bad = {**media, **extra}, bad or why
        if note:
            feedback.append(f"{text}: {note}")
    if bad:
        problems.append(error("E704", path, line, f"{bad}; not converted"))
        return None
    if (problem := choices_problem(choices, path, line, "no answer has a positive "
                                   "fraction")) is not None:
        problems.append(problem)
        return None
    if feedback:
        problems.append(warning("W702", path, line, FEEDBACK_JOINED))
    return Item(prompt=prompt, choices=tuple(choices), path=path, line=line,
                explanation="\n\n".join(p for p in (general, *feedback) if p),
                media=tuple(sorted(media.items())))
