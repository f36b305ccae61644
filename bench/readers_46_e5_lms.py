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


def gift_titled(path: Path, text: str) -> list[Expected]:
    """GIFT as its author reads it: ``//`` comments out, a blank line between questions, a
    question's text before its ``{…}`` after its ``::title::``, or the title itself when
    no text follows it (the author wrote the question there); with a ``~`` among its
    answers it is multiple choice, the ``=`` ones right. The explanation is ``####``
    general feedback; where answers carry their own feedback (``#`` after an answer, shown
    when that answer is picked) there is no one explanation: not compared (None)."""
    body = re.sub(r"(?m)^\s*//.*$", "", text.replace("\r\n", "\n"))
    found = []
    for block in re.split(r"\n[ \t]*\n", body):
        match = re.search(r"(?s)^(.*?)\{(.*)\}", block)
        if not match:
            continue
        title = re.match(r"(?s)^\s*::(.*?)::", match[1])
        before = match[1][title.end():] if title else match[1]
        before = re.sub(r"^\s*\[\w+\]", "", before).strip() or (title[1] if title else "")
        answers, general = match[2], ""
        if "####" in answers:
            answers, general = answers.split("####", 1)
        parts = [p.strip() for p in re.split(r"(?<!\\)(?=[~=])", answers) if p.strip()]
        if not any(p.startswith("~") for p in parts):
            continue
        choices = [re.sub(r"^[~=](%-?[\d.]+%)?", "", p).split("#")[0].strip() for p in parts]
        right = {k for k, p in enumerate(parts) if re.match(r"=(?!%)|[~=]%100(\.0*)?%", p)}
        noted = any("#" in p for p in parts)
        if len(choices) >= 2 and right:
            found.append(Expected(words(before), [words(c) for c in choices], right,
                                  None if noted else words(general)))
    return found


def _as_typed(data: bytes) -> str:
    """A UTF-8 file with a few bytes its author's Windows editor wrote, as the author sees
    it: each byte UTF-8 cannot read alone is the Windows-1252 character it stands for
    (``\\x93`` “, ``\\xe9`` é); a character cut short, its last byte turned into ``?`` by
    some earlier conversion (``\\xe2\\x80?``), is unreadable: a space."""
    out, at = [], 0
    while at < len(data):
        try:
            out.append(data[at:].decode("utf-8"))
            break
        except UnicodeDecodeError as exc:
            out.append(data[at:at + exc.start].decode("utf-8"))
            bad, at = data[at + exc.start:at + exc.end], at + exc.end
            if len(bad) == 1 and data[at:at + 1] != b"?" or bad[0] < 0xC2:
                out.append(bad.decode("cp1252", errors="replace").replace("\ufffd", " "))
            else:
                out.append(" ")
                at += data[at:at + 1] == b"?"
    return "".join(out)


def opentrivia_typed(path: Path, text: str) -> list[Expected]:
    """OpenTriviaQA (``opentrivia``) of a file that is UTF-8 but for a few bytes
    (``_as_typed``)."""
    return opentrivia(path, _as_typed(path.read_bytes()))
