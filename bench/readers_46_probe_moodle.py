"""Independent readers for the banks of bench/banks_46_probe_moodle.json (issue 46, round 4).

Each reads a bank the way a person sees it in Moodle (or in its own format's page), with
no code from nca_anki: the prompt's first words, each choice's first words, which are
right, and the explanation's first words ("" where the source has none).

What a person sees, in Moodle:
- the question text and each answer as the browser renders their HTML (tags gone,
  entities read once by the browser; text that the XML escaped twice, "&amp;lt;", shows
  "&lt;" read by the browser as "<");
- Moodle numbers the answers itself ("a.", "b."): a label the author also wrote into
  every answer, in order ("(A) 640", "B) …"), is noise a card drops, so it is not part of
  the choice a person reads;
- the general feedback after answering: the explanation.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from real_banks import Expected, words

_LABEL = re.compile(r"^\s*(?:\(([A-Za-z])\)|([A-Za-z])\s*[.)\-:])\s+")


def _shown(fragment: str) -> str:
    """What a browser shows of an HTML fragment: tags gone, entities read."""
    text = re.sub(r"<[^>]*>", " ", fragment)
    return html.unescape(text)


def _unlabelled(texts: list[str]) -> list[str]:
    """The answers without the letters written into each, when every one carries its own
    letter in order (a, b, c … or A, B, C …)."""
    found = [_LABEL.match(t) for t in texts]
    if len(texts) < 2 or not all(found):
        return texts
    letters = [(m[1] or m[2]).lower() for m in found if m]
    if letters != [chr(ord("a") + k) for k in range(len(texts))]:
        return texts
    return [t[m.end():] for t, m in zip(texts, found) if m]


def moodle_xml(path: Path, text: str) -> list[Expected]:
    found = []
    for q in ET.fromstring(text).iter("question"):
        kind = q.get("type")
        if kind not in ("multichoice", "truefalse"):
            continue
        single = kind == "truefalse" or (q.findtext("single") or "true").strip().lower() \
            not in ("false", "0", "")
        answers = []
        for a in q.findall("answer"):
            shown = _shown(a.findtext("text") or "").strip()
            fraction = float(a.get("fraction", "0"))
            if shown:
                answers.append((shown, fraction >= 100 if single else fraction > 0))
        texts = _unlabelled([t for t, _ in answers])
        explanation = _shown(q.findtext("generalfeedback/text") or "").strip()
        found.append(Expected(words(_shown(q.findtext("questiontext/text") or "")),
                              [words(t) for t in texts],
                              {k for k, (_, r) in enumerate(answers) if r},
                              words(explanation)))
    return found


def gift(path: Path, text: str) -> list[Expected]:
    """GIFT as Moodle imports it: '//' comment lines and '$CATEGORY' lines aside, each
    question is the text before an unescaped '{' (an optional '::title::' first) and its
    answers up to the '}', blank lines inside them allowed: '=' right, '~' wrong (a
    positive '%n%' weight right), '#' feedback, '####' general feedback. Questions
    with '~' answers are multiple choice; {T} and {F} show True and False."""
    kept = [ln for ln in text.replace("\r\n", "\n").split("\n")
            if not ln.strip().startswith(("//", "$CATEGORY"))]
    found = []
    for head, body in re.findall(r"((?:\\.|[^{}\\])*)\{((?:\\.|[^{}\\])*)\}",
                                 "\n".join(kept)):
        head = re.sub(r"^\s*::(?:\\.|[^:])*::", "", head.strip()).strip()
        general = ""
        if "####" in body:
            body, _, general = body.partition("####")
        truth = re.split(r"(?<!\\)#", body)[0].strip().upper()
        if truth in ("T", "TRUE", "F", "FALSE"):  # true/false: Moodle shows two choices
            found.append(Expected(words(_shown(re.sub(r"^\[\w+\]", "", head))),
                                  ["true", "false"], {0 if truth.startswith("T") else 1},
                                  words(_shown(general))))
            continue
        if "~" not in body:
            continue
        answers = []
        for mark, raw in re.findall(r"([=~])((?:\\.|[^=~\\])*)", body):
            weight = re.match(r"\s*%(-?[\d.]+)%", raw)
            right = mark == "=" or (weight is not None and float(weight[1]) > 0)
            raw = raw[weight.end():] if weight else raw
            raw = re.split(r"(?<!\\)#", raw)[0]
            raw = re.sub(r"\\(.)", r"\1", raw).strip()
            if raw:
                answers.append((raw, right))
        found.append(Expected(words(_shown(re.sub(r"^\[\w+\]", "", head))),
                              [words(_shown(t)) for t in _unlabelled([t for t, _ in answers])],
                              {k for k, (_, r) in enumerate(answers) if r},
                              words(_shown(general))))
    return found
