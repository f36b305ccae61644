"""Command line: parse arguments, run ``build``, print the report, set the exit status.

Exit status: 0 built (warnings allowed), 1 errors in the input (or an output that could
not be written), 2 usage errors, 3 a bug of ours. Nothing here raises to the user: no
tracebacks, not even for Ctrl-C while the libraries load (the pipeline is imported inside
``main``) or for a terminal that cannot show a deck's name.

A rebuild with nothing changed is answered from the cache before the pipeline is even
loaded (replay.py). ``--watch`` keeps the process, and so the loaded libraries, and
rebuilds after each change to the inputs (watch.py). A build that runs longer than about
two seconds shows a progress bar on a terminal (tqdm, on stderr; nothing when the output
is not a terminal), then the per-topic summary.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO
from collections.abc import Sequence

from nca_anki import __version__, reporting
from nca_anki.files import CACHE_ENV, CACHE_FOLDER
from nca_anki.report import FileStatus
from nca_anki.watch import changed_files, snapshot, wait_for_change

if TYPE_CHECKING:
    from nca_anki.report import BuildReport

PROGRESS_AFTER_SECONDS = 2.0  # a quicker build shows no progress bar at all


_EXIT_CODES = """exit status:
  0    built (or, with --check/--verify, nothing to rebuild)
  1    errors in the input, a stale output (--verify), an output not written,
       or warnings about the sources with --strict
  2    usage error: a bad option, or an unusable --source, --templates or --out
  3    a bug of ours, reported in one line, without a traceback
  130  interrupted (Ctrl-C): nothing half-written is left behind"""


def _parser(prog: str) -> argparse.ArgumentParser:
    """The options, one line of help each (docs/authors.md, "Building", says more)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Build one Anki deck (.apkg) per topic from the question files in SOURCE."
                    f"\n\n{prog} import --from FORMAT INPUT... --out DIR converts a bank in "
                    f"another format\ninto question files ({prog} import -h).",
        epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the version and exit")
    parser.add_argument("--source", default="source", metavar="DIR",
                        help="question files, settings and lock (default: source)")
    parser.add_argument("--templates", default="templates", metavar="DIR",
                        help="card templates and CSS (default: templates)")
    parser.add_argument("--out", default="dist", metavar="DIR",
                        help="where the .apkg files go (default: dist)")
    parser.add_argument("--check", action="store_true",
                        help="validate and report; write nothing")
    parser.add_argument("--verify", action="store_true",
                        help="exit 1 if --out or the lock is stale; write nothing")
    parser.add_argument("--release", metavar="DIR",
                        help="verify, then copy versioned decks and SHA256SUMS to DIR")
    parser.add_argument("--preview", metavar="DIR",
                        help="write every card as a web page to DIR, not the decks")
    parser.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                        help="processes to build with (default: by size and cores)")
    parser.add_argument("--cache-dir", metavar="DIR", default=None,
                        help=f"cache folder (${CACHE_ENV}, else {CACHE_FOLDER})")
    parser.add_argument("--no-cache", action="store_true",
                        help="build from scratch; read and write no cache")
    parser.add_argument("--watch", action="store_true",
                        help="rebuild on every saved change, until Ctrl-C")
    parser.add_argument("--warnings", choices=("grouped", "all"), default="grouped",
                        metavar="HOW", help="grouped (by kind: the default) or all")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="print only the errors and the verdict")
    parser.add_argument("--strict", action="store_true",
                        help="fail on warnings about the sources; write nothing")
    parser.add_argument("--json", action="store_true",
                        help="print the report as one JSON document on stdout")
    return parser


def program_name(argv0: str) -> str:
    """The command as the user ran it, for usage lines: ``build_decks.py``, ``nca-anki``."""
    name = os.path.basename(argv0)
    return "nca-anki" if name in ("", "__main__.py", "cli.py", "-c") else name


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value!r}")
    return int(value)


class _ProgressBars:
    """One tqdm bar per build stage, on stderr, shown only once the build has run for
    ``PROGRESS_AFTER_SECONDS`` and only on a terminal; each clears itself when done."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.monotonic()
        isatty = getattr(stream, "isatty", None)
        self.enabled = bool(isatty and isatty())
        self.bar: Any = None

    def start(self, stage: str, total: int) -> None:
        self.close()
        if not self.enabled:
            return
        import tqdm  # only on a terminal: not worth loading otherwise

        tqdm.tqdm.monitor_interval = 0  # no monitor thread: the build forks workers
        waited = time.monotonic() - self.started
        self.bar = tqdm.tqdm(total=total, desc=stage, unit=" questions", file=self.stream,
                             leave=False, dynamic_ncols=True,
                             delay=max(0.0, PROGRESS_AFTER_SECONDS - waited))

    def advance(self, done: int) -> None:
        if self.bar is not None:
            self.bar.update(done)

    def note(self, message: str) -> None:
        self.close()
        print(message, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _folder_problems(args: argparse.Namespace) -> list[str]:
    """Usage errors in the folder arguments, each as a line to print. An empty value (an
    unset shell variable) would otherwise mean the current folder."""
    problems = []
    for flag, value, must_exist in (("--source", args.source, True),
                                    ("--templates", args.templates, True),
                                    ("--out", args.out, False),
                                    *((("--release", args.release, False),)
                                      if args.release is not None else ()),
                                    *((("--preview", args.preview, False),)
                                      if args.preview is not None else ()),
                                    *((("--cache-dir", args.cache_dir, False),)
                                      if args.cache_dir is not None else ())):
        path = Path(value)
        if not value.strip():
            problems.append(f"{flag}: error: {flag} is empty; name a folder (is a shell "
                            "variable unset?)")
        elif path.exists() and not path.is_dir():
            problems.append(f"{value}: error: {flag} names a file, not a folder; pass "
                            f"{flag} DIR")
        elif must_exist and not path.exists():
            what = flag.removeprefix("--")
            problems.append(f"{value}: error: {what} folder not found; run from the project "
                            f"folder or pass {flag} DIR")
    cache, flag = _cache_folder(args)
    if cache is None or not str(cache).strip():
        pass  # no cache, or an empty --cache-dir (said above)
    elif cache.exists() and not cache.is_dir():
        if flag != "--cache-dir":  # that one is said above
            problems.append(f"{cache}: error: {flag} names a file, not a folder; name a "
                            "folder for the build cache")
    else:
        # Not among what is published, nor among what the build reads (a cache in the
        # templates would change their hash with every build).
        for other, value in (("--out", args.out), ("--source", args.source),
                             ("--templates", args.templates)):
            folder = Path(value).resolve() if value.strip() else None
            if folder is not None and (cache.resolve() == folder
                                       or folder in cache.resolve().parents):
                problems.append(f"{cache}: error: {flag} is inside {other} ({value}); name "
                                "a folder for the build cache outside it")
    # What a build writes must not be among what it reads: --watch would rebuild after
    # its own every write, and a release would land among the templates.
    for flag, value in (("--out", args.out), ("--release", args.release),
                        ("--preview", args.preview)):
        if value is None or not value.strip():
            continue
        written = Path(value).resolve()
        for other, given in (("--source", args.source), ("--templates", args.templates),
                             *((("--out", args.out),) if flag != "--out" else ())):
            folder = Path(given).resolve() if given.strip() else None
            if folder is not None and (written == folder or folder in written.parents):
                problems.append(f"{value}: error: {flag} is inside {other} ({given}); name "
                                "a folder outside it")
    return problems


def _cache_folder(args: argparse.Namespace) -> tuple[Path | None, str]:
    """The build cache's folder and what named it: --cache-dir, else the environment
    variable (an empty one counts as unset), else the default in the current folder;
    None with --no-cache."""
    if args.no_cache:
        return None, "--no-cache"
    if args.cache_dir is not None:
        return Path(args.cache_dir), "--cache-dir"
    value = os.environ.get(CACHE_ENV, "")
    if value.strip():
        return Path(value), CACHE_ENV
    return Path(CACHE_FOLDER), "the default cache folder"


# SOURCE_DATE_EPOCH is seconds since 1970; past this (the year 2286) it is not a time a
# deck can carry: most likely milliseconds, which would date every note in the year 58000
# and outlive every learner's own edit of it (docs/anki-import.md).
_LATEST_EPOCH = 9_999_999_999


def _epoch_problem() -> str | None:
    """Why SOURCE_DATE_EPOCH cannot be used, or None if it is unset or good. The
    reproducible-builds spec says a malformed value must fail the build, not be ignored."""
    value = os.environ.get("SOURCE_DATE_EPOCH")
    if value is None or value == "":
        return None
    advice = "set it to whole seconds since 1970 (as `git log -1 --format=%ct` gives) or unset it"
    if not (value.isascii() and value.isdigit()):
        return f"SOURCE_DATE_EPOCH: error: {value!r} is not a number of seconds; {advice}"
    if int(value) > _LATEST_EPOCH:
        return (f"SOURCE_DATE_EPOCH: error: {value} is after the year 2286 (milliseconds?); "
                f"{advice}")
    return None


def _clock() -> tuple[int, bool]:
    """The build's time, and whether it is this machine's real clock: SOURCE_DATE_EPOCH
    (reproducible builds) when it is set (checked by _epoch_problem), else the clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    return (int(epoch), False) if epoch else (int(time.time()), True)


def _cores() -> int:
    """The cores this process may use (a container's share, on Linux)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _wait_until(moment: int) -> None:
    """Return once ``moment`` (a build's newest note time, BuildReport.newest) is past."""
    delay = moment - time.time()
    if 0 < delay <= 2:
        time.sleep(delay)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off for the build, back as it was after. A build makes
    hundreds of thousands of objects that live until it ends and form no cycles that
    matter, and the collector scanned them again and again: a tenth of a full build's
    time (docs/speed.md). Frozen objects are also never touched by it in the forked
    workers, so their memory stays shared with the parent (copy-on-write)."""
    enabled = gc.isenabled()
    gc.disable()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if enabled:
            gc.enable()


def _tolerant_output() -> None:
    """Print what a terminal cannot encode as escapes instead of failing after the build
    (a deck name with a dash on an ASCII or legacy Windows console)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError):
            pass  # not a text stream we own (a test's capture, say): leave it


def main(argv: Sequence[str] | None = None, prog: str = "build_decks.py") -> int:
    """Run the command with ``argv`` (without the program); ``prog`` names it in usage
    and ``--version`` (``run`` passes the name it was started by)."""
    _tolerant_output()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["import"]:
        return _import(argv[1:], prog)
    try:
        args = _parser(prog).parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help
        return int(exc.code or 0)
    problems = _folder_problems(args)
    epoch = _epoch_problem()
    if epoch is not None:
        problems.append(epoch)
    if args.watch and (args.check or args.verify or args.release is not None):
        problems.append("--watch: error: --watch builds and writes; it cannot be combined "
                        "with --check, --verify or --release")
    if args.preview is not None and (args.check or args.verify or args.release is not None):
        problems.append("--preview: error: --preview writes the preview site, not the decks; "
                        "it cannot be combined with --check, --verify or --release")
    if args.json and (args.watch or args.release is not None):
        problems.append("--json: error: --json prints one report for one build; it cannot "
                        "be combined with --watch or --release")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if args.watch:
        return _watch(args)
    verify = args.verify or args.release is not None
    # --verify always checks in full: it is what CI trusts, and a replayed report carries
    # no record of what is stale. --strict too: a replayed build wrote nothing to stop.
    outcome = _run(args, check=verify, replayed=not verify and not args.strict
                   and args.preview is None)
    if isinstance(outcome, int):
        return outcome
    stale = _stale(outcome, args) if verify else []
    if args.json:
        mode = "verify" if verify else "check" if args.check else \
            "preview" if args.preview is not None else "build"
        print(json.dumps(reporting.as_json(outcome, mode=mode, stale=stale), indent=1,
                         ensure_ascii=False))
        return 0 if outcome.ok and not stale else 1
    _print_report(outcome, args, checking=verify or args.check)
    if verify:
        status = _print_stale(stale, args, sys.stderr) or (0 if outcome.ok else 1)
        if args.release is None or status:
            if args.release is not None:
                print("release: not made (nothing written); fix the above first", file=sys.stderr)
            return status
        from nca_anki.publishing.release import release

        released = release(Path(args.out), Path(args.release))
        for path in released.files:
            print(f"released: {path}")
        if released.problem:
            print(f"release: error: {released.problem}", file=sys.stderr)
            return 1
        return 0
    return 0 if outcome.ok else 1


def _run(args: argparse.Namespace, *, check: bool, replayed: bool) -> BuildReport | int:
    """One build (answered from the no-op replay where ``replayed`` allows), with progress
    bars; or the exit status when it was interrupted or hit a bug of ours."""
    progress = _ProgressBars(sys.stderr)
    try:
        from nca_anki.caching.replay import replay
        from nca_anki.report import BuildOptions

        now, real_clock = _clock()
        preview = Path(args.preview) if args.preview is not None else None
        options = BuildOptions(Path(args.source), Path(args.templates), Path(args.out),
                               now=now, check=args.check or check or preview is not None,
                               jobs=args.jobs, cores=_cores(), cache=_cache_folder(args)[0],
                               strict=args.strict, preview=preview)
        report = replay(options) if replayed else None
        if report is None:
            from nca_anki.build import build  # heavy imports, inside the Ctrl-C guard

            with _collector_paused():
                report = build(options, progress)
            if real_clock:
                _wait_until(report.newest)
    except KeyboardInterrupt:
        progress.close()
        print("interrupted; nothing half-written was left behind", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug of ours: say so plainly, without a traceback
        progress.close()
        print(f"nca-anki: internal error: {type(exc).__name__}: {exc}\n"
              "No output was changed. Please report this with the command you ran.",
              file=sys.stderr)
        return 3
    progress.close()
    return report


def _print_report(report: BuildReport, args: argparse.Namespace, *,
                  checking: bool = False) -> None:
    """The text report (reporting.py): what was built on stdout, then the warnings, the
    errors and the verdict on stderr, where the eye lands last."""
    mode = reporting.Mode.QUIET if args.quiet else reporting.Mode(args.warnings)
    shown = reporting.text(report, mode, checking=checking,
                           previewing=args.preview is not None)
    for line in shown.summary:
        print(line)
    sys.stdout.flush()
    for line in shown.problems:
        print(line, file=sys.stderr)
    sys.stderr.flush()


def _watch(args: argparse.Namespace) -> int:
    """Build, then rebuild after each change to the inputs (watch.py), in this process, so
    the libraries are loaded once. A build with errors is reported and the watch goes on:
    the author fixes the file and saves again. Ctrl-C, or the SIGTERM of a service manager
    or `timeout`, ends it at any moment with exit status 0 and no traceback: between
    builds the last build is complete, and a build it interrupts publishes nothing
    (transaction.py). A bug of ours ends it as it ends any build (exit 3)."""
    stop = _StopOnce()
    previous: dict[signal.Signals, Any] = {}
    try:
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, stop)
        status = _watch_loop(args)
    except KeyboardInterrupt:
        status = 130
    finally:
        stop.stopping = True  # a second signal while it ends is not another interrupt
        for number, handler in previous.items():
            signal.signal(number, handler)
    if status == 130:  # interrupted, between builds or in one
        with contextlib.suppress(OSError, ValueError):
            print("stopped watching", file=sys.stderr, flush=True)
        return 0
    return status


class _StopOnce:
    """A signal handler that interrupts (KeyboardInterrupt) once; a signal that arrives
    while the watch is already stopping is ignored, so none escapes as a traceback."""

    def __init__(self) -> None:
        self.stopping = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.stopping:
            self.stopping = True
            raise KeyboardInterrupt


def _watch_loop(args: argparse.Namespace) -> int:
    """The watch's builds and waits; 130 once interrupted (any moment), 3 on a bug. Each
    rebuild says first what changed in the report since the last, and its report ends
    with the errors and the verdict, the last lines on the screen while the watch waits."""
    source, templates = Path(args.source), Path(args.templates)
    print(f"watching {source.as_posix()} and {templates.as_posix()}: each saved change is "
          "rebuilt; Ctrl-C to stop", file=sys.stderr, flush=True)
    seen = snapshot(source, templates)
    replayed = not args.strict and args.preview is None
    outcome = _run(args, check=False, replayed=replayed)
    before: BuildReport | None = None
    while not isinstance(outcome, int):
        if before is not None:
            for line in reporting.changes(before.diagnostics, outcome.diagnostics):
                print(line, file=sys.stderr)
        _print_report(outcome, args)
        before = outcome
        current = wait_for_change(seen, source, templates)
        changed = changed_files(seen, current)
        named = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more"
                                          if len(changed) > 3 else "")
        print(f"\n{time.strftime('%H:%M:%S')} changed: {named}; rebuilding",
              file=sys.stderr, flush=True)
        seen = current
        outcome = _run(args, check=False, replayed=replayed)
    return outcome


def _stale(report: BuildReport, args: argparse.Namespace) -> list[str]:
    """--verify: what is not what the sources build (the published decks, the lock, the
    index files), one line each; none if all is."""
    lock = Path(args.source, "nca-anki.lock").as_posix()
    stale: dict[str, list[str]] = {}
    for topic in report.topics:
        if topic.status is FileStatus.WOULD_WRITE:
            stale.setdefault(topic.deck_name, []).append(topic.output)
    for deck in report.stale_lock_decks:
        stale.setdefault(deck, []).append(f"its entries in {lock}" if deck else lock)
    lines = [f"topic {deck!r}: {' and '.join(what)}" if deck else what[0]
             for deck, what in sorted(stale.items())]
    return lines + list(report.stale_files)


def _print_stale(lines: list[str], args: argparse.Namespace, out: TextIO) -> int:
    """--verify's verdict: 1, naming what is stale, else 0."""
    lock = Path(args.source, "nca-anki.lock").as_posix()
    if not lines:
        print(f"verified: {args.out} and {lock} are what the sources build", file=out)
        return 0
    print(f"stale: not what the sources build ({len(lines)}):", file=out)
    for line in lines:
        print(f"  {line}", file=out)
    print(f"Rebuild (python build_decks.py, with the same folder options), delete any deck "
          f"no topic builds, then commit {args.out}/ and {lock}.", file=out)
    return 1


_IMPORT_EXIT_CODES = """exit status:
  0    every question converted and written
  1    something not converted (each is named), or nothing written
  2    usage error
  3    a bug of ours, reported in one line, without a traceback"""
FORMATS = ("markdown", "json", "typescript", "aiken", "gift")


def _import_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"{prog} import",
        description="Convert question banks in another format into question files in this "
                    "project's format, one per topic part (docs/importing.md).",
        epilog=_IMPORT_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="the files to convert")
    parser.add_argument("--from", dest="format", required=True, choices=FORMATS,
                        metavar="FORMAT", help=f"their format: {', '.join(FORMATS)}")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="where the question files go (source, or a new folder)")
    parser.add_argument("--topic", metavar="NAME",
                        help="one topic for all inputs (default: each input's own title)")
    return parser


def _import(argv: list[str], prog: str) -> int:
    """``import``: read each input, convert (importing/convert.py), write the files; never
    over a file that is there. Every question not converted is reported at its place."""
    try:
        args = _import_parser(prog).parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    out = Path(args.out)
    if not args.out.strip() or (out.exists() and not out.is_dir()):
        print(f"{args.out}: error: --out must name a folder", file=sys.stderr)
        return 2
    if args.topic is not None and not args.topic.strip():
        print("--topic: error: --topic is empty; name the topic", file=sys.stderr)
        return 2
    try:
        return _imported(args, out)
    except KeyboardInterrupt:
        print("interrupted; each file written is whole", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug of ours: say so plainly, without a traceback
        print(f"nca-anki: internal error: {type(exc).__name__}: {exc}\n"
              "Please report this with the command you ran.", file=sys.stderr)
        return 3


def _imported(args: argparse.Namespace, out: Path) -> int:
    import importlib

    from nca_anki import diagnostics as diag
    from nca_anki.importing.bank import Reading
    from nca_anki.importing.convert import convert
    from nca_anki.publishing.output import WriteError, write_atomic
    from nca_anki.reading.decode import decode_source

    reader = importlib.import_module(
        f"nca_anki.importing.{'json_bank' if args.format == 'json' else args.format}")
    readings = []
    for given in args.inputs:
        shown = Path(given).as_posix()
        try:
            data = Path(given).read_bytes()
        except OSError as exc:
            readings.append(Reading((), (diag.error("E701", shown, 0, f"cannot read it: "
                                                    f"{exc.strerror or exc}"),)))
            continue
        decoded = decode_source(data, shown)
        reading = reader.read(decoded.text, shown)
        readings.append(Reading(reading.sections, (*decoded.diagnostics, *reading.problems)))
    result = convert(readings, topic=args.topic, is_file=lambda path: Path(path).is_file())
    problems = list(result.problems)
    images = {target: source for part in result.parts for source, target in part.images}
    taken = [name for name in (*(p.name for p in result.parts), *images)
             if (out / name).exists() and not (name in images and _same_file(
                 Path(images[name]), out / name))]
    for name in taken:
        problems.append(diag.error("E705", (out / name).as_posix(), 0, "is already there; "
                                   "nothing was written: move it away, or import into "
                                   "another folder (--out DIR)"))
    written = []
    if not taken:
        for part in result.parts:
            try:
                for source, target in part.images:
                    write_atomic(out / target, Path(source).read_bytes())
                write_atomic(out / part.name, part.text.encode("utf-8"))
            except OSError as exc:  # an image that went away meanwhile
                problems.append(diag.error("E501", (out / part.name).as_posix(), 0,
                                           f"not written: {exc}"))
                break
            except WriteError as exc:
                problems.append(diag.error("E501", exc.path.as_posix(), 0, exc.reason))
                break
            written.append(part)
            print(f"{(out / part.name).as_posix()}: {part.topic}, part {part.part}, "
                  f"{part.questions} question{'s' if part.questions != 1 else ''}")
    sys.stdout.flush()
    problems = list(diag.sort_diagnostics(problems))
    warnings = [d for d in problems if not d.is_error]
    errors = [d for d in problems if d.is_error]
    lines = reporting.grouped(warnings)
    if errors and lines:
        lines.append(f"{len(errors)} error{'s' if len(errors) != 1 else ''}:")
    lines += [str(d) for d in errors]
    def count(n: int, noun: str) -> str:
        return f"{n} {noun}" if n == 1 else f"{n} {noun}s"

    counts = f"{count(len(errors), 'error')}, {count(len(warnings), 'warning')}"
    # Each question not converted is one error at its place (codes E702-E704).
    lost = sum(d.code in ("E702", "E703", "E704") for d in errors)
    lost_said = f"; {count(lost, 'question')} not converted" if lost else ""
    if written:
        lines.append(f"imported {count(sum(p.questions for p in written), 'question')} into "
                     f"{count(len(written), 'file')} in {out.as_posix()}{lost_said}: {counts}")
    else:
        lines.append(f"failed: nothing written{lost_said}: {counts}")
    for line in lines:
        print(line, file=sys.stderr)
    return 1 if errors or not written else 0


def _same_file(source: Path, target: Path) -> bool:
    """Whether ``target`` already holds ``source``'s bytes (an image imported before)."""
    try:
        return source.read_bytes() == target.read_bytes()
    except OSError:
        return False


def run() -> NoReturn:
    """The command (``build_decks.py``, the ``nca-anki`` script): ``main``, then exit.

    Everything a build made is still referenced when the interpreter shuts down, and its
    shutdown collects cycles several times over every object it tracks: measured after a
    one-prompt edit of the 10,000-question benchmark bank, 0.12-0.17 s from the end of
    ``main`` to the end of the process, against 0.02-0.03 s with the objects frozen out of
    the collector's reach first. Nothing of ours waits for that collection (files are
    closed and workers joined before ``main`` returns), and ``atexit`` handlers and
    module teardown still run. Only the command does this: a caller of ``main`` in its
    own process keeps its collector as it was."""
    status = main(prog=program_name(sys.argv[0]))
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
