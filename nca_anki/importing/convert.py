"""Questions read from another format -> question files in this project's format.

One file per topic part, ``<topic slug>-<part>.txt``: the sections of the inputs that
share a title, or a slug (the same but for case and punctuation), or all of them, given
one ``topic``, are the parts of one topic, in input order. Each file is read back with
the project's own parser (reading/parse.py) before it is kept: a question that would not
read back exactly as it was read from the input (a line of its text that the format
takes as structure, say) is left out and reported at its place in the input, with what
the parser said, so the files pass the build with no errors and nothing is lost without
a word. Every question read is written or left out by an error at its own place: one
that is neither, a bug, is said so at its place (_unaccounted).
"""

from __future__ import annotations

import base64
import binascii
import bisect
import hashlib
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from urllib.parse import quote, unquote, unquote_to_bytes, urlsplit

from nca_anki.diagnostics import Diagnostic, clip, error, sort_diagnostics, warning
from nca_anki.importing.bank import Choice, Item, Reading, one_line
from nca_anki.importing.messages import quoted_spans
from nca_anki.reading.images import image_problem, image_type
from nca_anki.reading.media import MAX_IMAGE_BYTES
from nca_anki.reading.parse import FENCE_RE, parse
from nca_anki.reading.seen import seen
from nca_anki.reading.topics import slugify
from nca_anki.records import LABELS, Question

TITLE_SUFFIX = " — Questions and Answers"


@dataclass(frozen=True)
class Part:
    name: str  # the file's name in the output folder
    topic: str
    part: int
    text: str
    questions: int
    # The images its questions show: (the file as the input names it, its path in the
    # output folder). The command copies them; the texts name them there.
    images: tuple[tuple[str, str], ...] = ()
    # The images the input carried inside it: (its path in the output folder, its bytes).
    embedded: tuple[tuple[str, bytes], ...] = ()


# An image in Markdown, "![what it shows](path)" or "(<path with spaces>)", optionally
# with a title after the path.
# (No "[" in the text between the brackets: "![" written 10,000 times is searched once.)
_IMAGE_RE = re.compile(r'(!\[[^\]\[]*\]\(\s*)(<[^>\n]+>|[^)\s]+)')
IMAGES_FOLDER = "images"


@dataclass(frozen=True)
class Conversion:
    parts: tuple[Part, ...]
    problems: tuple[Diagnostic, ...]  # an error at the input place of each question left out


class _Images:
    """The images a conversion copies or writes, each named once in the output folder:
    its name there by where the input names it, the names taken (kept as sets and counts,
    so naming the ten-thousandth image costs what naming the first did), the embedded
    ones' bytes, and why any cannot go with its question."""

    def __init__(self, image_problem: Callable[[str, str], str],
                 unwritable: Mapping[str, str]) -> None:
        self.problem = image_problem
        self.unwritable = unwritable  # a name in the output folder -> why it was not written
        self.target: dict[str, str] = {}  # each image as the input names it -> in the output
        self.source: dict[str, str] = {}  # the other way, by the name as the texts quote it
        self.carried: dict[str, bytes] = {}  # each embedded image, by its source key
        self.taken: set[str] = set()
        self.tries: dict[str, int] = {}  # a name -> the last number tried after it

    def name(self, source: str) -> str:
        """``source``'s path in the output folder: its file's name, made safe, and numbered
        ("grid-2.png") if another image has it."""
        name = safe_name(PurePosixPath(source).name)
        stem, dot, ext = name.rpartition(".")
        target, k = f"{IMAGES_FOLDER}/{name}", self.tries.get(name, 1)
        while target in self.taken:
            k += 1
            target = f"{IMAGES_FOLDER}/{stem or ext}-{k}{dot}{ext if stem else ''}"
        self.tries[name] = k
        self.taken.add(target)
        self.target[source] = target
        self.source[quote(target)] = source
        return target

    def shown(self, text: str) -> list[tuple[str, str]]:
        """The images ``text`` (a question file's) shows: (source, target), sorted."""
        found = {self.source[m[2]] for m in _IMAGE_RE.finditer(text) if m[2] in self.source}
        return sorted((source, self.target[source]) for source in found)


# A file's name in the output's images/ folder: at most this many bytes (a file system
# takes 255; an image in Moodle XML may be named by a sentence), without control
# characters, and never hidden or "..".
NAME_LIMIT = 120


def safe_name(name: str) -> str:
    """``name`` as an image file's name in the output folder (see NAME_LIMIT): as it is
    if it is safe, else cleaned, and cut with a digest of the whole name kept unique."""
    clean = re.sub(r"[\x00-\x1f\x7f/]", "_", name).lstrip(".").strip() or "image"
    if clean == name and len(name.encode("utf-8", "surrogatepass")) <= NAME_LIMIT:
        return name
    stem, dot, ext = clean.rpartition(".")
    if not stem or len(ext) > 8 or not ext.isalnum():
        stem, dot, ext = clean, "", ""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    room = NAME_LIMIT - len(digest) - 1 - len(f"{dot}{ext}".encode())
    cut = stem.encode("utf-8", "surrogatepass")[:room].decode("utf-8", "ignore")
    return f"{cut}-{digest}{dot}{ext}"


def convert(readings: list[Reading], *, topic: str | None = None,
            image_problem: Callable[[str, str], str] = lambda input, image: "not there",
            unwritable: Mapping[str, str] | None = None) -> Conversion:
    """The question files of ``readings``; ``image_problem(input, image)`` tells why an
    image a question of ``input`` shows cannot be copied, or "" if it can (the command
    looks on disk: run.py); ``unwritable`` why an image could not be written to its
    path in the output folder (a question showing it is then left out, said at its
    place)."""
    problems: list[Diagnostic] = [d for r in readings for d in r.problems]
    topics: dict[str, tuple[str, list[list[Item]]]] = {}
    for reading in readings:
        for section in reading.sections:
            title = " ".join((topic or section.title).split())
            # Titles that make one file name are one topic (the build makes one deck of
            # them): two files of one name, the second would be written over the first.
            key = slugify(title)
            topics.setdefault(key, (title, []))[1].append(list(section.items))
    parts: list[Part] = []
    images = _Images(image_problem, unwritable or {})
    for title, sections in topics.values():
        seen = _Seen()
        done: set[tuple[str, int, str]] = set()  # the topic's questions written
        for number, items in enumerate(sections, start=1):
            said = len(problems)
            kept, repeated = _kept(items, images, seen, problems)
            name = f"{slugify(title)}-{number}.txt"
            text, written, part_problems = _written(title, number, kept, name)
            done.update(map(_key, written))
            problems += part_problems
            problems += [error("E704", item.path, item.line,
                               _repeats(item, first, _key(first) in done))
                         for item, first in repeated]
            problems += _unaccounted(items, written, problems[said:])
            if written:
                shown = images.shown(text)
                carried = images.carried
                parts.append(Part(name, title, number, text, len(written),
                                  tuple((s, t) for s, t in shown if s not in carried),
                                  tuple((t, carried[s]) for s, t in shown if s in carried)))
    return Conversion(tuple(parts), tuple(sort_diagnostics(problems)))


def _kept(items: list[Item], images: _Images, seen: _Seen, problems: list[Diagnostic]
          ) -> tuple[list[Item], list[tuple[Item, Item]]]:
    """The items of a part to write, each cleaned, its images named in the output folder,
    and those that repeat a question of the topic (``seen``), each with that question;
    one whose image cannot go with it is left out with an error at its place in
    ``problems``."""
    kept: list[Item] = []
    repeated: list[tuple[Item, Item]] = []
    for item in map(_clean, items):
        item, missing, linked = _with_images(item, images)
        if missing:
            problems.append(error("E704", item.path, item.line,
                                  f"{item.place}{missing}; not converted"))
            continue
        if linked:
            problems.append(warning("W702", item.path, item.line,
                                    f"{item.place}{WEB_PICTURE_LINKED}"))
        item, said = _choices_once(item)
        if said is not None:
            problems.append(said)
            if said.is_error:
                continue
        # the same words and pictures (in the prompt): one card in a deck
        words = _words(item)
        first = seen.first(words)
        if first is not None and any(c.correct for c in item.choices):
            # (one that marks no choice is refused for that: a template, repeated)
            repeated.append((item, first))
            continue
        if any(c.correct for c in item.choices):
            seen.add(item, words)
        kept.append(item)
    return kept, repeated


def _choices_once(item: Item) -> tuple[Item, Diagnostic | None]:
    """``item`` with each choice listed once, and what is said of it: a choice the learner
    sees twice (the same text as the card shows it, reading/seen.py, the rule by which the
    build refuses a choice listed twice) with the same mark is one choice, kept where it
    first stands, said once (W702); one marked right in one place and wrong in another
    is a contradiction, refused (E703). None said: ``item`` itself, unchanged."""
    first: dict[str, Choice] = {}
    kept: list[Choice] = []
    dropped: list[Choice] = []
    for choice in item.choices:
        key = seen(choice.text)
        was = first.setdefault(key, choice) if key else choice
        if was is choice:
            kept.append(choice)
        elif was.correct != choice.correct:
            return item, error("E703", item.path, item.line, (
                f"{item.place}lists the choice {_quoted(choice)} twice, once as right and "
                "once as wrong: which is it? Keep it once, marked as meant; not converted"))
        else:
            dropped.append(choice)
    if not dropped:
        return item, None
    more = len({seen(c.text) for c in dropped}) - 1
    marked = "right" if dropped[0].correct else "wrong"
    also = f" (and {more} more choice{'s' * (more > 1)} listed twice alike)" if more else ""
    return replace(item, choices=tuple(kept)), warning("W702", item.path, item.line, (
        f"{item.place}lists the choice {_quoted(dropped[0])} more than once, word for word "
        f"and each time {marked}{also}: kept once"))


def _quoted(choice: Choice) -> str:
    """A choice as a message names it: its first line, cut short."""
    return repr(clip(choice.text.split("\n")[0], 60))


def _words(item: Item) -> tuple[str, tuple[str, ...]]:
    """What two questions of a topic share when one repeats the other: the words of the
    prompt (its pictures included) and the set of choices, spacing aside."""
    return one_line(item.prompt), tuple(sorted(one_line(c.text) for c in item.choices))


class _Seen:
    """The questions of a topic so far, found by their words (_words). Each is kept by the
    hash of its words, which are worked out again on a match: the words of 100,000
    questions are not held beside the questions themselves (issue 46, 3)."""

    def __init__(self) -> None:
        self.by_hash: dict[int, list[Item]] = {}

    def first(self, words: tuple[str, tuple[str, ...]]) -> Item | None:
        """The first question seen with these words (_words), if any."""
        return next((seen for seen in self.by_hash.get(hash(words), ())
                     if _words(seen) == words), None)

    def add(self, item: Item, words: tuple[str, tuple[str, ...]]) -> None:
        """Remember ``item``, whose words these are (none seen has them)."""
        self.by_hash.setdefault(hash(words), []).append(item)


def _key(item: Item) -> tuple[str, int, str]:
    """Where ``item`` is in its input: its file, line and place there."""
    return item.path, item.line, item.where


# The codes of an error that leaves a question out (run.py counts them as refusals).
LEFT_OUT = ("E702", "E703", "E704", "E707", "E708")


def _unaccounted(items: list[Item], written: list[Item], said: list[Diagnostic]
                 ) -> list[Diagnostic]:
    """An error at each of a part's ``items`` that is neither ``written`` nor left out by
    an error of its own at its place (``said`` of the part): every question read is
    written or said, never lost without a word. None is expected: one is our bug, and
    says so."""
    def place(item: Item) -> tuple[str, int]:
        return item.path, item.line

    owed = Counter(map(place, items))
    owed.subtract(map(place, written))
    owed.subtract((d.path, d.line) for d in said if d.is_error and d.code in LEFT_OUT)
    lost = [item for item in items if owed[place(item)] > 0]
    problems = []
    for item in lost:
        if owed[place(item)] > 0:
            owed[place(item)] -= 1
            problems.append(error("E704", item.path, item.line, (
                f"{item.place}was lost in the conversion, with no reason found: a bug of "
                "the importer, please report it; not converted")))
    return problems


def _repeats(item: Item, first: Item, converted: bool = True) -> str:
    """Why ``item``, with the words and pictures of ``first``, was not converted: a repeat
    word for word, or (other right answers) the same card answered otherwise; and whether
    the first was (``converted``: else the error there says why not). ``first``'s place as
    the author can find it: a line of the same input, else the other input's path as
    given."""
    place = _at(first, item)
    first_done = "only the first was converted" if converted else \
        "neither was converted (the first says why)"
    if {one_line(c.text) for c in item.choices if c.correct} == {
            one_line(c.text) for c in first.choices if c.correct}:
        return f"{item.place}repeats the question at {place} word for word; {first_done}"
    return (f"{item.place}has the words and choices of the question at {place} but another "
            f"right answer; a deck holds one of them: {first_done}")


def _with_images(item: Item, images: _Images) -> tuple[Item, str, bool]:
    """``item`` with each image it shows by a relative path named where the command copies
    it (``images/<name>`` in the output folder), recorded in ``images``, and each picture
    on the web as a link to it (cards are studied offline; the question is not lost for
    it); or why an image cannot go with it (not there, an absolute path, or it could not
    be written). The last value: whether a picture on the web became a link."""
    if "![" not in item.prompt and "![" not in item.explanation and not any(
            "![" in c.text for c in item.choices):
        return item, "", False  # most questions show no image
    folder = PurePosixPath(item.path).parent
    media = dict(item.media)
    missing = ""
    linked = False

    def moved(match: re.Match[str]) -> str:
        nonlocal missing, linked
        written = match[2][1:-1] if match[2].startswith("<") else match[2]
        if urlsplit(written).scheme.casefold() in ("http", "https") and \
                not re.search(r"\s", written):
            linked = True
            return f"[{_alt(match[1]) or WEB_PICTURE_SHOWN}]({written})"
        source, why = _source(written, item.path, folder, media, images)
        if why:
            missing = missing or why
            return match[0]
        if source not in images.target:
            images.name(source)
        target = images.target[source]
        if target in images.unwritable:
            shown = "carried in its text" if written[:5].casefold() == "data:" \
                else repr(written)
            missing = missing or (f"shows the image {shown}, which could not be written "
                                  f"as {target}: {images.unwritable[target]}")
            return match[0]
        return f"{match[1]}{quote(target)}"

    def texts(text: str) -> str:
        return _IMAGE_RE.sub(moved, text) if "![" in text else text

    changed = _same_or(item, texts(item.prompt), texts(item.explanation),
                       [texts(c.text) for c in item.choices])
    return changed, missing, linked


# What a picture on the web is said as, and shown as when it has no alt text (a frame: 🖼️).
WEB_PICTURE_LINKED = ("shows a picture on the web: a card is studied offline, so it is a "
                      "link to it there; save it beside the bank to show it")
WEB_PICTURE_SHOWN = "\U0001f5bc\ufe0f"


def _alt(opening: str) -> str:
    """The alt text of an image whose Markdown opens with ``opening`` ("![alt](")."""
    return " ".join(opening[2:opening.rindex("]")].split())


def _source(written: str, given: str, folder: PurePosixPath, media: Mapping[str, bytes],
            images: _Images) -> tuple[str, str]:
    """The key in ``images`` of the image a text of a question read from ``given`` shows
    at ``written``: a file beside the input (its path), or one the input carries
    (``embedded:<digest>/<name>``: Moodle's <file> elements in ``media``, a data: URI);
    or "" and why it cannot go with its question."""
    if written[:5].casefold() == "data:":  # a picture in the text itself
        data, kind, why = carried_image(written)
        if why:
            return "", f"shows a picture carried in its text as a data: URI, which {why}"
        digest = hashlib.sha256(data).hexdigest()
        return _carry(images, data, f"embedded:{digest}/image-{digest[:16]}.{kind}"), ""
    if urlsplit(written).scheme or written.startswith(("/", "//")):
        return "", (f"shows the image {written!r} by an absolute path or address, which "
                    "cannot go with the deck; save it beside the input and name it by a "
                    "relative path")
    written = urlsplit(written).path or written  # "images/001.png?raw=true": the file
    if unquote(written) in media:  # carried inside the input
        data = media[unquote(written)]
        digest = hashlib.sha256(data).hexdigest()
        return _carry(images, data, f"embedded:{digest}/{unquote(written)}"), ""
    source = (folder / unquote(written)).as_posix()
    if source not in images.target and (problem := images.problem(given, source)):
        return "", f"shows the image {written!r}, which {problem}"
    return source, ""


def _carry(images: _Images, data: bytes, source: str) -> str:
    images.carried[source] = data
    return source


# "data:image/png;base64," before a data: URI's data (RFC 2397): a media type, parameters.
_PATH_SHOWN = 60  # a path named in a message longer than this loses the folders it shares
_DATA_URI_RE = re.compile(r"data:([\w.+-]+/[\w.+-]+)?((?:;[\w.+-]+(?:=[^;,]*)?)*),", re.I)
_MIB = 1024 * 1024


def carried_image(uri: str) -> tuple[bytes, str, str]:
    """The picture a ``data:`` URI carries, base64 or percent-encoded, and its type by its
    bytes (reading/images.py), checked as any image a card shows; or b"", "" and why not,
    as a phrase. A picture over the build's limit (MAX_IMAGE_BYTES) is told by the URI's
    length and refused before anything is decoded."""
    head = _DATA_URI_RE.match(uri)
    if head is None:
        return b"", "", "is not written as one (data:TYPE;base64,DATA)"
    payload = uri[head.end():]
    encoded = any(p.casefold() == "base64" for p in head[2].split(";"))
    if encoded and "%" in payload and len(payload) <= 4 * MAX_IMAGE_BYTES:
        payload = unquote(payload)  # "%2B", "%3D": base64 written percent-encoded
    # Base64 is 4 characters for 3 bytes; percent-encoding at most 3 characters a byte.
    least = len(payload.rstrip("=")) * 3 // 4 if encoded else len(payload) // 3
    if least > MAX_IMAGE_BYTES:
        return b"", "", (f"holds {'about' if encoded else 'at least'} {least / _MIB:.1f} MiB, "
                         f"over the limit of {MAX_IMAGE_BYTES / _MIB:.1f} MiB per image (decks "
                         "go to phones); save it smaller")
    try:
        data = base64.b64decode(payload.translate(_URL_SAFE) + "=" * (-len(payload) % 4),
                                validate=True) if encoded else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return b"", "", "is not valid base64"
    if len(data) > MAX_IMAGE_BYTES:
        return b"", "", (f"holds {len(data) / _MIB:.1f} MiB, over the limit of "
                         f"{MAX_IMAGE_BYTES / _MIB:.1f} MiB per image (decks go to phones)")
    kind = image_type(data)
    if kind is None:
        return b"", "", ("is not an image of a type cards show (PNG, JPEG, GIF, WebP or SVG, "
                         "by its bytes)")
    if why := image_problem(data, kind):
        return b"", "", f"cannot be shown on a card: {why}"
    return data, kind, ""


_URL_SAFE = str.maketrans("-_", "+/")  # base64's URL-safe alphabet, as some writers use


def _clean(item: Item) -> Item:
    """The item's texts as a question file holds them: no spaces at line ends (the parser
    drops them), no blank lines around. An item already clean is ``item`` itself: a bank
    of 100,000 questions is not held twice (issue 46, 3)."""
    def tidy(text: str) -> str:
        done = "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip()
        return text if done == text else done

    return _same_or(item, tidy(item.prompt), tidy(item.explanation),
                    [tidy(c.text) for c in item.choices])


def _same_or(item: Item, prompt: str, explanation: str, texts: list[str]) -> Item:
    """``item`` with these texts: ``item`` itself if each is the one it has (the same
    object), else a new Item; each choice kept the same where its text is."""
    if prompt is item.prompt and explanation is item.explanation and all(
            text is c.text for text, c in zip(texts, item.choices)):
        return item
    return Item(prompt=prompt, explanation=explanation, path=item.path, line=item.line,
                where=item.where, media=item.media,
                choices=tuple(c if text is c.text else Choice(text, c.correct)
                              for text, c in zip(texts, item.choices)))


class Layout:
    """What each line of a written part is, in the input's terms: ``layout[n - 1]`` is
    (the index of the question among the part's items, -1 for the title; which of its
    parts: "its prompt", "choice B", "the mark on choice B", "its explanation") for line
    n. Worked out when a message asks, from each question's first line: a part of
    100,000 questions holds no tuple per line (issue 46, 3)."""

    def __init__(self, items: list[Item], starts: list[int], lines: int) -> None:
        self.items = items
        self.starts = starts  # each question's first line, 1-based
        self.lines = lines

    def __len__(self) -> int:
        return self.lines

    def __getitem__(self, index: int) -> tuple[int, str]:
        if not self.starts or not self.starts[0] <= index + 1 <= self.lines:
            return -1, "its topic title"
        k = bisect.bisect_right(self.starts, index + 1) - 1
        return k, _roles(self.items[k])[index + 1 - self.starts[k]]


def _lines(k: int, item: Item) -> list[str]:
    """The lines of the part's question ``k``, its blank line after it included."""
    return [line for line, _ in _question(k, item)]


def _roles(item: Item) -> list[str]:
    """What each of the lines of ``item`` as written (_question) is."""
    return [role for _, role in _question(0, item)]


def _question(k: int, item: Item) -> list[tuple[str, str]]:
    """The lines of the part's question ``k``, each with what it is (Layout), its blank
    line after it included."""
    out: list[tuple[str, str]] = []

    def add(role: str, *texts: str) -> None:
        out.extend((text, role) for text in texts)

    prompt = item.prompt.split("\n")
    add("its prompt", f"Question {k + 1}: {prompt[0]}", *prompt[1:])
    for label, choice in zip(LABELS, item.choices):
        first, *rest = choice.text.split("\n")
        add(f"choice {label}", f"- {first}" + (" (Correct answer)" if choice.correct else ""),
            *rest)
    firsts = [" ".join(c.text.split("\n")[0].split()) for c in item.choices]
    # A correct choice is named by its first line, or, if another choice starts with the
    # same line (": " then code, say), by its whole text on one line (parse.py reads both).
    for label, c, first in zip(LABELS, item.choices, firsts):
        if c.correct:
            add(f"the mark on choice {label}",
                f"Correct answer: {c.text.split(chr(10))[0]}" if firsts.count(first) == 1
                else f"Correct answer: {' '.join(c.text.split())}")
    if item.explanation:
        add("its explanation", *item.explanation.split("\n"))
    add("its end", "")
    return out


def _render(title: str, part: int, items: list[Item]
            ) -> tuple[str, list[tuple[int, int]], Layout]:
    """The file's text, each question's first and last line in it, and what each of its
    lines is (Layout). The text is joined from each question's own: never a list of
    every line of the part."""
    blocks = [f"{title} {part}{TITLE_SUFFIX}"]
    starts, spans, count = [], [], 1
    for k, item in enumerate(items):
        lines = _lines(k, item)
        starts.append(count + 1)
        spans.append((count + 1, count + len(lines) - 1))
        count += len(lines)
        blocks.append("\n".join(lines))
    # The text ends with one newline ("".rstrip() of the whole would copy all of it).
    while len(blocks) > 1 and not blocks[-1].rstrip("\n"):
        blocks.pop()
    blocks[-1] = blocks[-1].rstrip("\n")
    return "\n".join(blocks) + "\n", spans, Layout(items, starts, count)


# A place the parser names in a written part: "Question 3", "Question 3 (line 12)", "line
# 40", "at line 40", "the choice at line 40".
_PLACE_RE = re.compile(r"\bQuestion (\d+)(?: \(line \d+\))?"
                       r"|\b(the choice (?:at|on) |(?:at|on) )?line (\d+)\b")


def _in_input(message: str, k: int, layout: Layout, items: list[Item], line: int = 0
              ) -> str:
    """``message``, the parser's about the written part's question ``k`` at ``line``, said
    of the input: each question and line it names in the written file becomes the question
    (or another's place in the input) and which of its parts the line is (its prompt,
    choice B, …): a line of the written file is no place the author can look up. A message
    at a choice, the explanation or a mark starts with which ("choice D: …")."""
    def place(match: re.Match[str]) -> str:
        if match[1]:
            other = int(match[1]) - 1
            return "the question" if other == k or not 0 <= other < len(items) else \
                f"the question at {_at(items[other], items[k])}"
        n = int(match[3])
        owner, role = layout[n - 1] if 0 < n <= len(layout) else (-1, "its topic title")
        if 0 <= owner != k:
            return f"the question at {_at(items[owner], items[k])}"
        if role.startswith("choice"):  # "the choice at line 9": choice B; "at line 9": at B
            return role if not match[2] or match[2].startswith("the") else match[2] + role
        return f"in {role}" if match[2] else role

    # Only the parser's own words: a quoted choice may say "line 3" too.
    pieces, at = [], 0
    for start, end in quoted_spans(message):
        pieces += [_PLACE_RE.sub(place, message[at:start]), message[start:end]]
        at = end
    said = "".join(pieces) + _PLACE_RE.sub(place, message[at:])
    owner, role = layout[line - 1] if 0 < line <= len(layout) else (-1, "")
    return f"{role}: {said}" if owner == k and role not in ("its prompt", "its end") else said


def _at(item: Item, seen_from: Item) -> str:
    """Where ``item`` is, said in a message placed at ``seen_from``: its line in the same
    file; in another, its path as given, the folders the two share (which the message's
    own place shows) written "…" when that makes it much shorter (issue 46, 10)."""
    where = f" ({item.where})" if item.where else ""
    if item.path == seen_from.path:
        return f"line {item.line}{where}"
    shared = posixpath.commonpath([item.path, seen_from.path]) if posixpath.isabs(
        item.path) == posixpath.isabs(seen_from.path) else ""
    path = item.path
    if len(path) > _PATH_SHOWN and len(shared) > 2:
        path = "…/" + path[len(shared):].lstrip("/")
    return f"{path}:{item.line}{where}"


def _differs(item: Item, question: Question) -> str:
    """What of ``item`` reads back otherwise from its file, and which of its lines if one
    can be named ("" if nothing)."""
    if question.prompt != item.prompt:
        return "its prompt" + _line_otherwise(item.prompt, question.prompt)
    if len(question.choices) != len(item.choices):
        return (f"its choices ({len(question.choices)} instead of {len(item.choices)})"
                + _line_otherwise("\n".join(c.text for c in item.choices),
                                  "\n".join(c.text for c in question.choices)))
    for label, ours, theirs in zip(LABELS, item.choices, question.choices):
        if ours.text != theirs.text or ours.correct != theirs.correct:
            return f"choice {label}" + _line_otherwise(ours.text, theirs.text)
    if question.explanation != item.explanation:
        return "its explanation" + _line_otherwise(item.explanation, question.explanation)
    return ""


def _otherwise(item: Item, question: Question | None) -> str:
    """Why ``item`` reads back otherwise from its file as ``question`` ("" if it does not)."""
    if question is None:
        return ("it would read back otherwise from the question file (a line the format "
                "takes as structure?)")
    differs = _differs(item, question)
    return f"{differs} would read back otherwise from the question file" if differs else ""


def _line_otherwise(ours: str, theirs: str) -> str:
    """Which line of ``ours`` reads back otherwise as ``theirs``, said in a few words: the
    first that the read-back text does not hold as written."""
    held = set(theirs.split("\n"))
    line = next((line for line in ours.split("\n") if line not in held), None)
    if line is None or not line.strip():
        return " (a line the format takes as structure?)"
    return f" (its line {clip(line.strip())!r}, which the format takes as structure)"


def _prompt_list_starred(item: Item) -> Item:
    """``item`` with its prompt's list items outside code ("- `retention=1d`") written
    with "*", the same list on the card: a question file reads a line "- …" as a choice."""
    if "-" not in item.prompt:
        return item
    lines, fence = item.prompt.split("\n"), ""
    for k, line in enumerate(lines):
        opened = FENCE_RE.match(line.rstrip())
        if opened and not fence:
            fence = opened.group("fence")
        elif opened and opened.group("fence").startswith(fence) and not opened.group("info"):
            fence = ""
        elif not fence and k and re.match(r"\s*-(?:\s|$)", line):
            lines[k] = line.replace("-", "*", 1)
    starred = "\n".join(lines)
    return item if starred == item.prompt else replace(item, prompt=starred)


def _written(title: str, part: int, items: list[Item], name: str
             ) -> tuple[str, list[Item], list[Diagnostic]]:
    """The part's text with every question that reads back as it was read, those
    questions, and an error at the input place of each that does not."""
    problems: list[Diagnostic] = []
    todo = []
    for item in items:
        if not any(c.correct for c in item.choices):
            problems.append(error("E703", item.path, item.line, f"{item.place}marks no choice "
                                  "correct; not converted"))
        elif blank := next((label for label, c in zip(LABELS, item.choices)
                            if not c.text.split("\n")[0].strip()
                            or FENCE_RE.match(c.text.split("\n")[0])), ""):
            problems.append(error("E704", item.path, item.line, f"{item.place}choice {blank} "
                                  "starts with no line of text (only code below it), and a "
                                  "question file's choice starts with one: write a line "
                                  "before its code; not converted"))
        elif len(item.choices) > len(LABELS):
            problems.append(error("E704", item.path, item.line, f"{item.place}has "
                                  f"{len(item.choices)} choices; at most {len(LABELS)} are "
                                  "supported; not converted"))
        else:
            todo.append(_prompt_list_starred(item))
    while todo:
        text, spans, layout = _render(title, part, todo)
        result = parse(text, name)
        errors = [d for d in result.diagnostics if d.is_error]
        if any(d.line <= 1 for d in errors):  # the title: no question of the part can go in
            said = next(d for d in errors if d.line <= 1)
            problems += [error("E704", item.path, item.line, f"{item.place}the topic title "
                               f"{title!r} cannot be written as a question file's title "
                               f"({said.message}); pass --topic NAME; not converted")
                         for item in todo]
            return "", [], problems
        read_back = {q.number: q for q in result.file.questions}
        bad: dict[int, str] = {}
        for d in errors:
            for k, (start, end) in enumerate(spans):
                if start <= d.line <= end:  # said of the question in the input's terms
                    bad.setdefault(k, _in_input(d.message, k, layout, todo, d.line))
        for k, item in enumerate(todo):
            if k in bad:
                continue
            differs = _otherwise(item, read_back.get(k + 1))
            if differs:
                bad[k] = differs
        if not bad:
            return text, todo, problems
        for k in sorted(bad):
            item = todo[k]
            problems.append(error("E704", item.path, item.line, f"{item.place}cannot be "
                                  f"written as a question file: {bad[k]}; not "
                                  "converted"))
        todo = [item for k, item in enumerate(todo) if k not in bad]
    return "", [], problems
