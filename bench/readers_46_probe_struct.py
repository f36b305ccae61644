"""Independent readers for the real banks of bench/banks_46_probe_struct.json (issue 46, the
structured banks' round): each reads its bank's source as a person sees it, with a small
reader of JavaScript literals of its own, and knows nothing of nca_anki. They hold no
questions, only how each shape is read."""

from __future__ import annotations

import re
from pathlib import Path

from real_banks import Expected, words

# --- a small reader of JavaScript literals ----------------------------------------------------

_SPACE = re.compile(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")


def _skip(text: str, at: int) -> int:
    return _SPACE.match(text, at).end()  # type: ignore[union-attr]


def literal(text: str, at: int) -> tuple[object, int]:
    """The JavaScript literal starting at ``at`` (after blanks and comments) and where it
    ends: strings, numbers, true/false/null, arrays, objects with quoted or bare keys."""
    at = _skip(text, at)
    ch = text[at]
    if ch in "\"'`":
        out, at = [], at + 1
        while text[at] != ch:
            if text[at] == "\\":
                nxt = text[at + 1]
                out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                at += 2
            else:
                out.append(text[at])
                at += 1
        return "".join(out), at + 1
    if ch == "[":
        items, at = [], _skip(text, at + 1)
        while text[at] not in "])":  # ")" ends a call's arguments read as an array
            value, at = literal(text, at)
            items.append(value)
            at = _skip(text, at)
            if text[at] == ",":
                at = _skip(text, at + 1)
        return items, at + 1
    if ch == "{":
        obj, at = {}, _skip(text, at + 1)
        while text[at] != "}":
            if text[at] in "\"'":
                key, at = literal(text, at)
            else:
                name = _NAME.match(text, at)
                key, at = name[0], name.end()  # type: ignore[index]
            at = _skip(text, at)
            value, at = literal(text, at + 1)  # after the ':'
            obj[key] = value
            at = _skip(text, at)
            if text[at] == ",":
                at = _skip(text, at + 1)
        return obj, at + 1
    number = _NUMBER.match(text, at)
    if number:
        return float(number[0]) if "." in number[0] else int(number[0]), number.end()
    name = _NAME.match(text, at)
    word = name[0]  # type: ignore[index]
    return {"true": True, "false": False, "null": None}.get(word, word), name.end()  # type: ignore[union-attr]


def _after(text: str, marker: str) -> object:
    return literal(text, text.index(marker) + len(marker))[0]


# --- the banks ----------------------------------------------------------------------------------

def trivia_flat_wrong(path: Path, text: str) -> list[Expected]:
    """``export const preguntas = {Categoria: [{Pregunta, Incorrecta1..3, Correcta}]}``:
    the right answer in one key, each wrong one in its own numbered key."""
    found = []
    for questions in _after(text, "export const preguntas =").values():  # type: ignore[union-attr]
        for q in questions:
            wrong = [q[k] for k in sorted(q) if k.startswith("Incorrecta")]
            found.append(Expected(words(str(q["Pregunta"])),
                                  [words(str(c)) for c in [q["Correcta"], *wrong]], {0}, ""))
    return found


def trivia_languages(path: Path, text: str) -> list[Expected]:
    """``var preguntas = [{question: {en, es}, correct: {en, es}, incorrects: [{en, es}]}]``:
    every text in English and Spanish; read in English."""
    found = []
    for q in _after(text, "var preguntas ="):  # type: ignore[union-attr]
        choices = [q["correct"]["en"], *(c["en"] for c in q["incorrects"])]
        found.append(Expected(words(q["question"]["en"]), [words(c) for c in choices], {0}, ""))
    return found


def rows_by_position(path: Path, text: str) -> list[Expected]:
    """``const deportes = [[prompt, [choices], right choice's text, picture], …]`` per
    category, before the app's code."""
    found = []
    for name in re.findall(r"^const (\w+) = \[\s*\[", text, re.M):
        for row in _after(text, f"const {name} ="):  # type: ignore[union-attr]
            prompt, choices, answer = row[0], row[1], row[2]
            found.append(Expected(words(prompt), [words(c) for c in choices],
                                  {choices.index(answer)}, ""))
    return found


def constructor_right_first(path: Path, text: str) -> list[Expected]:
    """``new createQuestion(question, answer, wrong1, wrong2, wrong3)`` per question, as
    the class declared in the file names its parameters."""
    found = []
    for start in [m.end() - 1 for m in re.finditer(r"new createQuestion\s*\(", text)]:
        args = literal("[" + text[start + 1:], 0)[0]  # the arguments, as an array
        found.append(Expected(words(args[0]), [words(a) for a in args[1:]], {0}, ""))
    return found


def answers_split_at_semicolons(path: Path, text: str) -> list[Expected]:
    """``[{question, correct_answer: "a;b", incorrect_answers: "c;d;e", image}]``: the
    answers written as one text each, split at ";" by the bank's own app."""
    import json
    found = []
    for q in json.loads(text.lstrip("\ufeff")):
        right = [a.strip() for a in q["correct_answer"].split(";") if a.strip()]
        wrong = [a.strip() for a in q["incorrect_answers"].split(";") if a.strip()]
        found.append(Expected(words(q["question"]), [words(c) for c in right + wrong],
                              set(range(len(right))), ""))
    return found


def answer_in_lower_case(path: Path, text: str) -> list[Expected]:
    """``const quizData = {category: [{q, options, a: "the right choice in lower case"}]}``
    before the bot's code."""
    found = []
    for questions in _after(text, "const quizData =").values():  # type: ignore[union-attr]
        for q in questions:
            options = q["options"]
            right = {k for k, o in enumerate(options) if o.casefold() == q["a"].casefold()}
            found.append(Expected(words(q["q"]), [words(o) for o in options], right, ""))
    return found
