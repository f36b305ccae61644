"""``nca-import.toml``: how to read a bank, kept beside it, for when the importer's guess
is wrong, and written by ``import --write-settings`` so that an import can be repeated
exactly (docs/importing.md, "Settings beside the bank")::

    from = "typescript"            # the reader for every file (as --from)
    topic = "Networking"           # one topic for every file (as --topic)

    [map]                          # key path = role (as --map KEY=ROLE)
    "_Answers.label" = "choice-text"
    _RightAnswerIndexD = "answer0"

    [files."quiz/*.js"]            # files by their path from this file's folder
    from = "javascript"            # ... their own from, topic and [files."…".map]

Which file is used: ``--settings FILE`` names one, for every input; ``--no-settings``
uses none; otherwise ``nca-import.toml`` in the folder each input comes from (the folder
given, or a file's own folder; never a parent or a sub-folder), for the inputs from that
folder. Two such folders with one each is refused: one import, one settings file. The
command line is over the file: ``--from``, ``--topic`` and each ``--map`` key win.

The file is the author's input, read as untrusted as a bank: a regular file (never a pipe
or a device), at most SETTINGS_LIMIT bytes, UTF-8, one found beside a bank not a link
leading out of its folder. Every problem is one ``SettingsProblem`` at its line (E706 the
content, E709 the file), and the import reads nothing.
"""

from __future__ import annotations

import difflib
import fnmatch
import functools
import os
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from nca_anki.diagnostics import Diagnostic, clip, error, warning
from nca_anki.files import NotRegularFile, TooLarge, read_regular
from nca_anki.importing.bank import Reading
from nca_anki.importing.roles import ROLES
from nca_anki.publishing.output import WriteError, write_atomic

SETTINGS_NAME = "nca-import.toml"
SETTINGS_LIMIT = 1 << 20  # bytes: a settings file is a few dozen lines
# The first line of a file the import wrote: only such a file is ever written over.
WRITTEN_MARK = "# Written by `import --write-settings`"
_KEYS = ("from", "topic", "map", "files")
_FILE_KEYS = ("from", "topic", "map")
# The readers that take a map (a structured bank's keys); others read no keys.
_KEYED = frozenset({"json", "typescript", "yaml", "csv", "tsv", "moodle-xml"})
Pairs = tuple[tuple[str, str], ...]


class SettingsProblem(Exception):
    """A settings file that cannot be used: ``diagnostic`` says where and why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class FileRule:
    """A ``[files."PATTERN"]`` table: what it says of the files it matches."""

    pattern: str
    line: int
    form: str | None = None
    topic: str | None = None
    map: Pairs = ()

    def matches(self, relative: str) -> bool:
        """Whether the file at ``relative`` (its path from the settings file's folder) is
        one of this table's: its path written out, or matched by the pattern (``*`` any
        characters of a name, ``?`` one, ``[abc]`` one of these; a ``**`` part any
        folders). One part at a time, so no pattern takes long to try."""
        pattern = self.pattern.removeprefix("./")
        if pattern == relative:
            return True
        states = {0}
        names = relative.split("/")
        for part in pattern.split("/"):
            if part == "**":
                states = set(range(min(states), len(names) + 1))
            else:
                states = {n + 1 for n in states
                          if n < len(names) and fnmatch.fnmatchcase(names[n], part)}
            if not states:
                return False
        return len(names) in states


@dataclass(frozen=True)
class ImportSettings:
    """One settings file, read and checked."""

    shown: str  # its path, as messages name it
    folder: Path  # where it is: [files] patterns are paths from here
    every_input: bool  # named by --settings: for every input; else for those of ``folder``
    form: str | None = None
    topic: str | None = None
    map: Pairs = ()
    files: tuple[FileRule, ...] = ()

    def covers(self, root: Path) -> bool:
        """Whether it is for an input found in ``root`` (a folder given, a file's folder)."""
        return self.every_input or _same(root, self.folder)


@dataclass(frozen=True)
class Chosen:
    """How one input file is read: its reader (None: told from the file), its map, its
    topic from the settings (None: the command's or its own), and which settings were
    taken from the file."""

    form: str | None
    overrides: Mapping[str, str]
    topic: str | None = None
    used: tuple[tuple[str, str], ...] = ()  # ("from", reader), ("map", key), ("topic", name)
    rules: tuple[str, ...] = ()  # the [files] patterns that matched it
    over: tuple[str, ...] = ()  # the command line's options that went over the file's


@dataclass(frozen=True)
class ReadAs:
    """How one input file was read, to write down: its reader, the keys of its bank with
    their roles, the topic given for it."""

    path: Path
    form: str
    map: Pairs = ()
    topic: str | None = None


# --- finding and reading the file ---------------------------------------------------------

def beside(inputs: Sequence[str]) -> Path | None:
    """The settings file in the folder the inputs come from; None if there is none.
    SettingsProblem (E709) if inputs from two folders each have one."""
    found: dict[Path, Path] = {}
    for name in inputs:
        folder = _folder(name)
        candidate = folder / SETTINGS_NAME
        if os.path.lexists(candidate):
            found.setdefault(_resolved(folder), candidate)
    if len(found) > 1:
        first, second = list(found.values())[:2]
        raise SettingsProblem(error("E709", second.as_posix(), 0, (
            f"the inputs come from two folders that each have a {SETTINGS_NAME} (also "
            f"{first.as_posix()}); import each folder on its own, or name one with "
            "--settings FILE, or --no-settings")))
    return next(iter(found.values()), None)


def load(path: Path, readers: Sequence[str], *, named: bool) -> ImportSettings:
    """``path`` read and checked; SettingsProblem at the first problem. ``named``: given
    by --settings (for every input), else found beside a bank (for its folder's inputs,
    and never a link that leads out of that folder)."""
    shown = path.as_posix()
    text = _text(path, shown, named)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsProblem(error("E706", shown, _toml_line(exc), (
            f"not valid TOML: {_toml_reason(exc)}; see docs/importing.md, \"Settings "
            "beside the bank\""))) from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise SettingsProblem(error("E706", shown, _deep_line(text), (
            "not valid settings: arrays or tables nested far too deep (settings nest a "
            "few levels)"))) from None
    check = _Check(shown, text, tuple(readers))
    check.keys(data, _KEYS, ())
    rules = tuple(check.rule(pattern, value) for pattern, value in
                  check.table(data.get("files", {}), ("files",)).items())
    return ImportSettings(shown, path.parent, named, check.form(data, ()),
                          check.topic(data, ()), check.map(data.get("map", {}), ("map",)),
                          rules)


def _text(path: Path, shown: str, named: bool) -> str:
    """The file's text; SettingsProblem (E709) if it is no regular file, too large, not
    UTF-8, or (found beside a bank) a link out of the bank's folder."""
    if not named and path.is_symlink() and not _resolved(path).is_relative_to(
            _resolved(path.parent)):
        raise SettingsProblem(error("E709", shown, 0, (
            "is a link to a file outside the bank's folder; put the settings file itself "
            "there, or name it with --settings FILE")))
    try:
        data = read_regular(path, SETTINGS_LIMIT)
    except (NotRegularFile, TooLarge) as exc:
        raise SettingsProblem(error("E709", shown, 0, f"is {exc.strerror}")) from None
    except OSError as exc:
        raise SettingsProblem(error("E709", shown, 0, (
            f"cannot be read: {exc.strerror or exc}"))) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise SettingsProblem(error("E709", shown, line, (
            "is not UTF-8 text (a settings file is TOML, written as text); save it as "
            "UTF-8"))) from None


_FILES_HEADER = re.compile(r"""\s*\[\s*files\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*'|[\w-]+)""")


@dataclass
class _Check:
    """Checks the values of one settings file, each problem at its line."""

    shown: str
    text: str
    readers: tuple[str, ...]

    @functools.cached_property
    def headers(self) -> dict[str, int]:
        """Each ``[files."PATTERN"]`` table's pattern -> the line of its header, found in
        one pass (looked for one by one, a file of many tables would take long)."""
        found: dict[str, int] = {}
        for number, line in enumerate(self.text.splitlines(), start=1):
            header = _FILES_HEADER.match(line)
            if header is None:
                continue
            try:
                key = tomllib.loads(f"k = {header.group(1)}")["k"]
            except tomllib.TOMLDecodeError:
                key = header.group(1)
            found.setdefault(key, number)
        return found

    def fail(self, where: tuple[str, ...], message: str) -> SettingsProblem:
        return SettingsProblem(error("E706", self.shown, key_line(self.text, where), message))

    def keys(self, data: Mapping[str, object], known: tuple[str, ...],
             where: tuple[str, ...]) -> None:
        for key in data:
            if key not in known:
                raise self.fail((*where, key), f"unknown setting {_quoted(where, key)}"
                                f"{_closest(key, known)}; the settings: {', '.join(known)}")

    def table(self, value: object, where: tuple[str, ...]) -> dict[str, object]:
        if not isinstance(value, dict):
            raise self.fail(where, f"{clip('.'.join(where), 60)} must be a table ([{where[0]}] and "
                            f"its keys), not {_kind(value)}")
        return value

    def form(self, data: Mapping[str, object], where: tuple[str, ...]) -> str | None:
        value = data.get("from")
        if value is None:
            return None
        if not isinstance(value, str) or value not in self.readers:
            raise self.fail((*where, "from"), (
                f"from = {_said(value)} is not a reader"
                f"{_closest(value, self.readers) if isinstance(value, str) else ''}; "
                f"the readers: {', '.join(self.readers)}"))
        return value

    def topic(self, data: Mapping[str, object], where: tuple[str, ...]) -> str | None:
        value = data.get("topic")
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise self.fail((*where, "topic"), "topic must be the topic's name, as text")
        return value

    def map(self, value: object, where: tuple[str, ...]) -> Pairs:
        """The [map] table as (key path, role); a nested table (``options.label =``
        unquoted, or ``[map.options]``) is a key path."""
        pairs: list[tuple[str, str]] = []
        # In the order written: a prompt of several keys joins them in that order.
        top = self.table(value, where)
        assert isinstance(top, dict)
        todo: list[tuple[tuple[str, ...], Iterator[tuple[str, object]]]] = [
            ((), iter(top.items()))]
        while todo:
            path, items = todo[-1]
            for key, role in items:
                if isinstance(role, dict):
                    todo.append(((*path, key), iter(role.items())))
                    break
                named = ".".join((*path, key))
                if not key.strip():
                    raise self.fail((*where, *path, key), "a key of the map is empty; write "
                                    "the key's name (or path, options.label) as the bank has it")
                if not isinstance(role, str) or role not in ROLES:
                    raise self.fail((*where, *path, key), (
                        f"{clip(named, 60)!r} = {_said(role)} is not a role"
                        f"{_closest(role, ROLES) if isinstance(role, str) else ''}; the "
                        f"roles: {', '.join(ROLES)}"))
                pairs.append((named, role))
            else:
                todo.pop()  # this table read to its end: back to the one holding it
        return tuple(pairs)

    def rule(self, pattern: str, value: object) -> FileRule:
        where = ("files", pattern)
        table = self.table(value, where)
        self.keys(table, _FILE_KEYS, where)
        if not pattern.strip():
            raise self.fail(where, "a [files] pattern is empty; write a file's path from "
                            "the settings file's folder, or a pattern (quiz/*.js)")
        return FileRule(pattern, self.headers.get(pattern) or key_line(self.text, where),
                        self.form(table, where),
                        self.topic(table, where),
                        self.map(table.get("map", {}), (*where, "map")))


def _said(value: object) -> str:
    """A value of the file as a message quotes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return clip(str(value), 30)
    return repr(clip(value, 40)) if isinstance(value, str) else _kind(value)


def _kind(value: object) -> str:
    return {bool: "true or false", int: "a number", float: "a number", list: "a list",
            dict: "a table", str: "text"}.get(type(value), "a date or time")


def _quoted(where: tuple[str, ...], key: str) -> str:
    return repr(clip(key, 40)) + (f" in {_header(where)}" if where else "")


def _header(where: tuple[str, ...]) -> str:
    return "[" + ".".join(_toml_key(clip(part, 40)) for part in where) + "]"


def _closest(word: str, known: Sequence[str]) -> str:
    near = difflib.get_close_matches(word[:100], known, n=1, cutoff=0.6)
    return f" (did you mean {near[0]!r}?)" if near else ""


_DEEP = 32  # brackets open at once: no setting nests near this


def _deep_line(text: str) -> int:
    """The line where brackets and braces first nest _DEEP deep (quotes not minded)."""
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        for ch in line:
            depth += (ch in "[{") - (ch in "]}")
            if depth >= _DEEP:
                return number
    return 0


def _toml_line(exc: tomllib.TOMLDecodeError) -> int:
    # Python 3.14 has exc.lineno; earlier versions only say "(at line N, column M)".
    found = re.search(r"at line (\d+)", str(exc))
    return getattr(exc, "lineno", None) or (int(found.group(1)) if found else 0)


def _toml_reason(exc: tomllib.TOMLDecodeError) -> str:
    said = getattr(exc, "msg", None) or re.sub(r"\s*\(at (?:line \d+, column \d+|end of "
                                               r"document)\)\s*$", "", str(exc))
    return clip(str(said), 80)


def key_line(text: str, where: Sequence[str]) -> int:
    """The line of the settings text where the key path ``where`` is written (a key, a
    dotted key's part or a table header), each part looked for after the one before; the
    last part found if a later one is not (0: none is)."""
    lines = text.splitlines()
    line = 0  # the line found so far, from 1; the next part is looked for from it on
    for whole in where:
        part = whole[:_LONGEST]  # a long key is found by its start: no search is slow
        quoted, bare = re.escape(_escaped(part)), re.escape(part)
        pattern = re.compile(r"(?<![\w\"'-])" + (
            rf"(?:\"{quoted}\"|'{bare}'|{bare})(?=\s*[=.\]])" if part == whole
            else rf"(?:\"{quoted}|'{bare})"))
        found = next((n for n in range(max(line - 1, 0), len(lines))
                      if pattern.search(lines[n].split("#", 1)[0] if "#" not in part
                                        else lines[n])), None)
        if found is None:
            break
        line = found + 1
    return line


_LONGEST = 100  # characters of a key looked for


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


# --- choosing, for each input file -----------------------------------------------------------

def choose(settings: ImportSettings | None, path: Path, root: Path, form: str | None,
           overrides: Mapping[str, str], topic: str | None) -> Chosen:
    """How to read the input ``path`` (found in ``root``): the command line's ``form``,
    ``overrides`` and ``topic`` over the settings' [files] tables that match it (later
    over earlier), over the settings' own from, map and topic."""
    if settings is None or not settings.covers(root):
        return Chosen(form, dict(overrides))
    relative = _relative(path, settings.folder)
    rules = [rule for rule in settings.files if relative is not None and rule.matches(relative)]
    mapped = dict(settings.map)
    said_form, said_topic = settings.form, settings.topic
    for rule in rules:
        mapped.update(rule.map)
        said_form = rule.form or said_form
        said_topic = rule.topic or said_topic
    used = [(name, value) for name, value, given in (
        ("from", said_form, form), ("topic", said_topic, topic),
        *(("map", key, key in overrides) for key in mapped)) if value and not given]
    over = [option for option, value, given in (
        ("--from", said_form, form), ("--topic", said_topic, topic),
        *((f"--map {key}", key, key in mapped) for key in overrides)) if value and given]
    mapped.update(overrides)
    return Chosen(form or said_form, mapped, None if topic else said_topic, tuple(used),
                  tuple(rule.pattern for rule in rules), tuple(over))


def titled(reading: Reading, topic: str | None) -> Reading:
    """``reading`` with every section under ``topic`` (the settings' topic), if any."""
    if topic is None:
        return reading
    return replace(reading, sections=tuple(replace(s, title=topic) for s in reading.sections))


def unmatched(settings: ImportSettings | None, chosen: Iterable[Chosen]) -> list[Diagnostic]:
    """A warning (W710) for each [files] pattern that matched no input file."""
    if settings is None:
        return []
    matched = {pattern for one in chosen for pattern in one.rules}
    return [warning("W710", settings.shown, rule.line, (
        f"[files.{_toml_key(clip(rule.pattern, 60))}] matches no file of this import; a "
        "pattern is a path from the settings file's folder (* any characters of a name, ** "
        "any folders)"))
        for rule in settings.files if rule.pattern not in matched]


def note(settings: ImportSettings | None, chosen: Sequence[Chosen]) -> str:
    """What the report says of the settings file: which it was, and what of it was used."""
    if settings is None:
        return ""
    used: dict[str, set[str]] = {"from": set(), "map": set(), "topic": set()}
    for one in chosen:
        for name, value in one.used:
            used[name].add(value)
    taken = [f"{name} {clip(next(iter(values)), 40)!r}" if len(values) == 1 and name != "map"
             else f"{name} ({len(values)} {'keys' if name == 'map' else 'values'})"
             for name, values in used.items() if values]
    over = sorted({option for one in chosen for option in one.over})
    said = f"read with settings {settings.shown}" + (
        "" if settings.every_input else " (beside the bank)") + (
        f": its {_and(taken)} taken" if taken else ": none of it applies to these files")
    if over:
        shown = _and(over[:3]) + (f" and {len(over) - 3} more" if len(over) > 3 else "")
        said += f"; the command line's {shown} over it"
    return said


def _and(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _relative(path: Path, folder: Path) -> str | None:
    """``path`` as a path from ``folder``, as [files] patterns are written; None if it is
    not inside it."""
    try:
        return _resolved(path).relative_to(_resolved(folder)).as_posix()
    except ValueError:
        return None


# --- writing down how a bank was read ---------------------------------------------------------

def read_as(path: Path, form: str | None, reading: Reading, chosen: Chosen,
            topic: str | None) -> ReadAs | None:
    """How ``path`` was read, to write down (None: no reader read it): the roles its
    reader decided, and what the map said besides (a key left out: ``ignore``)."""
    if form is None:
        return None
    pairs: dict[str, str] = {}
    if form in _KEYED:
        for section in reading.sections:
            for key, role in section.roles:
                pairs.setdefault(key, role)
        for key, role in chosen.overrides.items():
            pairs.setdefault(key, role)
    return ReadAs(path, form, tuple(pairs.items()), topic)


def settings_text(read: Sequence[ReadAs], folder: Path, command: str) -> str:
    """A settings file that reads each of ``read`` as it was read: its reader, its keys'
    roles, its topic, one [files] table for each, by its path from ``folder``."""
    lines = [WRITTEN_MARK + ": how each file was read. Edit it freely;",
             "# delete these first lines to keep a later --write-settings from replacing it.",
             f"# Used when the bank is imported again: {command}", ""]
    for one in read:
        try:
            name = _resolved(one.path).relative_to(_resolved(folder)).as_posix()
        except ValueError:
            continue
        header = f"files.{_toml_key(name)}"
        lines += [f"[{header}]", f"from = {_toml_string(one.form)}"]
        if one.topic is not None:
            lines.append(f"topic = {_toml_string(one.topic)}")
        if one.map:
            lines += ["", f"[{header}.map]"]
            lines += [f"{_toml_key(key)} = {_toml_string(role)}" for key, role in one.map]
        lines.append("")
    return "\n".join(lines)


def write_target(inputs: Sequence[str]) -> Path:
    """Where --write-settings writes: beside the bank, in the one folder the inputs come
    from; SettingsProblem (E709) if they come from several, or if a file is there that
    the import did not write (it is never written over)."""
    folders = {_resolved(_folder(name)): _folder(name) for name in inputs}
    if len(folders) > 1:
        common = Path(os.path.commonpath(list(folders))).as_posix()
        raise SettingsProblem(error("E709", "--write-settings", 0, (
            f"writes the settings beside the bank, and the inputs come from {len(folders)} "
            f"folders; import one folder at a time, or give the folder that holds them "
            f"({clip(common, 60)}) as the input")))
    target = next(iter(folders.values())) / SETTINGS_NAME
    if os.path.lexists(target) and not _ours(target):
        raise SettingsProblem(error("E709", target.as_posix(), 0, (
            "is there and was not written by --write-settings, so it is not replaced; "
            "move it away, or leave out --write-settings")))
    return target


def write(target: Path, text: str) -> Diagnostic | None:
    """Write the settings to ``target`` (whole or not at all); the error if that failed."""
    if os.path.lexists(target) and not _ours(target):  # appeared meanwhile
        return error("E709", target.as_posix(), 0, "is there and was not written by "
                     "--write-settings; not replaced")
    try:
        write_atomic(target, text.encode("utf-8"))
    except WriteError as exc:
        return error("E709", target.as_posix(), 0, exc.reason)
    return None


def _ours(path: Path) -> bool:
    """Whether ``path`` is a settings file the import wrote (its first line says so)."""
    if path.is_symlink():
        return False
    try:
        return read_regular(path, SETTINGS_LIMIT).startswith(WRITTEN_MARK.encode())
    except OSError:
        return False


_BARE_RE = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_RE.fullmatch(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and control characters
    escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _folder(name: str) -> Path:
    path = Path(name)
    return path if path.is_dir() else path.parent


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of links
        return path.absolute()


def _same(one: Path, other: Path) -> bool:
    return _resolved(one) == _resolved(other)
