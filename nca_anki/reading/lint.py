"""Warn authors about answers that give themselves away (correct choices much longer than
every distractor, every choice correct, correct answers that cluster on one position in
the source order), about a code block whose language the highlighter does not know (it
would show without colours, silently), and about an image without a description.

Pure: a topic's parsed questions in, warnings out (no Jinja, no genanki); never an error.
"""

from __future__ import annotations

import re
from collections import Counter

from nca_anki.diagnostics import Diagnostic, warning
from nca_anki.reading.parse import FENCE_RE
from nca_anki.records import ParsedFile, Question, Topic

# Longest-answer giveaway: both thresholds must hold, so short choices ("Volta" against
# "Pascal") never warn, however different their lengths in proportion.
LONGEST_RATIO = 1.5
LONGEST_MARGIN = 15  # characters
# Position cluster: too few questions say nothing about the author's habit.
CLUSTER_MIN_QUESTIONS = 5
CLUSTER_SHARE = 0.4  # warn above this share on one position ...
CLUSTER_MIN_COUNT = 4  # ... held by at least this many questions

_MARKUP_RE = re.compile(r"[`*_]")


def visible_length(text: str) -> int:
    """The length of ``text`` as a learner reads it: Markdown emphasis and code marks
    dropped (roughly), runs of whitespace counted as one space."""
    return len(" ".join(_MARKUP_RE.sub("", text).split()))


def _longest_answer(question: Question) -> Diagnostic | None:
    """A warning if the correct choices are the longest by far: every one of them longer
    than every distractor by both thresholds (with several answers, a learner told to
    choose 2 picks the two longest)."""
    correct = question.correct_indexes
    if len(question.choices) < 2 or not correct or len(correct) == len(question.choices):
        return None  # the parser, or _every_choice_correct, reports these
    answer = min(visible_length(question.choices[i].text) for i in correct)
    others = [c.text for i, c in enumerate(question.choices) if i not in correct]
    # Any distractor longer than this clears the question. A text is never shorter as
    # written than as read, so most need no measuring at all.
    limit = min(answer / LONGEST_RATIO, answer - LONGEST_MARGIN)
    if any(len(text) > limit and visible_length(text) > limit for text in others):
        return None
    distractor = max(visible_length(text) for text in others)
    if len(correct) == 1:
        return warning("W140", question.path, question.line,
                       f"Question {question.number}'s correct choice is the longest by far "
                       f"({answer} characters; the longest distractor has {distractor}): "
                       "learners can guess it without knowing; make the distractors as "
                       "specific as the answer")
    return warning("W140", question.path, question.line,
                   f"Question {question.number}'s {len(correct)} correct choices are the "
                   f"{len(correct)} longest by far (the shortest has {answer} characters; the "
                   f"longest distractor has {distractor}): learners told to choose "
                   f"{len(correct)} can guess them without knowing; make the distractors as "
                   "specific as the answers")


def _every_choice_correct(question: Question) -> Diagnostic | None:
    if len(question.correct_indexes) < len(question.choices):
        return None
    return warning("W141", question.path, question.line,
                   f"every choice of Question {question.number} is marked '(Correct answer)': "
                   f"the card says 'Choose {len(question.choices)} answers', which gives them "
                   "away; add distractors, or ask the question another way")


def _position_cluster(topic: Topic) -> Diagnostic | None:
    # The cards shuffle the choices on every review, so a cluster is no giveaway there:
    # this is a warning about the author's habit, for decks or questions that keep the
    # written order (shuffling off, choices named by letter), never an error.
    positions = [p for f in topic.files for p in f.positions if p >= 0]
    if len(positions) < CLUSTER_MIN_QUESTIONS or not topic.files:
        return None
    # most_common keeps first-seen order among ties: the earliest in the source wins.
    position, count = Counter(positions).most_common(1)[0]
    if count <= CLUSTER_SHARE * len(positions) or count < CLUSTER_MIN_COUNT:
        return None
    letter = chr(ord("A") + position)
    return warning("W142", topic.files[0].path, topic.files[0].title_line,
                   f"correct answers cluster on {letter} in the source order ({count} of "
                   f"{len(positions)} questions); the cards shuffle choices when shown, but a "
                   "deck with shuffling turned off, or questions that cannot be shuffled, show "
                   "this order: vary where the correct choice goes")




def _known_language(name: str) -> bool:
    """True if Pygments has a lexer called ``name`` (markup.py highlights with it). Loaded
    only for a fence that names a language: its table of names, not the lexers."""
    from pygments.lexers import find_lexer_class_by_name
    from pygments.util import ClassNotFound
    try:
        find_lexer_class_by_name(name.lower())
    except ClassNotFound:
        return False
    return True


def _unknown_languages(question: Question) -> list[Diagnostic]:
    # Every fence line, opening or closing (a closing one names no language).
    texts = (question.prompt, *(c.text for c in question.choices), question.explanation)
    names = {m.group("info") for text in texts
             if "```" in text or "~~~" in text for m in FENCE_RE.finditer(text)} - {""}
    return [warning("W143", question.path, question.line,
                    f"Question {question.number}: the code block's language {name!r} is not "
                    "one the highlighter knows, so the code is shown without colours; use "
                    "its usual name (python, bash, c, cpp, cuda, yaml, json, dockerfile…)")
            for name in sorted(names) if not _known_language(name)]


# An image with nothing between its brackets: "![](plot.png)".
_BARE_IMAGE_RE = re.compile(r"!\[\s*\]\(")


def _bare_images(question: Question) -> Diagnostic | None:
    texts = (question.prompt, *(c.text for c in question.choices), question.explanation)
    if not any("![" in text and _BARE_IMAGE_RE.search(text) for text in texts):
        return None
    return warning("W144", question.path, question.line,
                   f"Question {question.number} shows an image with no description: write "
                   "what it shows between the brackets, ![a plot of ...](path); a screen "
                   "reader reads it, and a client that cannot show the image shows it")


def long_answers(file: ParsedFile) -> tuple[Diagnostic, ...]:
    """A warning for each question of ``file`` whose correct choices are the longest by
    far or are all its choices, and for each code block language the highlighter does not
    know (per file, so the build keeps them with the parsed file and need not redo them)."""
    return tuple(d for q in file.questions
                 for d in (_longest_answer(q), _every_choice_correct(q), _bare_images(q),
                           *_unknown_languages(q))
                 if d is not None)


def position_cluster(topic: Topic) -> tuple[Diagnostic, ...]:
    """A warning if the topic's correct answers cluster on one position."""
    found = _position_cluster(topic)
    return (found,) if found is not None else ()


def giveaways(topic: Topic) -> tuple[Diagnostic, ...]:
    """Warnings for ``topic``: each question whose correct choice is the longest by far,
    then, once for the topic, a cluster of correct answers on one position."""
    return (*(d for f in topic.files for d in long_answers(f)), *position_cluster(topic))
