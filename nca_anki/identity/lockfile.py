"""Read and write the identity lock, ``source/nca-anki.lock``: one line per question.

::

    # nca-anki lock 2 ...                       (a comment: what the file is)
    N <note type hash> <mod>                    the card templates' version
    T <topic key> <topic name>                  one line per topic
    F <file key> <file path>                    one line per question file
    Q <guid> <topic key> <part> <mod> <content hash> <source hash> <prompt id> <slots|->
      <file key|-> <removed|-> <prompt excerpt>  one line per question (on one line)

Lines are sorted (N, T, F, then questions by topic and GUID) and carry no text but a short
prompt excerpt for humans, so a question is about 140 bytes and a diff shows exactly the
questions that changed. The file is marked ``merge=union`` in ``.gitattributes``: a merge
of two branches keeps the lines of both, never conflict markers. Reading therefore
tolerates what a union (or a hand-resolved conflict) leaves: the same line twice, two
lines for one GUID (the newer wins), two note-type lines (the newer wins), marker lines;
each with a warning. The question texts that similarity matching needs come from the
published decks (recover.py), not from here.

Every line read is checked: a question line needs a GUID of the form this tool gives
(``nca-`` and 16 hex digits) and well-formed fields, else it is damage that the published
decks fill in. Topic and file keys are 6 hex digits, longer for names whose 6 digits
another name shares (``keys``), so two names never share a key however many there are.
A lock read with one key for two names (written by an older version, or merged) has
those question lines ignored, not guessed. A build's time well before the lock's newest
time is an error (``future_mods``).

The previous format, ``nca-anki.lock.json`` (format 1, full texts), is read for migration.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterable

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.records import Lock, LockEntry

FORMAT = 2
LINE_LIMIT = 140  # bytes; the excerpt is cut to keep each question line within it
_HEADER = (f"# nca-anki lock {FORMAT}: each question's lasting identity (GUID, change time, "
           "hashes). Commit it with the source; never edit it by hand.")
_MARKER_RE = re.compile(r"^(<{7}|={7}|>{7}|\|{7})( |$)")
_HEX = r"[0-9a-f]"
def _question_row(line: str) -> list[str] | None:
    """The twelve fields of a question line ("Q" first), or None if it is not one. Split,
    not a regex, and only cheap checks (a wrong character in a hash can only make it
    match nothing): a lock of 100,000 questions must load in a blink."""
    fields = line.split(" ", 11)
    if len(fields) == 11:
        fields.append("")
    if len(fields) != 12:
        return None
    _, guid, topic, part, mod, content, source, prompt, slots, file_key, removed, _ = fields
    if not (_GUID_RE.fullmatch(guid) and _digits(part) and _digits(mod)
            and 6 <= len(topic) <= 64
            and len(content) == 16 and len(source) in (1, 16) and len(prompt) in (1, 12)
            and (slots == "-" or len(slots) == 1 and _digits(slots)  # most: "2"
                 or _SLOTS_RE.fullmatch(slots) is not None)
            and (file_key == "-" or 6 <= len(file_key) <= 64)
            and (removed == "-" or _digits(removed))):
        return None
    return fields


def _digits(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes "²", which int() refuses."""
    return text.isascii() and text.isdigit()



# The correct choices' slots: "2", or "0,2" for a question with several answers.
_SLOTS_RE = re.compile(r"[0-9](?:,[0-9]){0,9}")
_N_RE = re.compile(rf"^N (?P<hash>{_HEX}{{16}}|-) (?P<mod>\d+)$")
_T_RE = re.compile(rf"^(?P<kind>[TF]) (?P<key>{_HEX}{{6,64}}) (?P<name>.+)$")
# Every GUID this tool gives a note (identity/assign.py): a line with anything else was
# mistyped or tampered with, and is read as damage (the published decks fill it in).
_GUID_RE = re.compile(r"nca-[0-9a-f]{16}")


def key(name: str, length: int = 6) -> str:
    """The short key a topic name or file path is known by in question lines."""
    return hashlib.sha256(name.encode()).hexdigest()[:length]


def keys(names: Iterable[str]) -> dict[str, str]:
    """Each name's key: 6 hex digits, or more for names whose shorter keys would be the
    same (24 bits meet by chance among a few thousand names), so no two names of one
    lock ever share a key. A name's key only grows when a colliding name joins it."""
    names = sorted(set(names))
    found: dict[str, str] = {}
    length = 6
    todo = names
    while todo:
        by_key: dict[str, list[str]] = {}
        for name in todo:
            by_key.setdefault(key(name, length), []).append(name)
        todo = []
        for k, group in by_key.items():
            if len(group) == 1 or length >= 64:
                found.update((name, k) for name in group)
            else:
                todo += group
        length += 2
    return found


def _excerpt(text: str, room: int) -> str:
    """``text`` on one line, cut (with "…") to at most ``room`` UTF-8 bytes."""
    data = " ".join(text.split()).encode()
    if len(data) <= room:
        return data.decode()
    return data[:room - 3].decode(errors="ignore").rstrip() + "…"


def dump_lock(lock: Lock) -> str:
    topics = sorted({e.topic for e in lock.entries})
    files = sorted({e.file for e in lock.entries if e.file})
    lines = [_HEADER, f"N {lock.note_type_hash[:16] or '-'} {lock.note_type_mod}"]
    topic_keys, file_keys = keys(topics), keys(files)
    lines += [f"T {topic_keys[name]} {name}" for name in topics]
    lines += [f"F {file_keys[path]} {path}" for path in files]
    slots_text: dict[tuple[int, ...], str] = {(): "-"}  # a handful of distinct ones
    for e in sorted(lock.entries, key=lambda e: (e.topic, e.guid)):
        slots = slots_text.get(e.slots) or slots_text.setdefault(
            e.slots, ",".join(map(str, e.slots)))
        head = (f"Q {e.guid} {topic_keys[e.topic]} {e.part} {e.mod} {e.content_hash[:16]} "
                f"{e.source[:16] or '-'} {e.prompt_id[:12] or '-'} {slots} "
                f"{file_keys[e.file] if e.file else '-'} "
                f"{'-' if e.removed is None else e.removed}")
        # An ASCII head (always, but for a GUID of a migrated format-1 lock) is as many
        # bytes as characters; encoding every head was a fifth of writing the lock.
        room = LINE_LIMIT - (len(head) if head.isascii() else len(head.encode())) - 1
        lines.append(f"{head} {_excerpt(e.prompt, room)}" if room > 4 else head)
    return "\n".join(lines) + "\n"


def load_lock(text: str, path: str) -> tuple[Lock | None, tuple[Diagnostic, ...]]:
    """Parse a lock file, resolving what a union merge leaves behind (see module doc).
    Only a file that is not a lock at all is an error."""
    read = _LockLines(path)
    read.lines(text)
    if read.note_type is None and not read.rows:
        return None, (error("E301",
                            path, 0, "not an nca-anki lock (no note-type or question line); "
                            "restore it from version control, or delete it to recover it "
                            "from the decks in the output folder"),)
    if read.markers:
        read.problems.append(warning("W301",
                                     path, 0, f"{read.markers} merge conflict marker line(s) "
                                     "ignored and both sides kept; mark the lock merge=union "
                                     "(see docs/authors.md)"))
    entries = read.entries()
    mod, digest = read.note_type or (0, "")
    return (Lock(note_type_hash=digest, note_type_mod=mod,
                 entries=tuple(e for _, e in entries.values()), lines_lost=read.lost),
            tuple(read.problems))


class _LockLines:
    """One lock file as it is read: ``lines`` sorts each line into its kind (question
    rows, names, the note type, conflict markers), then ``entries`` makes the questions'
    entries, the newer of two lines for one GUID kept. What is ignored is said once at
    its line (W301) and counted as lost (the decks fill it in)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Diagnostic] = []
        self.names: dict[str, dict[str, str]] = {"T": {}, "F": {}}
        self.note_type: tuple[int, str] | None = None
        self.rows: list[tuple[int, list[str]]] = []
        self.markers = self.lost = 0
        self.ambiguous: set[tuple[str, str]] = set()

    def lost_line(self, number: int, message: str) -> None:
        self.lost += 1
        self.problems.append(warning("W301", self.path, number, message))

    def lines(self, text: str) -> None:
        lines = text.split("\n")
        if text and not text.endswith("\n"):  # the writer ends every line: this was cut short
            self.lost_line(len(lines), "the lock file ends in the middle of a line (cut "
                           "short?); the decks in the output folder fill in what it held")
            lines.pop()
        for number, line in enumerate(lines, start=1):
            if line.startswith("Q ") and (row := _question_row(line)) is not None:  # most
                self.rows.append((number, row))
            elif not line.strip() or line[0] == "#":
                continue
            elif _MARKER_RE.match(line):
                self.markers += 1
            elif found := _N_RE.match(line):
                self.note_type_line(number, int(found["mod"]), found["hash"].replace("-", ""))
            elif found := _T_RE.match(line):
                kind_names = self.names[found["kind"]]
                if kind_names.get(found["key"], found["name"]) != found["name"]:
                    self.ambiguous.add((found["kind"], found["key"]))  # two names, one key
                kind_names[found["key"]] = found["name"]
            else:
                self.lost_line(number, f"not a lock line, ignored: {line[:60]!r}; the decks "
                               "in the output folder fill in what it held")

    def note_type_line(self, number: int, mod: int, digest: str) -> None:
        if self.note_type is not None and self.note_type != (mod, digest):
            self.problems.append(warning("W301", self.path, number, "two note-type lines (a "
                                         "merge?); the newer is kept"))
        self.note_type = max(self.note_type or (mod, digest), (mod, digest))

    def entries(self) -> dict[str, tuple[int, LockEntry]]:
        entries: dict[str, tuple[int, LockEntry]] = {}
        topics, files = self.names["T"], self.names["F"]
        # A lock's slots are a handful of strings ("0", "2", "0,2"...): each parsed once.
        slot_tuples: dict[str, tuple[int, ...]] = {"-": ()}
        for number, (_, guid, topic_key, part, note_mod, content, source, prompt, slots,
                     file_key, removed, excerpt) in self.rows:
            if self.ambiguous and (("T", topic_key) in self.ambiguous
                                   or ("F", file_key) in self.ambiguous):
                self.lost_line(number, f"question {guid} names a key two names share (lock "
                               "lines of two versions?); ignored, the decks in the output "
                               "folder fill in what it held")
                continue
            topic = topics.get(topic_key)
            if topic is None:
                self.problems.append(warning("W301", self.path, number, f"question {guid} "
                                             f"names topic key {topic_key}, which no T line "
                                             "defines; ignored"))
                continue
            entry = LockEntry(guid=guid, topic=topic, part=int(part), content_hash=content,
                              mod=int(note_mod), prompt=excerpt, choices=(), answer=-1,
                              explanation="", removed=None if removed == "-" else int(removed),
                              slots=slot_tuples[slots] if slots in slot_tuples
                              else slot_tuples.setdefault(slots,
                                                          tuple(map(int, slots.split(",")))),
                              file=files.get(file_key),
                              source="" if source == "-" else source,
                              prompt_id="" if prompt == "-" else prompt)
            self.keep_newer(entries, number, guid, entry)
        return entries

    def keep_newer(self, entries: dict[str, tuple[int, LockEntry]], number: int, guid: str,
                   entry: LockEntry) -> None:
        if guid in entries:
            earlier = entries[guid][1]
            if earlier != entry:
                self.problems.append(warning("W301", self.path, number, f"two lines for "
                                             f"{guid} (a merge?); the newer is kept"))
            if (entry.mod, entry.removed is None) <= (earlier.mod, earlier.removed is None):
                return
        entries[guid] = (number, entry)


def load_old_lock(text: str, path: str) -> tuple[Lock | None, tuple[Diagnostic, ...]]:
    """Read a format-1 lock (``nca-anki.lock.json``), for migration: every field kept."""
    advice = "restore it from version control"
    try:
        data = json.loads(text)
        if data.get("format") != 1:
            return None, (error("E301",
                                path, 0, f"lock file format {data.get('format')!r} is not 1; "
                                "use the nca-anki version that wrote it"),)
        entries = tuple(
            LockEntry(guid=str(q["guid"]), topic=str(q["topic"]), part=int(q["part"]),
                      content_hash=str(q["hash"])[:16], mod=int(q["mod"]),
                      prompt=str(q["prompt"]), choices=tuple(str(c) for c in q["choices"]),
                      answer=int(q["answer"]), explanation=str(q["explanation"]),
                      removed=None if q.get("removed") is None else int(q["removed"]),
                      slots=() if q.get("slot") is None else (int(q["slot"]),),
                      file=None if q.get("file") is None else str(q["file"]))
            for q in data["questions"])
        note_type = data["note_type"]
        return Lock(note_type_hash=str(note_type["hash"])[:16],
                    note_type_mod=int(note_type["mod"]), entries=entries), ()
    except json.JSONDecodeError as exc:
        return None, (error("E301", path, exc.lineno, f"lock file is not valid JSON ({exc.msg}); "
                            f"{advice}"),)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        return None, (error("E301", path, 0, f"lock file is damaged ({type(exc).__name__}: {exc}); "
                            f"{advice}"),)


# How far the build's time may be behind the newest time in the lock and still build:
# another member's clock a little behind the last builder's is handled note by note (an
# edited note gets the later of now and its last time + 1, assign.py), with a warning.
CLOCK_SKEW_SECONDS = 300


def future_mods(lock: Lock, now: int, path: str) -> tuple[Diagnostic, ...]:
    """Times ahead of the build's: a warning (a future mod blocks later updates), or an
    error when the build's time is well behind the newest: every deck's version would
    go back to that day while its notes keep later times, and the changelog would run
    backwards (SOURCE_DATE_EPOCH of an older commit, or a wrong clock)."""
    newest = max([lock.note_type_mod, *(max(e.mod, e.removed or 0) for e in lock.entries)])
    if now < newest - CLOCK_SKEW_SECONDS:
        def utc(moment: int) -> str:
            return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(moment))
        return (error("E302",
                      path, 0, f"this build's time ({utc(now)}) is before the newest change "
                      f"the lock records ({utc(newest)}): SOURCE_DATE_EPOCH names an older "
                      "commit, or this machine's clock is behind; set SOURCE_DATE_EPOCH to "
                      "the latest commit's time (git log -1 --format=%ct) or correct the "
                      "clock"),)
    ahead = [e for e in lock.entries if e.mod > now]
    if lock.note_type_mod > now or ahead:
        return (warning("W303",
                        path, 0, f"{len(ahead) + (lock.note_type_mod > now)} time(s) in the lock "
                        "file are ahead of this machine's clock; check the clock"),)
    return ()


def changed_topics(before: str, after: str) -> tuple[str, ...]:
    """The topics whose question lines differ between two lock texts (for --verify);
    ``("",)`` when the texts differ in nothing but other lines."""
    if before == after:
        return ()
    old, new = _lines_by_topic(before), _lines_by_topic(after)
    return tuple(sorted(t for t in {*old, *new} if old.get(t) != new.get(t))) or ("",)


def _lines_by_topic(text: str) -> dict[str, set[str]]:
    names: dict[str, str] = {}
    lines: dict[str, set[str]] = {}
    for line in text.splitlines():
        fields = line.split(" ", 2)
        if fields[0] == "T" and len(fields) == 3:
            names[fields[1]] = fields[2]
        elif fields[0] == "Q" and len(fields) == 3:
            lines.setdefault(fields[2].split(" ", 1)[0], set()).add(line)
    return {names.get(k, k): v for k, v in lines.items()}
