"""Group parsed files into topics: one deck and one ``.apkg`` per topic.

A topic's name comes from its files' titles, cleaned once and for all (Anki matches decks
by name, so a learner keeps this name for years): no part number, no accidental repeated
phrase, no leading parent-deck name. ``nca-anki.toml`` may override a deck name.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from collections.abc import Mapping, Sequence

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.reading.config import Config, deck_name_problem
from nca_anki.reading.parse import repeat_key, without_suffix
from nca_anki.reading.seen import seen_name
from nca_anki.records import Lock, ParsedFile, Topic

_REPEAT_RE = re.compile(r"\b(?P<phrase>\w+(?:\s+\w+){0,5}?)\s+(?P=phrase)\b", re.IGNORECASE)
_SLUG_MAX = 80


def clean_topic_name(name: str, parent_deck: str) -> str:
    """The deck-worthy form of a title's name part (see module docstring)."""
    cleaned = " ".join(name.replace("::", ":").split())
    while True:
        collapsed = _REPEAT_RE.sub(lambda m: m.group("phrase"), cleaned)
        if collapsed == cleaned:
            break
        cleaned = collapsed
    prefix = parent_deck.split("::")[-1]
    if cleaned.casefold().startswith(prefix.casefold() + " "):
        rest = cleaned[len(prefix):].lstrip(" -–—:|")
        if rest:
            cleaned = rest
    return cleaned


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def _a_typo_apart(a: str, b: str) -> bool:
    """True if plain names ``a`` and ``b`` differ as a typo would make them: in spacing
    only, or in one word of four letters or more that is misspelt ("Optimisation",
    "Optimization"), not replaced ("Go Programming", "C++ Programming": a whole word)."""
    if a.replace(" ", "") == b.replace(" ", ""):
        return True
    words_a, words_b = a.split(), b.split()
    if len(words_a) != len(words_b):
        return False
    differ = [(x, y) for x, y in zip(words_a, words_b) if x != y]
    if len(differ) != 1:
        return False
    x, y = differ[0]
    limit = 1 if max(len(x), len(y)) < 8 else 2
    return min(len(x), len(y)) >= 4 and _edit_distance(x, y, limit) <= limit


def _plain(name: str) -> str:
    """A topic name without case or punctuation."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", name.casefold()).split())


def _name_key(name: str) -> str:
    """The plain name without a trailing "Part": what a typo leaves."""
    return _plain(name).removesuffix(" part")


def _near_names(topics: list[Topic]) -> list[Diagnostic]:
    """Warn when two topics' names differ by a typo ("Optimisation"/"Optimization") or a
    stray "Part": most likely parts of one topic whose titles drifted apart."""
    problems = []
    # Each name's forms once, not once a pair: a bank of 50 topics has 1,225 pairs.
    plain = [_plain(t.name) for t in topics]
    keys = [_name_key(t.name) for t in topics]
    digitless = [re.sub(r"\d", "", key) for key in keys]
    for n, topic in enumerate(topics):
        for m in range(n + 1, len(topics)):
            other = topics[m]
            if plain[n] == plain[m]:
                continue  # the same but for punctuation: the slug clash check speaks of it
            a, b = keys[n], keys[m]
            if a != b and (min(len(a), len(b)) < 8 or digitless[n] == digitless[m]
                           or not _a_typo_apart(a, b)):
                continue  # not alike, or alike but for a number ("CUDA 101", "CUDA 102")
            # Report at the files of the likely stray: fewer parts, then later parts.
            stray, kept = sorted((topic, other), key=lambda t: (
                len(t.files), -min(f.part for f in t.files), t.name))
            for member in stray.files:
                problems.append(warning("W130", member.path, member.title_line, (
                    f"topic {stray.name!r} looks like {kept.name!r} (parts "
                    f"{', '.join(str(f.part) for f in kept.files)}) with a typo: parts of one "
                    "topic must share a title, or they become separate decks; if this file is "
                    f"part {member.part} of {kept.name!r}, copy that title")))
    return problems


def renamed(topics: Sequence[Topic], lock: Lock, config: Config, config_path: str
            ) -> list[Diagnostic]:
    """E133 at the title of each topic that no published question belongs to, whose name
    is a typo away from a published topic's that no file builds any more: a one-letter
    slip in a title ("Techniques" to "Technique") would give learners a second deck and
    leave the first without updates. A rename is what the author confirms in the
    settings ([renamed] "old" = "new"); a typo is fixed in the title."""
    published = {e.topic for e in lock.entries if e.removed is None}
    built = {t.name for t in topics}
    gone = sorted(published - built)
    if not gone:
        return []
    problems = []
    for topic in topics:
        if topic.name in published:
            continue
        key = _name_key(topic.name)
        near = [old for old in gone if config.renamed_to(old) != seen_name(topic.name) and (
            _name_key(old) == key or min(len(key), len(_name_key(old))) >= 8
            and re.sub(r"\d", "", key) != re.sub(r"\d", "", _name_key(old))
            and _a_typo_apart(key, _name_key(old)))]
        for old in near[:1]:
            for member in topic.files:
                problems.append(error("E133", member.path, member.title_line, (
                    f"topic {clip(topic.name)!r} is not published, but {clip(old)!r} is and "
                    "no file builds it any more: built so, learners would get a second deck "
                    "and the first would stop changing. If the title has a typo, restore "
                    f"{clip(old)!r}; to rename the topic, confirm it in {config_path}: "
                    f"[renamed] \"{old}\" = \"{topic.name}\"")))
    return problems


def moved_by_title(topics: Sequence[Topic], lock: Lock, config: Config, config_path: str,
                   sources: Mapping[str, str]) -> list[Diagnostic]:
    """E123 at the title of each file whose published questions its title would move to a
    new deck, when the two titles differ only in how the line ends: the suffix mistyped,
    or not read at all, so that it (or the part number) became part of the topic's name
    ("Foo 2 - Questions & Answers" taken whole, or read at last as "Foo"). Learners would
    get a second deck and the first would stop changing. A move the author means is
    confirmed in the settings, as a rename is ([renamed] "old" = "new")."""
    published = {e.topic for e in lock.entries if e.removed is None}
    placed: dict[str, tuple[str, int]] = {}  # file in the lock -> its topic and part
    for entry in lock.entries:
        if entry.removed is None and entry.file is not None:
            placed.setdefault(entry.file, (entry.topic, entry.part))
    problems = []
    for topic in topics:
        if topic.name in published:
            continue
        for member in topic.files:
            was, part = placed.get(sources.get(member.path, ""), ("", 0))
            if not was or was == topic.name \
                    or config.renamed_to(was) == seen_name(topic.name) \
                    or not _only_the_end_differs(was, topic.name, part):
                continue
            confirm = f"[renamed] \"{was}\" = \"{topic.name}\""
            fix = (f"write the title as '{clip(was)} {part} — Questions and Answers'; if the "
                   f"new deck is meant, confirm it in {config_path}: {confirm}"
                   if without_suffix(was) == was else  # an old title read whole before
                   f"the line's end is now read as the suffix; to publish the questions "
                   f"under the new name, confirm it in {config_path}: {confirm}")
            problems.append(error("E123", member.path, member.title_line, (
                f"title makes topic {clip(topic.name)!r}, but this file's questions are "
                f"published in {clip(was)!r}: the titles differ only in how the line ends "
                f"(the '— Questions and Answers' or the part number). Built so, learners "
                f"would get a second deck and the first would stop changing: {fix}")))
    return problems


def _only_the_end_differs(was: str, now: str, part: int) -> bool:
    """Whether topic names ``was`` and ``now`` are one title read two ways at its end."""
    def key(name: str) -> str:
        return seen_name(without_suffix(name)).casefold()

    old, new = key(was), key(now)
    if old == new:
        return True
    whole = seen_name(now).casefold()  # the whole line taken as the name: "foo 2 — q's"
    stem = f"{seen_name(was).casefold()} {part}"
    return whole.startswith(stem) and not whole[len(stem):len(stem) + 1].isdigit()


def slugify(name: str) -> str:
    """A safe file name stem: ASCII letters, digits and single hyphens only. A name whose
    letters or digits are not all Latin ("ООП", "日本語", "C# Основы") ends with a digest
    of the whole name, so that two such topics are two files, not one "topic"."""
    decomposed = unicodedata.normalize("NFKD", name)
    ascii_name = decomposed.encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    if not any(c.isalnum() and not c.isascii() for c in decomposed):
        return slug[:_SLUG_MAX].rstrip("-") or "topic"
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    digest = hashlib.sha256(folded.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug[:_SLUG_MAX - 9].rstrip('-') or 'topic'}-{digest}"


def deck_for(name: str, config: Config) -> tuple[str, str]:
    """The full deck name and the file slug of the topic called ``name``."""
    leaf = config.deck_name(name)
    return f"{config.parent_deck}::{leaf}", slugify(leaf)


def repeats_across_parts(members: Sequence[ParsedFile]) -> list[Diagnostic]:
    """An error at each question that repeats one of another part of its topic word for
    word, and at the one it repeats (one file's own repeats: checks.py): one deck would
    hold the same card twice.
    The build asks only of topics it builds: it reads every question of the topic (a
    reused topic's files were checked by the build it reuses)."""
    if len(members) < 2:
        return []
    seen: dict[tuple[str, tuple[str, ...]], tuple[ParsedFile, int, int]] = {}
    problems = []
    for member in members:
        for question in member.questions:
            first = seen.setdefault(repeat_key(question), (member, question.number,
                                                           question.line))
            if first[0] is not member:
                problems.append(error("E130", first[0].path, first[2], (
                    f"Question {first[1]} is repeated word for word by Question "
                    f"{question.number} of {member.path} (line {question.line}); delete one")))
                problems.append(error("E130", member.path, question.line, (
                    f"Question {question.number} repeats Question {first[1]} of "
                    f"{first[0].path} (line {first[2]}) word for word; delete one")))
    return problems


def _unmatched_settings(config: Config, config_path: str, names: list[str]
                        ) -> list[Diagnostic]:
    """W201 at each key of a topic table in the settings that names no topic, at its line:
    a deck name, shuffling or show-on-pick that would silently not apply. A key that is
    one of the topics but for case or punctuation says which."""
    topics = {seen_name(n): n for n in names}
    plain = {_plain(n): n for n in names}
    problems = []
    for section, table in (("deck_names", config.deck_names), ("shuffle", config.shuffle),
                           ("show_answer_on_pick", config.show_on_pick)):
        for key in sorted(set(table) - set(topics) - {""}):
            near = plain.get(_plain(key))
            hint = (f"; did you mean {near!r}? Write the topic's name as the build prints "
                    "it" if near else f"; topics: {', '.join(names)}")
            problems.append(warning("W201", config_path, config.key_lines.get((section, key), 0),
                                    f"[{section}] names topic {key!r}, which no source file "
                                    f"has{hint}"))
    return problems


def group_topics(files: tuple[ParsedFile, ...], config: Config, config_path: str
                 ) -> tuple[tuple[Topic, ...], tuple[Diagnostic, ...]]:
    """Group ``files`` by cleaned topic name; report clashes of parts and file names."""
    problems: list[Diagnostic] = []
    by_name: dict[str, list[ParsedFile]] = {}
    for parsed in files:
        if not parsed.title:
            continue
        name = clean_topic_name(parsed.name, config.parent_deck)
        repeat = _REPEAT_RE.search(parsed.name)
        if repeat:
            problems.append(warning("W131",
                                    parsed.path, parsed.title_line,
                                    f"title repeats {repeat.group('phrase')!r}; "
                                    f"the deck is named {name!r}"))
        by_name.setdefault(name, []).append(parsed)

    topics: list[Topic] = []
    for name, members in sorted(by_name.items()):
        members.sort(key=lambda f: (f.part, f.path))
        for earlier, later in zip(members, members[1:]):
            if earlier.part == later.part:
                problems.append(error("E131",
                                      later.path, later.title_line,
                                      f"part {later.part} of topic {clip(name)!r} "
                                      f"is also in {earlier.path}; give each part its own number"))
        leaf = config.deck_name(name)
        why = deck_name_problem(leaf)
        if why:
            for member in members:
                problems.append(error("E132",
                                      member.path, member.title_line,
                                      f"deck name {clip(leaf)!r} {why}; set one in "
                                      "nca-anki.toml [deck_names]"))
            continue
        deck_name, slug = deck_for(name, config)
        topics.append(Topic(name=name, deck_name=deck_name, slug=slug, files=tuple(members)))

    problems += _unmatched_settings(config, config_path, sorted(by_name))

    problems += _near_names(topics)
    by_slug: dict[str, list[Topic]] = {}
    for topic in topics:
        by_slug.setdefault(topic.slug, []).append(topic)
    for slug, clashing in sorted(by_slug.items()):
        if len(clashing) > 1:
            names = " and ".join(repr(t.name) for t in clashing)
            for topic in clashing:
                for member in topic.files:
                    problems.append(error("E132", member.path, member.title_line, f"topics {names} "
                                          "would both be written to "
                                          f"{slug}.apkg; rename one or set a deck name in "
                                          "nca-anki.toml [deck_names]"))
    return tuple(topics), tuple(problems)
