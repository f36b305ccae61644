"""Independent readers for bench/banks_46_e5_lms.json (issue 46, round 5): each reads a
bank's source the way a person reading it sees it, without nca_anki."""

from __future__ import annotations

import re
from pathlib import Path

from real_banks import Expected, words


def opentrivia(path: Path, text: str) -> list[Expected]:
    """OpenTriviaQA: ``#Q`` opens a question; every line up to the ``^`` line is its
    prompt; the ``^`` line is the right answer's text; then one ``X text`` line per choice
    up to a blank line. The right choice is the one whose text is the ``^`` line's; no
    explanation. Only questions of two choices or more with a right one count."""
    found: list[Expected] = []
    state, prompt, answer, choices = "", [], "", []

    def done() -> None:
        right = {k for k, c in enumerate(choices) if " ".join(c.split()) == answer}
        if state == "choices" and len(choices) >= 2 and right:
            found.append(Expected(words(" ".join(prompt)), [words(c) for c in choices],
                                  right, ""))

    for line in text.replace("\r\n", "\n").split("\n"):
        if line.startswith("#Q"):
            done()
            state, prompt, answer, choices = "prompt", [line[2:]], "", []
        elif state == "prompt":
            if line.startswith("^"):
                state, answer = "choices", " ".join(line[1:].split())
            else:
                prompt.append(line)
        elif state == "choices":
            if not line.strip():
                done()
                state = ""
            elif re.match(r"[A-Z] ", line):
                choices.append(line[2:])
    done()
    return found
