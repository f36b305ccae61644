#!/usr/bin/env python3
"""The benchmark's peer: the straightforward script a user writes in an afternoon.

    python bench/peer.py SOURCE_DIR OUT_DIR

Not part of nca-anki and not used by it. It reads the same question files, parses them
with a regular expression, converts every field with Python-Markdown, renders the card
with one Jinja template and writes one ``.apkg`` per topic with genanki's defaults
(``Package.write_to_file``). No escaping rules, no identity lock (GUIDs from genanki's
hash of the fields), no checks: it is the speed to beat, not a design to copy.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import genanki
import jinja2
import markdown

QUESTION = re.compile(r"^Question \d+:\s*(.*?)\n(.*?)(?=^Question \d+:|\Z)", re.M | re.S)
TITLE = re.compile(r"^(.*?)\s+(\d+)\s*[—-]", re.M)

FRONT = jinja2.Template(
    "<div class=prompt>{{ prompt }}</div>{{ choices }}")
MODEL = genanki.Model(
    1_700_000_000, "Peer MCQ",
    fields=[{"name": n} for n in ("Front", "Answer", "Explanation")],  # Front: prompt + choices
    templates=[{"name": "Card 1", "qfmt": "{{Front}}",
                "afmt": "{{FrontSide}}<hr id=answer>{{Answer}}<br>{{Explanation}}"}])


def parse(text: str):
    title_match = TITLE.search(text)
    topic = title_match.group(1) if title_match else "Untitled"
    questions = []
    for prompt, body in QUESTION.findall(text):
        choices, answer, explanation = [], "", []
        for line in body.strip().splitlines():
            if line.startswith("- "):
                choice = line[2:]
                if choice.endswith("(Correct answer)"):
                    choice = choice[: -len("(Correct answer)")].strip()
                    answer = choice
                choices.append(choice)
            elif line.startswith("Correct answer:"):
                continue
            else:
                explanation.append(line)
        questions.append((prompt, choices, answer, "\n".join(explanation)))
    return topic, questions


def main(source: Path, out: Path) -> None:
    md = markdown.Markdown()
    decks: dict[str, genanki.Deck] = {}
    notes = defaultdict(list)
    for path in sorted(source.glob("*.txt")):
        topic, questions = parse(path.read_text(encoding="utf-8"))
        for prompt, choices, answer, explanation in questions:
            choice_list = "\n".join(f"1. {c}" for c in choices)
            front = FRONT.render(prompt=md.convert(prompt), choices=md.convert(choice_list))
            notes[topic].append(genanki.Note(model=MODEL, fields=[
                front, md.convert(answer), md.convert(explanation)]))
    out.mkdir(parents=True, exist_ok=True)
    for number, (topic, topic_notes) in enumerate(sorted(notes.items())):
        deck = decks[topic] = genanki.Deck(2_000_000_000 + number, topic)
        for note in topic_notes:
            deck.add_note(note)
        slug = re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-")
        genanki.Package(deck).write_to_file(out / f"{slug}.apkg")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
