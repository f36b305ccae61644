"""The checks on the questions as read (questions.py): each question whole (a prompt, two
choices or more, none twice, its ``Correct answer:`` lines naming exactly the choices marked
``(Correct answer)``, code blocks closed) and then built, or not; and across a file's
questions, repeats and numbering. Also git's conflict markers, which no question reading
should take for text.

Pure functions; each returns its diagnostics with its result.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.reading.lines import conflict_markers, first_line
from nca_anki.reading.seen import invisibles, named, seen
from nca_anki.records import Question

if TYPE_CHECKING:
    from collections.abc import Sequence

    from nca_anki.reading.questions import QuestionLines


def check_conflicts(lines: Sequence[str], path: str) -> tuple[Diagnostic, ...]:
    """An error at each of git's conflict markers: read as text they reach the card as a
    heading and quotes, or keep both versions of a question."""
    return tuple(error("E113", path, number, "merge conflict marker: a merge left both sides "
                       "of a conflict in this file; keep the right lines, delete the marker "
                       "lines (<<<<<<<, =======, >>>>>>>), and build again")
                 for number in conflict_markers(lines))


def check_question(written: QuestionLines, path: str
                   ) -> tuple[Question | None, tuple[Diagnostic, ...]]:
    """The question, if it is whole and nothing was said against it while reading; and
    every problem with it."""
    said: list[Diagnostic] = []
    if written.fence:
        return None, (_unclosed_fence(written, path),)
    prompt = "\n".join(written.prompt).strip()
    ok = not written.broken
    if not prompt:
        said.append(error("E116", path, written.line, f"Question {written.number} has no prompt"))
        ok = False
    if not written.choices:
        said.append(error("E117", path, written.line, f"Question {written.number} has no "
                          "choices; list them as '- <choice>' lines after the prompt"))
        return None, tuple(said)
    if len(written.choices) < 2:
        said.append(error("E117", path, written.line, f"Question {written.number} has only one "
                          "choice; a multiple-choice question needs at least two"))
        ok = False
    # Choices and the answer compare as the learner sees them (reading/seen.py): spacing,
    # invisible characters and Unicode's two forms aside, never case-folded ("declare -a"
    # and "declare -A" are two commands).
    texts = [seen(c.text) for c in written.choices]
    ok = _check_twice(written, texts, path, said) and ok
    if not written.answers:
        said.append(error("E120", path, written.line, f"Question {written.number} has no "
                          "'Correct answer: <choice>' line after its choices"))
        ok = False
    elif not _check_answers(written, texts, path, said):
        ok = False
    explanation = "\n".join(text for _, text in written.explanation).strip()
    if ok and not explanation:
        said.append(warning("W120", path, written.line,
                            f"Question {written.number} has no explanation"))
    if not ok:
        return None, tuple(said)
    explained_at = next((n for n, text in written.explanation if text.strip()), 0)
    return Question(number=written.number, prompt=prompt, choices=written.choices,
                    explanation=explanation, path=path, line=written.line,
                    explanation_line=explained_at), tuple(said)


def _unclosed_fence(written: QuestionLines, path: str) -> Diagnostic:
    """The error for a code block still open at the question's end."""
    if written.explaining:
        # As in a prompt: Markdown would close it at the field's end and show the rest of
        # the explanation as code; the author meant to close it somewhere.
        end = written.explanation[-1][0] if written.explanation else written.fence_line
        return error("E119", path, written.fence_line, f"the code block opened here with "
                     f"{written.fence} in Question {written.number}'s explanation never closes "
                     f"(the explanation ends on line {end}); end the block with a line of "
                     f"{written.fence} alone")
    # Everything after it was read as code: one error says why.
    return error("E119", path, written.fence_line, f"the code block opened here with "
                 f"{written.fence} never closes, so Question {written.number}'s later lines "
                 f"were read as code; end the block with a line of {written.fence} alone")


def _check_twice(written: QuestionLines, texts: list[str], path: str,
                 said: list[Diagnostic]) -> bool:
    """An error at each choice the learner sees twice: the card would judge the unmarked
    copy wrong. False if there is one."""
    first_at: dict[str, int] = {}
    ok = True
    for i, text in enumerate(texts):
        at = first_at.setdefault(text, i)
        if not text or at == i:
            continue
        first, again = written.choices[at], written.choices[i]
        said.append(error("E118", path, again.line, f"Question {written.number} lists the "
                          f"choice {clip(first_line(again.text))!r} twice (also at line "
                          f"{first.line}){_how_alike(first.text, again.text)}; delete one"))
        ok = False
    return ok


def _how_alike(first: str, again: str) -> str:
    """What makes two texts the learner sees as one differ, said in a message ("" if
    nothing but the spaces around them)."""
    hidden = invisibles(first + again)
    if hidden:
        return f"; they differ only in invisible characters ({named(hidden)})"
    if " ".join(first.split()) != " ".join(again.split()):
        return "; they differ only in how their characters are encoded (NFC and NFD)"
    return "; they differ only in spacing" if first.strip() != again.strip() else ""


# --- the answer lines against the marked choices ------------------------------------------

def _check_answers(written: QuestionLines, texts: list[str], path: str,
                   said: list[Diagnostic]) -> bool:
    """Whether the choices marked '(Correct answer)' and the 'Correct answer:' lines name
    the same choices, one line per marked choice; an error at each place that differs. A
    line names a choice by its text, or (for a choice that carries code) by its first
    line."""
    firsts = [seen(first_line(c.text)) for c in written.choices]
    marked = [i for i, c in enumerate(written.choices) if c.correct]
    named_at, unresolved, ok = _name_choices(written, texts, firsts, marked, path, said)
    if not marked:
        hint = ""
        if named_at:
            hint = (f"; the 'Correct answer:' line names the choice at line "
                    f"{written.choices[min(named_at)].line}")
        said.append(error("E120", path, written.line, f"Question {written.number} has no "
                          f"choice ending in '(Correct answer)'{hint}"))
        return False
    ok = _named_but_unmarked(written, named_at, path, said) and ok
    unnamed = [i for i in marked if i not in named_at]
    if unresolved:
        _say_unresolved(written, unresolved, unnamed, firsts, path, said)
        return False
    for at in unnamed:
        first = first_line(written.choices[at].text)
        said.append(error("E121", path, written.choices[at].line, f"choice marked '(Correct "
                          f"answer)' but no 'Correct answer:' line names it; add 'Correct "
                          f"answer: {clip(first)}' after the choices (one line per correct "
                          "choice), or remove the mark"))
        ok = False
    return ok


def _name_choices(written: QuestionLines, texts: list[str], firsts: list[str], marked: list[int],
                  path: str, said: list[Diagnostic],
                  ) -> tuple[dict[int, int], list[tuple[str, int]], bool]:
    """Which choice each 'Correct answer:' line names: choice index -> the line naming it;
    the lines that name none, or (one line, one marked choice) another than the marked;
    and False if two lines name one choice (an error at the second)."""
    named_at: dict[int, int] = {}
    unresolved: list[tuple[str, int]] = []
    ok = True
    single = len(marked) == 1 and len(written.answers) == 1
    for text, line in written.answers:
        wanted = seen(text)
        # The choices it names by their text, else by their first line (choices over code
        # can share one, ":" say): the marked one among them if there is one.
        named_by = [i for i, t in enumerate(texts) if t == wanted] \
            or [i for i, f in enumerate(firsts) if f == wanted]
        at = next((i for i in named_by if written.choices[i].correct and i not in named_at),
                  named_by[0] if named_by else -1)
        if at < 0 or single and at != marked[0]:  # one of each: they disagree
            unresolved.append((text, line))
        elif at in named_at:
            said.append(error("E121", path, line, f"'Correct answer: {clip(text)}' names the "
                              f"same choice as line {named_at[at]}; delete one of them"))
            ok = False
        else:
            named_at[at] = line
    return named_at, unresolved, ok


def _named_but_unmarked(written: QuestionLines, named_at: dict[int, int], path: str,
                        said: list[Diagnostic]) -> bool:
    """An error at each 'Correct answer:' line that names a choice not marked; False if
    there is one."""
    ok = True
    for at, line in sorted(named_at.items(), key=lambda item: item[1]):
        choice = written.choices[at]
        if not choice.correct:
            said.append(error("E121", path, line, f"'Correct answer: "
                              f"{clip(first_line(choice.text))}' names the choice at line "
                              f"{choice.line}, which is not marked '(Correct answer)'; mark "
                              "that choice too, or delete this line"))
            ok = False
    return ok


def _say_unresolved(written: QuestionLines, unresolved: list[tuple[str, int]], unnamed: list[int],
                    firsts: list[str], path: str, said: list[Diagnostic]) -> None:
    """An error at each 'Correct answer:' line that names no choice: against the marked
    choice it was meant to copy when that is clear (the only one left, or the one it
    differs from only in case), else against all of them."""
    for text, line in unresolved:
        near = [i for i in unnamed if seen(text).casefold() == firsts[i].casefold()]
        if len(near) != 1 and len(unnamed) != 1:
            said.append(error("E121", path, line, f"'Correct answer: {clip(text)}' names none "
                              f"of Question {written.number}'s choices; copy the text of a "
                              "choice marked '(Correct answer)'"))
            continue
        at = near[0] if near else unnamed[0]
        unnamed.remove(at)
        choice = written.choices[at]
        # Both cut at the same place, around where they first differ: cut at the end, a
        # typo at the end of a long line was hidden in both.
        text_said, marked_text = _where_they_differ(text.strip(), first_line(choice.text).strip())
        if near:
            said.append(error("E121", path, line, f"'Correct answer: {text_said}' differs only "
                              f"in case from the choice marked '(Correct answer)' at line "
                              f"{choice.line}: {marked_text!r}; letter case can change what a "
                              "choice means: copy the marked choice exactly"))
        else:
            said.append(error("E121", path, line, f"'Correct answer: {text_said}' disagrees "
                              f"with the choice marked '(Correct answer)' at line "
                              f"{choice.line}: {marked_text!r}; copy the marked choice exactly"))


def _where_they_differ(a: str, b: str, room: int = 30) -> tuple[str, str]:
    """``a`` and ``b`` as a message shows them: whole when both are short; else each cut to
    the same few words around the first place they differ, with "…" where text is left
    out, so that the difference is on the screen."""
    a, b = " ".join(a.split()), " ".join(b.split())
    same = len(os.path.commonprefix([a, b]))
    if len(a) <= 2 * room and len(b) <= 2 * room or same < room:
        return clip(a), clip(b)  # short, or different from the start: each as it begins
    start = max(0, same - room)
    start = a.rfind(" ", 0, start) + 1 if start else 0  # from a word's start

    def cut(text: str) -> str:
        end = min(len(text), same + room)
        return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")

    return cut(a), cut(b)


# --- across the file's questions ------------------------------------------------------------

def repeat_key(question: Question) -> tuple[str, tuple[str, ...]]:
    """What two questions share when one repeats the other word for word: the prompt and
    the set of choices, as the learner sees them (reading/seen.py)."""
    return seen(question.prompt), tuple(sorted(seen(c.text) for c in question.choices))


def check_repeats(questions: tuple[Question, ...],
                  path: str) -> tuple[tuple[Question, ...], tuple[Diagnostic, ...]]:
    """An error at a question that repeats an earlier one word for word (prompt and
    choices), and at the one it repeats: learners would review the same card twice, and
    deleting one copy later could withdraw the one they studied. Neither copy is built
    until one is deleted: the questions without them."""
    first_of: dict[tuple[str, tuple[str, ...]], Question] = {}
    repeated: set[int] = set()
    said: list[Diagnostic] = []
    for question in questions:
        first = first_of.setdefault(repeat_key(question), question)
        if first is not question:
            said.append(error("E130", path, first.line, f"Question {first.number} is repeated "
                              f"word for word by Question {question.number} (line "
                              f"{question.line}); delete one"))
            said.append(error("E130", path, question.line, f"Question {question.number} "
                              f"repeats Question {first.number} (line {first.line}) word for "
                              "word; delete one"))
            repeated.update((id(first), id(question)))
    return tuple(q for q in questions if id(q) not in repeated), tuple(said)


def check_numbers(questions: Sequence[QuestionLines], mistyped: frozenset[int],
                  path: str) -> tuple[Diagnostic, ...]:
    """A warning at each question numbered out of sequence; a number whose header is
    mistyped (E114 says so) may be skipped."""
    said: list[Diagnostic] = []
    expected = 1
    for written in questions:
        while expected in mistyped and written.number != expected:
            expected += 1
        if written.number != expected:
            said.append(warning("W121", path, written.line, f"Question {written.number} is "
                                f"numbered out of sequence (expected Question {expected})"))
        expected = written.number + 1
    return tuple(said)
