"""The author's settings file, ``nca-anki.toml`` in the source folder (optional).

::

    parent_deck = "NCA"          # every topic's deck sits under this one
    language = "de"              # the card's own words: en (default), de, fr, ar
    report_url = "https://github.com/OWNER/REPO/issues/new?template=question.yml&fingerprint={fingerprint}&guid={guid}&deck={deck}&version={version}&source={file}%3A{line}&pick={pick}&verdict={verdict}"
                                 # a "Report a problem" link on every card's back

    [deck_names]                 # topic name (as the build prints it) = deck name
    "AI & Deep Learning Frameworks" = "AI and Deep Learning Frameworks"

    [shuffle]                    # topic name = false: choices stay in the written order
    "Neural Network Applications and Frameworks" = false
    show_answer_on_pick = true   # every deck: picking a choice shows the answer (off by
                                 # default); or a table, [show_answer_on_pick], per topic

    [[acknowledged]]             # a warning judged for one question: not shown again
    code = "W140"                # until the question changes (reading/acknowledged.py)
    question = "3f2a9c1d7e01"    # its fingerprint, as --warnings=all and --json give it
    reason = "the answer must name both parts"   # optional: for whoever reads this

    [[acknowledged]]             # or every warning of a code in one question file, for
    code = "W142"                # as long as the file keeps its name
    file = "gpu-basics-1.txt"    # its path in the source folder

Returns a ``Config`` and diagnostics; never raises.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from collections.abc import Mapping

from nca_anki.language import DEFAULT_LANGUAGE, LANGUAGES
from nca_anki.codes import CODES
from nca_anki.diagnostics import Diagnostic, error
from nca_anki.files import CONFIG_NAME, read_regular
from nca_anki.reading.seen import seen_name
from nca_anki.records import REPORT_PLACEHOLDERS, Acknowledgement

DEFAULT_PARENT_DECK = "NCA"
DECK_PART_LIMIT = 120  # characters in each "::" part of a deck name
DECK_DEPTH_LIMIT = 8  # "::" parts in a parent deck or a topic's deck name
CONFIG_LIMIT = 1 << 20  # bytes: settings are a few hundred


@dataclass(frozen=True, kw_only=True)
class Config:
    parent_deck: str = DEFAULT_PARENT_DECK
    deck_names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    shuffle: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    # Topic -> whether picking a choice shows the answer; "" holds the value for every deck.
    show_on_pick: Mapping[str, bool] = field(default_factory=lambda: MappingProxyType({}))
    acknowledged: tuple[Acknowledgement, ...] = ()
    # Confirmed renames of published topics: old topic name -> new (topics.renamed).
    renamed: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # The language of the card's own words (language.py); the questions are the authors'.
    language: str = DEFAULT_LANGUAGE
    # The address of the "Report a problem" link on every card's back, with placeholders
    # (cards/report_link.py); "": no link.
    report_url: str = ""
    # (table, topic key) -> the key's line in the settings file, for what is said of it.
    key_lines: Mapping[tuple[str, str], int] = field(
        default_factory=lambda: MappingProxyType({}))

    # The tables' topic keys are held as a reader sees them (reading/seen.py): a key typed
    # in another Unicode form, or with an invisible character, names the same topic.
    def deck_name(self, topic: str) -> str:
        """The deck name [deck_names] gives ``topic``, else the topic's own name."""
        return self.deck_names.get(seen_name(topic), topic)

    def shuffles(self, topic: str) -> bool:
        """Whether the cards of ``topic`` may show its choices in another order."""
        return self.shuffle.get(seen_name(topic), True)

    def shows_answer_on_pick(self, topic: str) -> bool:
        """Whether picking a choice of ``topic``'s cards shows the answer at once."""
        return self.show_on_pick.get(seen_name(topic), self.show_on_pick.get("", False))

    def renamed_to(self, old: str) -> str:
        """The topic [renamed] confirms ``old`` was renamed to ("" if none), as seen."""
        return self.renamed.get(seen_name(old), "")


def _line_of(text: str, key: str) -> int:
    """The line where ``key`` is assigned (bare or quoted), 0 if not found."""
    pattern = re.compile(r"^\s*(?:" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*=')
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return 0


def _key_line(text: str, section: str, key: str) -> int:
    """The line where ``key`` is assigned in the table ``section`` (the first after its
    header), else anywhere, else the header's line."""
    start = _section_line(text, section)
    pattern = re.compile(r"^\s*(?:" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*=')
    for number, line in enumerate(text.splitlines()[start:], start=start + 1):
        if pattern.match(line):
            return number
    return _line_of(text, key) or start


def _section_line(text: str, section: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(f"[{section}]"):
            return number
    return 0


def _toml_error_line(exc: tomllib.TOMLDecodeError) -> int:
    # Python 3.14 has exc.lineno; earlier versions only say "(at line N, column M)".
    found = re.search(r"at line (\d+)", str(exc))
    return getattr(exc, "lineno", None) or (int(found.group(1)) if found else 0)


def deck_name_problem(name: str) -> str | None:
    """Why ``name`` is not a usable Anki deck name (or part of one), else None."""
    if not name.strip():
        return "is empty"
    if any(not part.strip() for part in name.split("::")):
        return "has an empty part between '::' separators"
    if any(ord(ch) < 32 or ch == "\ufffd" for ch in name):
        return "contains a control or damaged character"
    longest = max(name.split("::"), key=len).strip()
    if len(longest) > DECK_PART_LIMIT:
        return (f"has a part of {len(longest):,} characters ({longest[:40]!r}...); Anki's "
                f"deck list shows a name in one line: keep each part to {DECK_PART_LIMIT}")
    if name.count("::") >= DECK_DEPTH_LIMIT:
        return f"nests {name.count('::') + 1} decks deep; keep it to {DECK_DEPTH_LIMIT}"
    return None


def load_config(source_dir: Path, display: str) -> tuple[Config, tuple[Diagnostic, ...]]:
    """Read ``source_dir/nca-anki.toml``; ``display`` is its path as shown in messages."""
    path = source_dir / CONFIG_NAME
    if not path.exists() and not path.is_symlink():
        return Config(), ()
    try:
        text = read_regular(path, CONFIG_LIMIT).decode("utf-8-sig")
        data = tomllib.loads(text)
    except UnicodeDecodeError:
        return Config(), (error("E201", display, 0, "settings file is not UTF-8 text"),)
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        return Config(), (error("E201", display, 0, "invalid settings: arrays or tables "
                                "nested far too deep; settings nest at most two levels"),)
    except tomllib.TOMLDecodeError as exc:
        return Config(), (error("E201", display, _toml_error_line(exc),
                                f"invalid TOML: {exc}"),)
    except OSError as exc:
        return Config(), (error("E201", display, 0,
                                f"cannot read settings file: {exc.strerror or exc}"),)

    problems: list[Diagnostic] = []
    for key in sorted(set(data) - set(_SETTINGS)):
        problems.append(error("E202", display, _line_of(text, key) or _section_line(text, key),
                              f"unknown setting {key!r}; known settings: "
                              f"{', '.join(_SETTINGS)}"))
    parent = data.get("parent_deck", DEFAULT_PARENT_DECK)
    if not isinstance(parent, str) or deck_name_problem(parent):
        why = "must be a string" if not isinstance(parent, str) else deck_name_problem(parent)
        problems.append(error("E203", display, _line_of(text, "parent_deck"),
                              f"parent_deck {why}"))
        parent = DEFAULT_PARENT_DECK
    lines: dict[tuple[str, str], int] = {}
    clean = _deck_names(data.get("deck_names", {}), text, display, lines, problems)
    shuffle, shuffle_problems = _shuffle_table(data.get("shuffle", {}), text, display,
                                               lines=lines)
    on_pick = data.get("show_answer_on_pick", {})
    flips: Mapping[str, bool]
    flip_problems: tuple[Diagnostic, ...]
    if isinstance(on_pick, bool):
        flips, flip_problems = MappingProxyType({"": on_pick}), ()
    else:
        flips, flip_problems = _shuffle_table(on_pick, text, display, "show_answer_on_pick",
                                              lines=lines)
    acknowledged, ack_problems = _acknowledged(data.get("acknowledged", []), text, display)
    renamed = data.get("renamed", {})
    if not isinstance(renamed, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in renamed.items()):
        problems.append(error("E203", display, _line_of(text, "renamed")
                              or _section_line(text, "renamed"),
                              "renamed must be a table of \"old topic\" = \"new topic\""))
        renamed = {}
    renamed = {seen_name(old): seen_name(new) for old, new in renamed.items()}
    language = data.get("language", DEFAULT_LANGUAGE)
    if not isinstance(language, str) or language not in LANGUAGES:
        offered = ", ".join(f"{code} ({LANGUAGES[code][0]})" for code in LANGUAGES)
        problems.append(error("E203", display, _line_of(text, "language"),
                              f"language {language!r} is not one the card speaks; choose one "
                              f"of {offered}, or add a table to nca_anki/language.py"))
        language = DEFAULT_LANGUAGE
    report_url = data.get("report_url", "")
    why = _report_url_problem(report_url)
    if why:
        problems.append(error("E203", display, _line_of(text, "report_url"),
                              f"report_url {why}; see docs/study-groups.md, \"Reports from "
                              "learners\""))
        report_url = ""
    parent = unicodedata.normalize("NFC", " ".join(parent.split()))
    return (
        Config(
            parent_deck=parent,
            deck_names=MappingProxyType(clean),
            shuffle=shuffle,
            show_on_pick=flips,
            acknowledged=acknowledged,
            renamed=MappingProxyType(dict(renamed)),
            language=language,
            report_url=report_url,
            key_lines=MappingProxyType(lines),
        ),
        (*problems, *shuffle_problems, *flip_problems, *ack_problems),
    )


def _deck_names(names: object, text: str, display: str, lines: dict[tuple[str, str], int],
                problems: list[Diagnostic]) -> dict[str, str]:
    """[deck_names]: topic (as a reader sees it) -> deck name, each checked."""
    clean: dict[str, str] = {}
    if not isinstance(names, dict):
        problems.append(error("E203", display, _line_of(text, "deck_names")
                              or _section_line(text, "deck_names"),
                              "deck_names must be a table of \"topic\" = \"deck name\""))
        return clean
    for topic, name in names.items():
        why = "must be a string" if not isinstance(name, str) else deck_name_problem(name)
        if why:
            problems.append(error("E203", display, _line_of(text, topic),
                                  f"deck name for {topic!r} {why}"))
        elif _keyed(lines, "deck_names", topic, text, display, problems):
            # A deck's name in one Unicode form: Anki tells "Café" composed and decomposed
            # apart, and would give learners a second deck.
            clean[seen_name(topic)] = unicodedata.normalize("NFC", " ".join(name.split()))
    return clean


_SETTINGS = ("parent_deck", "language", "report_url", "deck_names", "shuffle",
             "show_answer_on_pick", "acknowledged", "renamed")
_REPORT_URL_LIMIT = 2000  # characters: what every browser and issue tracker takes
_URL_RE = re.compile(r"https?://[^\s/?#{}]+[^\s]*")


def _report_url_problem(value: object) -> str:
    """Why ``value`` cannot be a report_url ("" if it can): an http(s) address without
    spaces, whose braces are only the known placeholders."""
    if value == "":
        return ""
    if not isinstance(value, str):
        return "must be text: the address of the page where learners report a problem"
    if len(value) > _REPORT_URL_LIMIT:
        return f"is {len(value)} characters long; at most {_REPORT_URL_LIMIT} work everywhere"
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
        return (f"{value[:80]!r} holds a space or a control character; write a space as "
                "%20 (or + in the part after ?)")
    if not _URL_RE.fullmatch(value):
        return (f"{value[:80]!r} is not an http:// or https:// address: the link opens it "
                "in the learner's browser (write it in full, https://...)")
    unknown = [m for m in re.findall(r"\{([^{}]*)\}", value) if m not in REPORT_PLACEHOLDERS]
    if unknown or re.sub(r"\{[^{}]*\}", "", value).count("{") or \
            re.sub(r"\{[^{}]*\}", "", value).count("}"):
        shown = ", ".join("{" + p + "}" for p in REPORT_PLACEHOLDERS)
        return (f"has {', '.join(repr('{' + u + '}') for u in unknown) or 'a lone brace'}; "
                f"the placeholders are {shown}")
    return ""
_FINGERPRINT_RE = re.compile(r"[0-9a-f]{12}")
_ACK_FIELDS = ("code", "question", "file", "reason")


def _acknowledged(entries: object, text: str, display: str
                  ) -> tuple[tuple[Acknowledgement, ...], list[Diagnostic]]:
    """The [[acknowledged]] entries, each checked: a known warning code, a question's
    fingerprint, nothing else but an optional reason."""
    lines = [n for n, line in enumerate(text.splitlines(), start=1)
             if line.strip().startswith("[[acknowledged]]")]
    if not isinstance(entries, list):
        return (), [error("E203", display, _line_of(text, "acknowledged")
                          or _section_line(text, "acknowledged"),
                          "acknowledged must be a list of [[acknowledged]] entries, each "
                          "with code = \"W...\" and question = \"<fingerprint>\"")]
    found, problems = [], []
    for index, entry in enumerate(entries):
        line = lines[index] if index < len(lines) else _line_of(text, "acknowledged")
        why = _acknowledgement_problem(entry)
        if why:
            problems.append(error("E203", display, line, f"[[acknowledged]] entry {why}"))
            continue
        assert isinstance(entry, dict)
        found.append(
            Acknowledgement(
                code=entry["code"],
                question=entry.get("question", ""),
                line=line,
                file=entry.get("file", ""),
            )
        )
    return tuple(found), problems


def _acknowledgement_problem(entry: object) -> str | None:
    if not isinstance(entry, dict):
        return "must be a table with code and question"
    unknown = sorted(set(entry) - set(_ACK_FIELDS))
    if unknown:
        return f"has unknown key {unknown[0]!r}; known keys: {', '.join(_ACK_FIELDS)}"
    code, question, file = entry.get("code"), entry.get("question"), entry.get("file")
    if not isinstance(code, str) or code not in CODES:
        return (f"names no known code ({code!r}); codes are listed in docs/diagnostics.md"
                if code is not None else "has no code (code = \"W140\", say)")
    if code.startswith("E"):
        return f"names error {code}: errors cannot be acknowledged, only warnings"
    if question is not None and file is not None:
        return "names both a question and a file: give one (question for one question, " \
               "file for every such warning in the file)"
    if file is not None:
        parts = PurePosixPath(file).parts if isinstance(file, str) else ()
        if not parts or file.startswith("/") or "\\" in file or ".." in parts:
            return ("needs file = a question file's path in the source folder, as "
                    f"\"gpu-basics-1.txt\", not {file!r}")
    elif not isinstance(question, str) or not _FINGERPRINT_RE.fullmatch(question):
        return ("needs question = the 12-character fingerprint that --warnings=all or "
                "--json gives the warning (or file = a question file's path, for a "
                f"warning about the whole file), not {question!r}")
    if not isinstance(entry.get("reason", ""), str):
        return "has a reason that is not text"
    return None


def _shuffle_table(table: object, text: str, display: str, name: str = "shuffle", *,
                   lines: dict[tuple[str, str], int] | None = None
                   ) -> tuple[Mapping[str, bool], tuple[Diagnostic, ...]]:
    """A table of "topic" = true or false (``shuffle``, ``show_answer_on_pick``), keyed
    by each topic as a reader sees it; each key's line put in ``lines``."""
    if not isinstance(table, dict):
        return MappingProxyType({}), (error("E203",
            display, _line_of(text, name) or _section_line(text, name),
            f"{name} must be true or false, or a table of \"topic\" = true or false"
            if name != "shuffle" else
            "shuffle must be a table of \"topic\" = true or false"),)
    problems = [error("E203", display, _line_of(text, topic), f"{name} for {topic!r} must be true "
                      f"or false, not {value!r}")
                for topic, value in table.items() if not isinstance(value, bool)]
    lines = {} if lines is None else lines
    kept = {seen_name(t): v for t, v in table.items()
            if isinstance(v, bool) and _keyed(lines, name, t, text, display, problems)}
    return MappingProxyType(kept), tuple(problems)


def _keyed(lines: dict[tuple[str, str], int], table: str, key: str, text: str, display: str,
           problems: list[Diagnostic]) -> bool:
    """Record ``key``'s line in ``lines``; False, with an error, when another key of the
    table names the same topic as a reader sees it (typed in another Unicode form, say)."""
    line = _key_line(text, table, key)
    seen_key = seen_name(key)
    if (table, seen_key) in lines:
        problems.append(error("E203", display, line, f"[{table}] names {key!r} twice (also at "
                              f"line {lines[table, seen_key]}), written in two ways that look "
                              "the same (another Unicode form, an invisible character or "
                              "another space); delete one"))
        return False
    lines[table, seen_key] = line
    return True
