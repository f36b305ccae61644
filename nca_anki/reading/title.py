"""A question file's title line and its footer: the title read (its suffix as written or
mistyped, its part number, a damaged dash separator), the footer that repeats it at the
end found and checked, and the same encoding damage repaired in the body's lines.

Functions of the lines they are given; each returns its diagnostics with its result.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.reading.lines import ANSWER_RE, CHOICE_RE, header, invisible, unhide
from nca_anki.reading.seen import seen

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from nca_anki.reading.lines import Header

TITLE_SUFFIX = "Questions and Answers"
_SEPARATORS = ("—", "–", "-", "--", "―")
_DASHES = "—–-―‒−"

_SUFFIX_FOLDED = TITLE_SUFFIX.casefold()
# (The name is greedy up to its last non-space: "lazy, then spaces" tried every space.)
PART_RE = re.compile(r"^(?P<name>(?:.*\S)?)\s+(?P<part>\d{1,4})$")

# The suffix as it is mistyped: another dash or none, "&", "+" or "n" for "and", "Q&A", a
# singular, a slip of a letter or two ("Questons"), a closing stop. Tried on the title's
# last characters only (where the suffix is), so a long line costs nothing.
_NEAR_SUFFIX_RE = re.compile(
    r"(?:^|\s)(?P<written>(?:[-–—―‒−:|]{1,2}\s*)?(?:q\s*(?:&|and|\+|n|/)\s*a(?:'?s)?|"
    r"(?P<q>[^\W\d_]{5,12})\s*(?:&amp;|&|and|\+|'?n'?|/)\s*(?P<a>[^\W\d_]{4,10}))"
    r"\s*[.:!]?)\s*$", re.IGNORECASE)
_SUFFIX_ROOM = 60  # characters: the longest mistyped suffix and its dash, with spaces


def _near_suffix(line: str) -> tuple[int, str] | None:
    """Where a mistyped '— Questions and Answers' starts at the end of ``line``, and the
    suffix as written; None if the line does not end with one."""
    line = line.rstrip()
    offset = max(0, len(line) - _SUFFIX_ROOM)
    found = _NEAR_SUFFIX_RE.search(line, offset)
    if found is None:
        return None
    if found["q"]:
        from rapidfuzz.distance import DamerauLevenshtein  # only for such a line
        if DamerauLevenshtein.distance(found["q"].casefold(), "questions") > 2 \
                or DamerauLevenshtein.distance(found["a"].casefold(), "answers") > 2:
            return None
    return found.start("written"), found["written"].strip()


def _suffix_at(line: str) -> int | None:
    """Where '— Questions and Answers' (in any case) that ends ``line`` starts, with the
    spaces before it; None if it does not end so. (A search for ``\\s*Questions…$`` tried
    every space of a long run of them: time that grew with the square of the line.)"""
    line = line.rstrip()
    end = len(line) - len(TITLE_SUFFIX)
    if end < 0 or line[end:].casefold() != _SUFFIX_FOLDED:
        return None
    return len(line[:end].rstrip())


def without_suffix(name: str) -> str:
    """A topic's name as a title line would give it if the line were read as meant: no
    '— Questions and Answers' (as written or mistyped) at its end, and no part number."""
    exact = _suffix_at(name)
    name = name[:exact] if exact is not None else name
    near = _near_suffix(name)
    name = name[: near[0]] if near is not None else name
    name = name.rstrip().rstrip(_DASHES + ":| ")
    found = PART_RE.match(name)
    return found["name"].strip() if found else name


# --- the title line ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Title:
    """The title line as read."""

    line: int  # 1-based; 0: the file has no title line
    body_start: int  # the number of lines before the body (0-based index of its first)
    text: str  # without its suffix; "" if none
    damaged: str  # the damaged character in the dash separator's place; "" if none
    diagnostics: tuple[Diagnostic, ...]


def read_title(lines: Sequence[str], path: str) -> Title:
    """The title: the first line that is not blank, unless it is a question header."""
    number = next((n for n, raw in enumerate(lines, start=1) if raw.strip()), 0)
    if not number:
        return Title(line=0, body_start=len(lines), text="", damaged="", diagnostics=(error(
            "E110", path, 1, f"file is empty; expected a first line '<title> — {TITLE_SUFFIX}'"),))
    line, hidden = unhide(lines[number - 1])
    if header(line):
        return Title(line=0, body_start=number - 1, text="", damaged="", diagnostics=(error(
            "E111", path, number, f"missing title line; expected '<title> — {TITLE_SUFFIX}' "
            "before the first question"),))
    said: list[Diagnostic] = []
    if number != 1:
        said.append(warning("W110", path, number,
                            "title is not on the first line; blank lines before it ignored"))
    if hidden:
        said.append(warning("W105", path, number, invisible(hidden, "the title")))
    suffix = _suffix_at(line)
    if suffix is None:
        text, damaged = _before_near_suffix(line, path, number, said), ""
    else:
        text, damaged = _before_exact_suffix(line[:suffix].strip(), path, number, said)
    return Title(line=number, body_start=number, text=text, damaged=damaged,
                 diagnostics=tuple(said))


def _before_near_suffix(line: str, path: str, number: int, said: list[Diagnostic]) -> str:
    """The title of a line that does not end with the exact suffix: what comes before a
    mistyped one, or else the whole line."""
    near = _near_suffix(line)
    if near is None:
        said.append(warning("W110", path, number, f"title line does not end with "
                            f"'— {TITLE_SUFFIX}'; the whole line is taken as the title"))
        return line
    start, written = near
    # Read as the suffix, not as part of the topic's name: taken whole, the line would
    # make a new deck of this file's questions.
    said.append(warning("W110", path, number, f"title ends with {written!r}, read as '— "
                        f"{TITLE_SUFFIX}' (the deck keeps its name); write '— {TITLE_SUFFIX}'"))
    title = line[:start].rstrip().rstrip(_DASHES + ":| ").strip()
    if not title:
        said.append(error("E111", path, number, "title is empty"))
    return title


def _before_exact_suffix(title: str, path: str, number: int,
                         said: list[Diagnostic]) -> tuple[str, str]:
    """``title``, what came before the exact suffix, without its separator; and the
    damaged character that stands in the separator's place ("" if none)."""
    head, _, last = title.rpartition(" ")
    damaged = ""
    if title and title[-1] in "".join(_SEPARATORS):
        title = title.rstrip("".join(_SEPARATORS) + " ")
    elif head.rpartition(" ")[2].isdigit() and len(last) <= 3 and not last.isascii():
        # Between the part number and the suffix, where only a dash belongs, a short
        # non-ASCII token is what an em dash becomes when its bytes are decoded with the
        # wrong code page (the seed has 'β'). This is the one place that decides which
        # character is damaged; repair_damage() reuses it for the body.
        said.append(warning("W102", path, number, f"damaged character {last!r} where the "
                            "title's dash separator belongs (encoding damage); read as '—'"))
        title, damaged = head.strip(), last
    elif head and len(last) <= 3 and not last.isalnum():
        title = head.strip()  # an unusual but plain separator such as ':' or '|'
    if not title:
        said.append(error("E111", path, number, "title is empty"))
    return title, damaged


def name_and_part(title: Title, path: str) -> tuple[str, int, tuple[Diagnostic, ...]]:
    """The topic's name and the part number that ends the title (1, with a warning, if
    none)."""
    match = PART_RE.match(title.text)
    if match:
        return match.group("name").strip(), int(match.group("part")), ()
    if title.text:
        return title.text, 1, (warning("W110", path, title.line,
                                       "title has no part number at its end; taken as part 1"),)
    return title.text, 1, ()


def title_key(text: str, damaged: str) -> str:
    """``text`` compared as a title: without the suffix, trailing separators (``damaged``
    among them), case, spacing, or the difference between dashes."""
    exact = _suffix_at(text)
    text = text[:exact] if exact is not None else text
    near = _near_suffix(text)
    if near is not None:
        text = text[: near[0]]
    while True:
        trimmed = text.rstrip().rstrip(_DASHES)
        if damaged and trimmed.endswith(" " + damaged):
            trimmed = trimmed[: -len(damaged)]
        if trimmed == text:
            break
        text = trimmed
    for dash in _DASHES:
        text = text.replace(dash, "-")
    return seen(text).casefold()


def _is_other_title(text: str, key: str, wanted: str, damaged: str) -> bool:
    """Whether ``text`` is a title, though not this file's: the same topic with another
    part number, or a whole title line, '<title> — Questions and Answers'."""
    theirs, ours = PART_RE.match(key), PART_RE.match(wanted)
    if theirs and ours and theirs.group("name") == ours.group("name"):
        return True
    suffix = _suffix_at(text)
    if suffix is None:
        near = _near_suffix(text)
        return near is not None and near[1][:1] in f"{_DASHES}:|"
    head = text[:suffix].rstrip()
    return head.rstrip(_DASHES) != head or (bool(damaged) and head.endswith(f" {damaged}"))


# --- the footer --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Footer:
    start: int  # 0-based index of the footer's title line: the body ends before it
    title_line: int  # 1-based line numbers
    title_text: str
    title_matches: bool
    prompt_line: int = 0  # 0: the footer has no prompt line
    prompt_text: str = ""


def find_footer(lines: Sequence[str], title: Title, prompts: frozenset[str]) -> Footer | None:
    """The footer: a line that repeats the title, alone, after the last question's header,
    followed by at most one non-empty line that is not question structure. ``prompts``:
    the questions' first prompt lines, as the learner sees them."""
    if not title.text:
        return None
    start = title.body_start
    filled = [i for i in range(start, len(lines)) if lines[i].strip()]
    wanted = title_key(title.text, title.damaged)
    candidates: list[tuple[int, int | None]] = [(filled[-1], None)] if filled else []
    if len(filled) >= 2:
        candidates.append((filled[-2], filled[-1]))
    for index, prompt_at in candidates:
        text = unhide(lines[index])[0]
        key = title_key(text, title.damaged)
        same = key == wanted
        if not key or not same and not _is_other_title(text, key, wanted, title.damaged):
            continue
        prompt = unhide(lines[prompt_at])[0] if prompt_at is not None else ""
        if header(prompt) or ANSWER_RE.match(prompt) or CHOICE_RE.match(prompt):
            continue  # part of a question, not a footer
        if not same and _suffix_at(text) is None and _near_suffix(text) is None:
            if seen(prompt) not in prompts:
                # "See Topic 3" at the end of an explanation is explanation, not another
                # part's footer: that needs its whole title line or one of the prompts.
                continue
        if not any(header(unhide(raw)[0]) for raw in lines[start:index]):
            continue  # not after a question
        return Footer(
            start=index, title_line=index + 1, title_text=text, title_matches=same,
            prompt_line=prompt_at + 1 if prompt_at is not None else 0, prompt_text=prompt)
    return None


def footers_inside(lines: Sequence[str], title: Title, end: int,
                   headers: Mapping[int, Header], prompts: frozenset[str]) -> Mapping[int, bool]:
    """Line numbers of a footer that questions were appended after: the title alone on a
    line, then the first question's prompt, then a question header. Value: True for its
    title line."""
    if not title.text:
        return {}
    start = title.body_start
    wanted = title_key(title.text, title.damaged)
    found: dict[int, bool] = {}
    for index, found_header in headers.items():
        if index >= end or not found_header.readable:
            continue
        before = list(itertools.islice(
            (i for i in range(index - 1, start - 1, -1) if lines[i].strip()), 2))
        if len(before) < 2:
            continue
        prompt_at, at = before  # the two filled lines above the header, nearest first
        if (seen(unhide(lines[prompt_at])[0]) in prompts
                and title_key(unhide(lines[at])[0], title.damaged) == wanted):
            found.update({at + 1: True, prompt_at + 1: False})
    return found


def check_footer(footer: Footer, title: str, first: tuple[int, Sequence[str]] | None,
                 path: str) -> tuple[Diagnostic, ...]:
    """Whether the footer still repeats the title and ``first``, the first question's
    number and prompt lines (None: no question)."""
    said: list[Diagnostic] = []
    if not footer.title_matches:
        said.append(warning("W111", path, footer.title_line, f"footer repeats the title "
                            f"{clip(footer.title_text, 60)!r} but the title is now "
                            f"{clip(title, 60)!r}; update or delete the footer"))
    if not footer.prompt_line or first is None:
        return tuple(said)
    number, lines = first
    written = seen(footer.prompt_text)
    prompt = seen(" ".join(lines))
    if written not in (prompt, seen(lines[0])):
        said.append(warning("W111", path, footer.prompt_line, f"footer repeats "
                            f"{clip(footer.prompt_text, 60)!r} but Question {number} is now "
                            f"{clip(prompt, 60)!r}; update or delete the footer"))
    return tuple(said)


# --- encoding damage ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Repair:
    lines: tuple[str, ...]  # the lines given, when nothing was repaired
    diagnostics: tuple[Diagnostic, ...]


def repair_damage(lines: tuple[str, ...], title: Title, skip: int | None,
                  path: str) -> Repair:
    """Where the title's separator was damaged, the same character standing alone between
    words elsewhere in the body (but on line index ``skip``) is the same lost '—': the
    lines with it repaired, and a warning at each."""
    sep = title.damaged
    if not sep:
        return Repair(lines=lines, diagnostics=())
    alone = re.compile(r"(?<=[\w)\]\"'’”.,;:!?%*`]) " + re.escape(sep)
                       + r" (?=[\w(\[\"'‘“*`])")
    repaired = list(lines)
    said: list[Diagnostic] = []
    for index in range(title.body_start, len(lines)):
        raw = lines[index]
        if index == skip or sep not in raw:
            continue
        fixed = alone.sub(" — ", raw)
        if fixed != raw:
            repaired[index] = fixed
            said.append(warning("W102", path, index + 1, f"damaged character {sep!r} between "
                                "words, the same encoding damage as the title's separator; "
                                "read as '—'. Write '—' in the source file"))
    return Repair(lines=tuple(repaired) if said else lines, diagnostics=tuple(said))
