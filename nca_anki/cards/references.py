"""Does a question's text refer to one of its choices by letter or position?

"The correct answer is a) Overfitting", "Both A and C", "option 2", "the last option":
once the choices move (shuffle.py's balanced order, the card's shuffle), such words point
at another choice, so a question that has them is shown exactly as written.

The decision is by what the words refer to, not by the letters alone:
- a letter counts only if the question has a choice with it (a question of four choices
  has A-D), and a number only if it is a choice's position;
- it must stand where a reference stands: after "option", "answer", "choice"; before
  "is correct"; as "(b)" or "b)"; as "A." opening a line; in a list ("A and C", "A, B or
  D"); after "both", "either", "neither", "only", "except";
- a letter that is part of a name is none: "C++", "C#", "A/B testing", "Plan B",
  "vitamin C", "nodes A and B", "(A and B) testing".

Measured on the corpus in tests/fixtures/choice_references.tsv (tests/cards/test_references.py
prints the precision and recall). Pure: no Markdown, no Jinja.
"""

from __future__ import annotations

import re

_LETTERS = "ABCDEFGHIJ"  # records.LABELS: a question has at most ten choices
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
             "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3,
             **{f"{n}th": n for n in range(4, 11)}}
_COUNTED = {"two": 2, "three": 3, "four": 4}

# Text that is not prose: code (fenced or in backticks), MathJax, web addresses.
# (Math that never closes ends at the next opening: a scan to the text's end from every
# "\(" took time that grew with the square of the text.)
_NOT_PROSE_RE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]*`"
                           r"|\\\((?:(?!\\\().)*?\\\)|\\\[(?:(?!\\\[).)*?\\\]"
                           r"|\b(?:https?://|www\.)\S+",
                           re.DOTALL | re.IGNORECASE)

# Where a letter stands alone: not inside a word, a name such as C++, C#, A/B, A-1, A.B,
# or an apostrophe ("A's").
_BEFORE = r"(?<![\w+#/'’.\-])"
_AFTER = r"(?![\w+#/'’\-]|\.\w)"
_WORD = r"(?:options?|choices?|answers?|alternatives?|responses?|selections?|letters?)"
_VERDICT = (r"(?:correct|incorrect|right|wrong|true|false|best|valid|invalid|accurate|"
            r"inaccurate|the\s+(?:correct\s+|right\s+|best\s+)?(?:answer|option|choice|one))")

# 1. "option C", "answer: b", "the correct answer is (B)", "choices 2 and 4", "answer #3".
_KEYWORD_RE = re.compile(
    rf"\b{_WORD}\s*(?:(?:is|was|would\s+be|=)\s+|[:=\-–—]\s*|\#\s*|no\.\s*|number\s+)?"
    rf"\(?(?P<ref>[A-Ja-j]|\d{{1,2}})(?P<close>\))?{_AFTER}(?P<rest>\s*\S*)", re.IGNORECASE)
# 2. "B is correct", "A and C are wrong", "(b) is the right answer".
_VERDICT_RE = re.compile(
    rf"{_BEFORE}\(?(?P<ref>[A-J])\)?\s+(?:is|are|was|were|would\s+be|seems)\s+"
    rf"(?:not\s+|also\s+|clearly\s+|only\s+)*{_VERDICT}\b")
# 3. "(b)" or "(B)" standing alone, not a call such as f(a).
_PAREN_RE = re.compile(r"(?<![\w)\]])\(\s*(?P<ref>[A-Ja-j])\s*\)(?!\w)")
# 4. "a) Overfitting", "B) ..." after a space, a colon or at a line's start.
_CLOSING_RE = re.compile(r"(?:^|(?<=[\s:;,]))(?P<ref>[A-Ja-j])\)(?=\s|$)", re.MULTILINE)
# 5. "A. Overfitting" or "B: ..." opening a line.
_LINE_RE = re.compile(r"^\s*(?P<ref>[A-J])[.:](?=\s)", re.MULTILINE)
# 6. A list of capital letters: "A and C", "A, B, or D", "B & C", "(A and B)".
_LIST_RE = re.compile(
    rf"(?P<before>\b\w+\s+)?{_BEFORE}\(?(?P<refs>[A-J](?:\s*,\s*[A-J])*\s*,?\s*"
    rf"(?:and|or|nor|&)\s+\(?[A-J])\)?{_AFTER}(?P<after>\s*\)?\s*[a-z]+)?")
# 7. Capital letters after a word that picks choices: "only C", "not B:", "select A, C".
_PICKED_RE = re.compile(
    rf"\b(?i:both|either|neither|only|except|not|select|choose|pick|tick)\s+"
    rf"(?i:options?\s+|choices?\s+)?\(?(?P<ref>[A-J])\)?(?:\s*,\s*[A-J])*{_AFTER}"
    rf"(?P<after>\s*[+#]|\s+[a-z]+)?")
# 8. A position: "the second answer", "the last option", "the first two choices", "the
#    option above", "both of the above" (in a question with more choices than three).
_ORDINAL_RE = re.compile(
    r"\b(?P<nth>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final"
    r"|penultimate|previous|preceding|1st|2nd|3rd|[4-9]th|10th)\s+(?:(?:two|three|four)\s+)?"
    r"(?:options?|choices?|answers?|alternatives?|responses?)\b", re.IGNORECASE)
_RELATIVE_RE = re.compile(
    r"\b(?:the\s+)?(?:option|choice|answer|alternative)\s+(?:above|below|before\s+this)\b"
    r"|\b(?:(?P<both>both|either|neither)|(?:the\s+)?(?:two|three))\s+(?:of\s+)?(?:the\s+)?"
    r"(?:above|previous|preceding)(?:\s+(?:two|options|choices|answers))?\b"
    r"|\b(?:the\s+)?(?:above|previous|preceding)\s+(?P<count>two|three|four)\b"
    r"|\b(?:all|none)\s+of\s+the\s+(?:above|previous)\s+(?:except|but)\b", re.IGNORECASE)

# A letter named by these words is a thing's name, not a choice's ("nodes A and B", "Plan
# B", "type A or B"): compared without a plural "s".
_NAMING_WORDS = frozenset("""
    appendix area bucket case category class cluster column condition device exhibit figure
    file grade group host item job line machine matrix matrice method model network node
    part phase plan point process region room row sample scenario section series server set
    site statement step system table team test tier type user variable variant vector
    version vitamin zone""".split())
# ... and these words after a list of letters make it a name too ("A and B testing").
_NAMED_WORDS = frozenset("""
    testing test tests tested experiment experiments variant variants version versions
    group groups bucket buckets split splits cohort cohorts side sides type types class
    classes node nodes matrix matrices vector vectors blood grades""".split())
# Words that may follow a reference to a choice by lower-case letter ("option a is").
_REFERENCE_VERBS = frozenset("""
    is are was were would and or nor because since as seems looks describes gives states
    says fits matches only""".split())


def _in_range(ref: str, count: int) -> bool:
    if ref.isdigit():
        return 1 <= int(ref) <= count
    return ref.upper() in _LETTERS[:count]


def _named(before: str | None) -> bool:
    word = (before or "").strip().lower()
    return word in _NAMING_WORDS or word.endswith("s") and word[:-1] in _NAMING_WORDS


# Every form above has a capital A-J standing alone, a ")", or one of these words; most
# text has none, and these quick tests rule it out before any pattern runs (the patterns
# on every text were most of a 10,000-question build's time). The letter search is
# written letter first: the engine skips to the capitals instead of trying a lookbehind
# at every character; adding any alternative to it would lose that (four times slower).
_LONE_LETTER_RE = re.compile(r"[A-J](?<![\w/][A-J])(?![\w'’])")
_WORD_ROOTS = ("option", "choice", "answer", "alternativ", "respons", "selection", "letter",
               "above", "previous", "preceding")


def might_refer(text: str) -> bool:
    """False if ``text`` holds none of what every reference has (then choice_reference
    finds none). A question's texts joined by newlines are tested at once: one call
    instead of six is most of the saving."""
    if ")" in text or _LONE_LETTER_RE.search(text):
        return True
    lower = text.lower()
    return any(root in lower for root in _WORD_ROOTS)


def _closes_a_group(text: str, at: int) -> bool:
    """True if the ")" after ``text[at]`` closes a "(" opened earlier on its line: "(A and
    B)" is a group, not "B)" labelling a choice."""
    line = text[text.rfind("\n", 0, at) + 1:at]
    return line.count("(") > line.count(")")


def prose(text: str) -> str:
    """``text`` without its code, math and web addresses (letters there name no choice).
    Most texts have none, and five substring tests are ten times quicker than the pattern
    (shuffle.py asks this of every choice)."""
    if ("`" in text or "~" in text or "\\" in text or "://" in text
            or "ww." in text.lower()):
        return _NOT_PROSE_RE.sub(" ", text)
    return text


def choice_reference(text: str, count: int) -> str:
    """The words of ``text`` that refer to one of ``count`` choices by letter or position
    ("option C", "the last answer"), or "" if none do."""
    if count < 2 or not might_refer(text):
        return ""
    return _reference(prose(text), count)


def _reference(text: str, count: int) -> str:
    """choice_reference without its quick check, on prose: the first of the forms a
    reference takes, tried from the plainest ("option C") to the most roundabout ("the
    last two answers")."""
    for form in _FORMS:
        if found := form(text, count):
            return found
    return ""


def _keyword(text: str, count: int) -> str:
    """"option C", "answer (b)"; not "answer a question"."""
    for found in _KEYWORD_RE.finditer(text):
        ref, rest = found.group("ref"), found.group("rest").strip().lower()
        if not _in_range(ref, count):
            continue
        if (ref.islower() and not found.group("close")
                and rest[:1].isalpha() and rest.rstrip(".,;:!?") not in _REFERENCE_VERBS):
            continue  # "answer a question", "choose an option a user ..."
        return text[found.start():found.start("rest")].strip()
    return ""


def _marked(text: str, count: int) -> str:
    """A letter in a verdict, in parentheses, closing a sentence or alone on its line."""
    for pattern in (_VERDICT_RE, _PAREN_RE, _CLOSING_RE, _LINE_RE):
        for found in pattern.finditer(text):
            if _in_range(found.group("ref"), count) and not (
                    pattern is _CLOSING_RE and _closes_a_group(text, found.start())):
                return found.group().strip()
    return ""


def _listed(text: str, count: int) -> str:
    """"A and C", "A, B, D" that name no other thing."""
    for found in _LIST_RE.finditer(text):
        letters = re.findall(r"[A-J]", found.group("refs"))
        after = (found.group("after") or "").strip(" )").lower()
        if (all(_in_range(letter, count) for letter in letters)
                and not _named(found.group("before")) and after not in _NAMED_WORDS):
            return found.group("refs")
    return ""


def _picked(text: str, count: int) -> str:
    """"pick B", not "pick C++" nor "B and"."""
    for found in _PICKED_RE.finditer(text):
        after = (found.group("after") or "").strip().lower()
        if (_in_range(found.group("ref"), count) and after[:1] not in ("+", "#")
                and after not in _NAMED_WORDS and after not in ("and", "or", "nor")):
            return found.group().strip()
    return ""


def _ordinal(text: str, count: int) -> str:
    """"the third answer", within the choices there are."""
    for found in _ORDINAL_RE.finditer(text):
        if _ORDINALS.get(found.group("nth").lower(), 0) <= count:
            return found.group()
    return ""


def _relative(text: str, count: int) -> str:
    """"all of the above", "the last two", "both of the above" among more than three."""
    for found in _RELATIVE_RE.finditer(text):
        counted = _COUNTED.get((found.group("count") or "").lower(), 0)
        if found.group("both") and count <= 3:
            continue  # "both of the above" among three choices: the other two, wherever
        if counted < count:
            return found.group()
    return ""


_FORMS = (_keyword, _marked, _listed, _picked, _ordinal, _relative)
