"""How a build's report is shown: as text for a person (grouped, every warning, or quiet)
or as one JSON document for CI and editors (docs/report.schema.json). Pure functions of a
BuildReport; the command line (cli.py) prints what they return.

The text report puts what needs the author's eye last, where it lands: the per-topic
lines, then the warnings grouped by kind (code) with a count and their first places, then
every error in full, then a one-line verdict. A bank of thousands of questions without
explanations gives one line per file, not one per question (docs/diagnostics.md).
"""

from __future__ import annotations

import enum
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Iterable

from nca_anki import __version__
from nca_anki.codes import CODES
from nca_anki.diagnostics import Diagnostic
from nca_anki.report import BuildReport, FileStatus

if TYPE_CHECKING:
    from pathlib import Path

    from nca_anki.importing.run import Imported

JSON_FORMAT = "nca-anki-report-1"
IMPORT_JSON_FORMAT = "nca-anki-import-1"
FILES_SHOWN = 3  # per kind of warning, in the grouped report
LINES_SHOWN = 8  # per file, in the grouped report


class Mode(enum.StrEnum):
    GROUPED = "grouped"  # the default
    ALL = "all"  # --warnings=all: every warning on its own line
    QUIET = "quiet"  # --quiet: errors and the verdict only


@dataclass(frozen=True)
class Text:
    """The text report: ``summary`` (stdout: what was built) and ``problems`` (stderr: the
    warnings, the errors, the verdict), printed in that order."""

    summary: tuple[str, ...]
    problems: tuple[str, ...]


def text(report: BuildReport, mode: Mode, *, checking: bool = False,
         previewing: bool = False) -> Text:
    """The report of a build, or with ``checking`` of --check/--verify, or with
    ``previewing`` of --preview (its outputs are the site's pages)."""
    summary = () if mode is Mode.QUIET else tuple(
        _preview_summary(report) if previewing else _summary(report))
    warnings = [d for d in report.diagnostics if not d.is_error]
    errors = [d for d in report.diagnostics if d.is_error]
    lines: list[str] = []
    if mode is Mode.ALL:
        lines += [str(d) + _ack_hint(d) for d in warnings]
    elif mode is Mode.GROUPED and warnings:
        lines += grouped(warnings)
    if errors:
        if lines:  # below warnings: a heading, so the errors stand apart
            lines.append(f"{_count(len(errors), 'error')}:")
        lines += [str(d) for d in errors]
    folded = mode is Mode.GROUPED and len(warnings) > len({d.code for d in warnings})
    said = verdict(report, checking=checking, previewing=previewing)
    lines.append(said + ("; --warnings=all lists each" if folded else ""))
    return Text(summary, tuple(lines))


def _summary(report: BuildReport) -> Iterable[str]:
    if report.templates_changed and any(t.status is not FileStatus.FAILED
                                        for t in report.topics):
        yield "card templates changed: the decks carry the new layout"
    for topic in report.topics:
        if topic.status is FileStatus.FAILED:
            yield f"{topic.deck_name}: {topic.status}; {topic.output} left as it was"
            continue
        counts = ", ".join(f"{n} {label}" for n, label in ((topic.new, "new"),
                           (topic.changed, "changed"), (topic.unchanged, "unchanged")) if n)
        noun = "question" if topic.questions == 1 else "questions"
        yield (f"{topic.deck_name}: {topic.questions} {noun} ({counts}) -> "
               f"{topic.output} {topic.status}")
    for status in (FileStatus.WRITTEN, FileStatus.WOULD_WRITE):
        files = [path for path, said in report.index if said == status]
        if files:
            yield f"index and bundle: {', '.join(files)} {status}"


def _preview_summary(report: BuildReport) -> Iterable[str]:
    for topic in report.topics:
        if topic.status is FileStatus.FAILED:
            yield f"{topic.deck_name}: failed; not in the preview"
            continue
        noun = "question" if topic.questions == 1 else "questions"
        yield f"{topic.deck_name}: {topic.questions} {noun} -> {topic.output} {topic.status}"
    for path, status in report.index:
        yield f"preview: {path} {status}; open it in a browser"


def grouped(warnings: list[Diagnostic]) -> list[str]:
    """The warnings by kind, the most frequent first: a kind seen once is shown in full;
    a kind seen more often as a heading with its count, then its first files, one line
    each with the lines it was found at."""
    by_code: dict[str, list[Diagnostic]] = defaultdict(list)
    for d in warnings:
        by_code[d.code].append(d)
    kinds = sorted(by_code.items(), key=lambda item: (-len(item[1]), item[0]))
    lines = []
    for code, found in kinds:
        if len(found) == 1:
            lines.append(str(found[0]))
            continue
        lines.append(f"warning[{code}] {CODES[code].title}, {_count(len(found), 'time')}:")
        by_path: dict[str, list[int]] = defaultdict(list)
        for d in found:
            by_path[d.path].append(d.line)
        for path, at in list(by_path.items())[:FILES_SHOWN]:
            shown = sorted({n for n in at if n > 0})
            more = len(shown) - LINES_SHOWN
            where = ",".join(str(n) for n in shown[:LINES_SHOWN]) + (
                f" and {more} more" if more > 0 else "")
            lines.append(f"  {path}:{where}" if where else f"  {path}")
        rest = list(by_path)[FILES_SHOWN:]
        if rest:
            hidden = sum(len(by_path[p]) for p in rest)
            lines.append(f"  and {hidden} more in {_count(len(rest), 'other file')}")
    return lines


def _ack_hint(d: Diagnostic) -> str:
    """Where a warning can be acknowledged, what to write (docs/authors.md,
    "Acknowledging a judged warning")."""
    return f" [question {d.question}]" if d.question else ""


def verdict(report: BuildReport, *, checking: bool = False, previewing: bool = False) -> str:
    """One line: did the build succeed, what it made, how many problems."""
    errors = sum(d.is_error for d in report.diagnostics)
    warnings = len(report.diagnostics) - errors
    decks = len(report.topics)
    failed = sum(t.status is FileStatus.FAILED for t in report.topics)
    questions = sum(t.questions for t in report.topics if t.status is not FileStatus.FAILED)
    counts = f"{_count(errors, 'error')}, {_count(warnings, 'warning')}"
    if report.acknowledged:
        counts += f" ({report.acknowledged} acknowledged, not shown)"
    if report.strict_failed:
        written = "" if checking else "; nothing written"
        return (f"failed (--strict): {counts}{written}. Fix the warnings, or acknowledge "
                "judged ones in nca-anki.toml")
    if errors:
        kept = "" if not failed else \
            f"; {failed} of {_count(decks, 'deck')} not in the preview" if previewing else \
            f"; {failed} of {_count(decks, 'deck')} not built, left as they were"
        return f"failed: {counts}{kept}"
    done = "previewed" if previewing else "checked" if checking else "built"
    return f"{done} {_count(decks, 'deck')}, {_count(questions, 'question')}: {counts}"


def unchecked(report: BuildReport) -> frozenset[str]:
    """The question files whose warnings ``report`` cannot tell: those of a topic that
    failed (a topic with errors is not linted)."""
    return frozenset(path for t in report.topics if t.status is FileStatus.FAILED
                     for path in t.sources)


def known(before: Iterable[Diagnostic], report: BuildReport) -> tuple[Diagnostic, ...]:
    """For --watch: the problems known after ``report``: its own, and for the files it
    could not check, the warnings known before (a build that fails a topic on a broken
    header says nothing of the warnings of its files; they are still there)."""
    blind, said = unchecked(report), set(report.diagnostics)
    return (*report.diagnostics,
            *(d for d in before if not d.is_error and d not in said
              and _about(d.path, d.message, blind)))


def _about(path: str, message: str, files: frozenset[str]) -> bool:
    """Whether a warning at ``path`` saying ``message`` is about one of ``files``: at it,
    or naming it (a duplicate across topics names the other question's file)."""
    return path in files or any(f in message for f in files)


def changes(before: Iterable[Diagnostic], after: Iterable[Diagnostic],
            blind: frozenset[str] = frozenset()) -> list[str]:
    """For --watch: what the rebuild changed in the report, before the report itself. A
    problem is the same if its code, file and message are (its line may have moved).
    Warnings of the files in ``blind`` (unchecked) are not counted as gone."""
    def key(d: Diagnostic) -> tuple[str, str, str]:
        return d.code, d.path, d.message

    old = Counter(key(d) for d in before)
    new_ones = []
    for d in after:
        if old[key(d)] > 0:
            old[key(d)] -= 1
        else:
            new_ones.append(d)
    gone = sum(count for (code, path, message), count in old.items()
               if code.startswith("E") or not _about(path, message, blind))
    if not new_ones and not gone:
        return ["since the last build: no new problems, none fixed"]
    said = [f"{_count(len(new_ones), 'new problem')}"] if new_ones else []
    if gone:
        said.append(f"{gone} no longer reported")
    return [f"since the last build: {', '.join(said)}", *(f"  new: {d}" for d in new_ones)]


def as_json(report: BuildReport, *, mode: str, stale: Iterable[str] = ()) -> dict[str, object]:
    """The whole report as plain data; docs/report.schema.json describes it."""
    errors = sum(d.is_error for d in report.diagnostics)
    stale = list(stale)
    return {
        "format": JSON_FORMAT,
        "version": __version__,
        "mode": mode,
        "ok": report.ok and not report.strict_failed and not stale,
        "counts": {
            "topics": len(report.topics),
            # As the verdict counts them: a failed topic's questions were not built.
            "questions": sum(t.questions for t in report.topics
                             if t.status is not FileStatus.FAILED),
            "failed": sum(t.status is FileStatus.FAILED for t in report.topics),
            "errors": errors,
            "warnings": len(report.diagnostics) - errors,
            "acknowledged": report.acknowledged,
        },
        "topics": [{"deck": t.deck_name, "file": t.output, "status": str(t.status),
                    "questions": t.questions, "new": t.new, "changed": t.changed,
                    "unchanged": t.unchanged} for t in report.topics],
        "files": [{"file": path, "status": str(status)} for path, status in report.index],
        "stale": stale,
        "strict_failed": report.strict_failed,
        "diagnostics": [{"code": d.code, "severity": d.severity.value,
                         "kind": CODES[d.code].title, "path": d.path, "line": d.line,
                         "message": d.message, "question": d.question or None}
                        for d in report.diagnostics],
    }


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def stale(report: BuildReport, lock: str) -> list[str]:
    """--verify: what is not what the sources build (the published decks, the lock
    ``lock``, the index files), one line each; none if all is."""
    found: dict[str, list[str]] = {}
    for topic in report.topics:
        if topic.status is FileStatus.WOULD_WRITE:
            found.setdefault(topic.deck_name, []).append(topic.output)
    for deck in report.stale_lock_decks:
        found.setdefault(deck, []).append(f"its entries in {lock}" if deck else lock)
    lines = [f"topic {deck!r}: {' and '.join(what)}" if deck else what[0]
             for deck, what in sorted(found.items())]
    return lines + list(report.stale_files)


def verified(stale_lines: list[str], out: str, lock: str) -> list[str]:
    """--verify's verdict, naming what is stale (``stale``), or that nothing is."""
    if not stale_lines:
        return [f"verified: {out} and {lock} are what the sources build"]
    return [f"stale: not what the sources build ({len(stale_lines)}):",
            *(f"  {line}" for line in stale_lines),
            f"Rebuild (python build_decks.py, with the same folder options), delete any deck "
            f"no topic builds, then commit {out}/ and {lock}."]


def imported_files(imported: Imported, out: Path) -> list[str]:
    """``import``: one line for each question file written."""
    return [f"{(out / part.name).as_posix()}: {part.topic}, part {part.part}, "
            f"{_count(part.questions, 'question')}" for part in imported.written]


def import_problems(imported: Imported, out: Path) -> list[str]:
    """``import``: how each structured bank was read, the warnings grouped by kind, the
    errors (a kind seen often: its first ERRORS_SHOWN in full, then where the rest are),
    then the summary: questions read, converted and refused, by reason."""
    # How each structured bank was read is said in full: the author checks it.
    said = [str(d) for d in imported.problems if d.code == "W704"]
    if imported.settings:  # which settings file was used, what of it, and one written
        said.insert(0, imported.settings)
    warnings = [d for d in imported.problems if not d.is_error and d.code != "W704"]
    errors = [d for d in imported.problems if d.is_error]
    lines = said + grouped(warnings)
    if errors and lines:
        lines.append(f"{_count(len(errors), 'error')}:")
    lines += _grouped_errors(errors)
    counts = (f"{_count(len(errors), 'error')}, "
              f"{_count(len(warnings) + len(said) - bool(imported.settings), 'warning')}")
    refused = _refused(imported)
    written = imported.written
    read = (f"read {_count(imported.read, 'question')} in {_count(imported.inputs, 'file')}: ")
    if written:
        lines.append(f"{read}{sum(p.questions for p in written)} converted"
                     f"{', ' + refused if refused else ''}; wrote "
                     f"{_count(len(written), 'file')} in {out.as_posix()}: {counts}")
    else:
        lines.append(f"{read}nothing written{', ' + refused if refused else ''}: {counts}")
    return lines


ERRORS_SHOWN = 5  # of one kind of error, in full; the rest by place (--json: every one)


def _grouped_errors(errors: list[Diagnostic]) -> list[str]:
    """Every error in order, but of a kind seen more than ERRORS_SHOWN times only the
    first ERRORS_SHOWN; then, for each such kind, where the rest are."""
    shown: Counter[str] = Counter()
    rest: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    lines = []
    for d in errors:
        shown[d.code] += 1
        if shown[d.code] <= ERRORS_SHOWN:
            lines.append(str(d))
        else:
            rest[d.code][d.path].append(d.line)
    for code, by_path in rest.items():
        places = "; ".join(
            f"{path}:{','.join(str(n) for n in at[:LINES_SHOWN])}"
            + (f" and {len(at) - LINES_SHOWN} more" if len(at) > LINES_SHOWN else "")
            for path, at in list(by_path.items())[:FILES_SHOWN])
        more = sum(len(at) for at in by_path.values())
        lines.append(f"  and {more} more error[{code}] ({CODES[code].title}) at {places}"
                     f"{' …' if len(by_path) > FILES_SHOWN else ''} (--json lists each)")
    return lines


def _refused(imported: Imported) -> str:
    """"2 refused (no correct answer ×1, not multiple choice ×1)": the questions left out,
    by reason, the most frequent first; "" if none."""
    reasons = Counter(CODES[d.code].title for d in imported.refusals)
    if not reasons:
        return ""
    return f"{sum(reasons.values())} refused (" + ", ".join(
        f"{reason} ×{n}" for reason, n in sorted(reasons.items(), key=lambda r: (-r[1], r[0]))
    ) + ")"


def import_json(imported: Imported, out: Path) -> dict[str, object]:
    """``import --json``: the whole outcome as plain data (docs/import.schema.json)."""
    errors = sum(d.is_error for d in imported.problems)
    return {
        "format": IMPORT_JSON_FORMAT,
        "version": __version__,
        "ok": not errors and bool(imported.written),
        "counts": {"inputs": imported.inputs, "read": imported.read,
                   "converted": sum(p.questions for p in imported.written),
                   "refused": imported.not_converted, "errors": errors,
                   "warnings": len(imported.problems) - errors},
        "files": [{"file": (out / p.name).as_posix(), "topic": p.topic, "part": p.part,
                   "questions": p.questions} for p in imported.written],
        "diagnostics": [{"code": d.code, "severity": d.severity.value,
                         "kind": CODES[d.code].title, "path": d.path, "line": d.line,
                         "message": d.message} for d in imported.problems],
        "settings": {"said": imported.settings,
                     "read_as": [{"file": one.path.as_posix(), "from": one.form,
                                  "map": dict(one.map), "topic": one.topic}
                                 for one in imported.read_as]},
    }


def internal_error(exc: BaseException, *, nothing_changed: bool = False) -> str:
    """The one line (and a request) a bug of ours prints instead of a traceback."""
    return (f"nca-anki: internal error: {type(exc).__name__}: {exc}\n"
            + ("No output was changed. " if nothing_changed else "")
            + "Please report this with the command you ran.")
