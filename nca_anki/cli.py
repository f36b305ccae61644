"""Command line: parse arguments, run ``build``, print the report, set the exit status.

Exit status: 0 built (warnings allowed), 1 errors in the input (or an output that could
not be written), 2 usage errors, 3 a bug of ours, 130 interrupted, 141 the output closed
before the report was all printed (``| head``). Nothing here raises to the user: no
tracebacks, not even for Ctrl-C while the libraries load (the pipeline is imported inside
``main``) or while the report prints, for a terminal that cannot show a deck's name, or
for a reader that stopped reading.

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
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from nca_anki import arguments, edges, reporting
from nca_anki.arguments import program_name
from nca_anki.files import LOCK_NAME
from nca_anki.watch import changed_files, snapshot, wait_for_change

if TYPE_CHECKING:
    from nca_anki.diagnostics import Diagnostic
    from nca_anki.report import BuildReport

__all__ = ["main", "program_name", "run"]


def main(argv: Sequence[str] | None = None, prog: str = "build_decks.py") -> int:
    """Run the command with ``argv`` (without the program); ``prog`` names it in usage
    and ``--version`` (``run`` passes the name it was started by).

    The one place that owns the output: a stdout or stderr closed before everything was
    printed (``| head -1``, ``| true``) ends every command quietly with
    edges.OUTPUT_CLOSED, never a traceback. Only printing is cut short: what a command
    writes to files is written before its report is printed, whole, as it would have
    been (a build publishes, or not, by its own verdict; transaction.py). Likewise a
    Ctrl-C while the report prints, or one that lands in a finalizer, where Python would
    swallow it with a traceback and go on (``_Swallowed``): it ends the command with 130."""
    edges.tolerant_output()
    swallowed = _Swallowed(sys.unraisablehook)
    sys.unraisablehook = swallowed
    try:
        status = _command(list(sys.argv[1:] if argv is None else argv), prog)
        edges.flush_output()
        if swallowed.interrupted and status != 130:
            raise KeyboardInterrupt
    except BrokenPipeError:
        return edges.output_closed()
    except KeyboardInterrupt:  # Ctrl-C while the report prints: whatever was built is whole
        with contextlib.suppress(OSError, ValueError):
            print("interrupted", file=sys.stderr, flush=True)
        return 130
    finally:
        sys.unraisablehook = swallowed.previous
    return status


class _Swallowed:
    """A ``sys.unraisablehook`` that keeps quiet about a KeyboardInterrupt raised where
    Python cannot pass it on (a ``__del__`` or a weak reference's callback, run when a
    last reference goes or by the cycle collector at any allocation) and remembers it;
    anything else goes to ``previous``. The command then ends as interrupted, once what
    it was doing is done (a build is whole either way)."""

    def __init__(self, previous: Callable[[Any], object]) -> None:
        self.previous = previous
        self.interrupted = False

    def __call__(self, info: Any) -> object:
        if info.exc_type is KeyboardInterrupt:
            self.interrupted = True
            return None
        return self.previous(info)


def _command(argv: list[str], prog: str) -> int:
    """The command ``argv`` names, run; its exit status."""
    if argv[:1] == ["import"]:
        return _import(argv[1:], prog)
    if argv[:1] in (["locate"], ["stats"], ["report-form"]):
        from nca_anki import commands

        return commands.run(argv[0], argv[1:], prog)
    try:
        args = arguments.build_parser(prog).parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help
        return int(exc.code or 0)
    problems = arguments.usage_problems(args)
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
    lock = Path(args.source, LOCK_NAME).as_posix()
    stale = reporting.stale(outcome, lock) if verify else []
    if args.json:
        mode = "verify" if verify else "check" if args.check else \
            "preview" if args.preview is not None else "build"
        print(json.dumps(reporting.as_json(outcome, mode=mode, stale=stale), indent=1,
                         ensure_ascii=False))
        return 0 if outcome.ok and not stale else 1
    _print_report(outcome, args, checking=verify or args.check)
    if not verify:
        return 0 if outcome.ok else 1
    print("\n".join(reporting.verified(stale, args.out, lock)), file=sys.stderr)
    status = 1 if stale or not outcome.ok else 0
    if args.release is None:
        return status
    if status:
        print("release: not made (nothing written); fix the above first", file=sys.stderr)
        return status
    return _release(args)


def _release(args: argparse.Namespace) -> int:
    """--release, once --verify passed: copy the versioned decks (publishing/release.py)."""
    from nca_anki.publishing.release import release

    released = release(Path(args.out), Path(args.release))
    for path in released.files:
        print(f"released: {path}")
    if released.problem:
        print(f"release: error: {released.problem}", file=sys.stderr)
        return 1
    return 0


def _run(args: argparse.Namespace, *, check: bool, replayed: bool) -> BuildReport | int:
    """One build (answered from the no-op replay where ``replayed`` allows), with progress
    bars; or the exit status when it was interrupted or hit a bug of ours."""
    progress = edges.ProgressBars(sys.stderr)
    try:
        from nca_anki.caching.replay import replay
        from nca_anki.publishing.sink import ComparingSink, PreviewSink, Sink
        from nca_anki.report import BuildOptions

        now, real_clock = edges.clock()
        # The one place the mode is read: the sink carries it to every stage.
        sink = PreviewSink(folder=Path(args.preview)) if args.preview is not None else \
            ComparingSink() if args.check or check else Sink()
        options = BuildOptions(Path(args.source), Path(args.templates), Path(args.out),
                               now=now, jobs=args.jobs, cores=edges.cores(),
                               scratch=edges.scratch(), cache=arguments.cache_folder(args)[0],
                               strict=args.strict, note_type_change=args.note_type_change)
        report = replay(options, sink) if replayed else None
        if report is None:
            from dataclasses import replace

            # The heavy imports too: inside the Ctrl-C guard, and without the collector
            # (they make tens of thousands of objects that live until the end).
            with edges.collector_paused():
                from nca_anki.build import build

                options = replace(options, committed=edges.committed(
                    options.source, options.templates, options.out),
                    render_key=edges.render_key()
                    if options.cache is not None and sink.keeps_caches else None)
                report = build(options, progress, sink=sink)
            if real_clock:
                edges.wait_until(report.newest)
    except KeyboardInterrupt:
        progress.close()
        print("interrupted; nothing half-written was left behind", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug of ours: say so plainly, without a traceback
        progress.close()
        print(reporting.internal_error(exc, nothing_changed=True), file=sys.stderr)
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
    stop = _Stop()
    previous: dict[signal.Signals, Any] = {}
    unraisable = sys.unraisablehook
    try:
        sys.unraisablehook = stop.unraisable(unraisable)
        for number in (signal.SIGINT, signal.SIGTERM):
            previous[number] = signal.signal(number, stop)
        status = _watch_loop(args, stop)
    except KeyboardInterrupt:
        status = 130
    finally:
        stop.requested = True  # a second signal while it ends is not another interrupt
        for number, handler in previous.items():
            signal.signal(number, handler)
        sys.unraisablehook = unraisable
    if status == 130:  # interrupted, between builds or in one
        with contextlib.suppress(OSError, ValueError):
            print("stopped watching", file=sys.stderr, flush=True)
        return 0
    return status


class _Stop:
    """The watch's handler of SIGINT and SIGTERM. The first signal asks it to stop
    (``requested``) and interrupts what runs (KeyboardInterrupt); a later one is ignored,
    so none escapes as a traceback while it ends.

    A signal can land in a finalizer (a ``__del__`` or a weak reference's callback, run
    when a last reference goes, or by the cycle collector at any allocation: after a
    build, its garbage is collected while the report prints). Python cannot pass an
    exception on from there: it prints "Exception ignored in ..." with a traceback and
    goes on, and the stop would be lost. ``unraisable`` keeps that silent, and ``check``,
    at each step of the watch (a build done, a report printed, each look at the files),
    ends it then."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.requested:
            self.requested = True
            raise KeyboardInterrupt

    def check(self) -> None:
        """Interrupt now if a stop was asked for and swallowed on its way."""
        if self.requested:
            raise KeyboardInterrupt

    def unraisable(self, previous: Callable[[Any], object]) -> Callable[[Any], object]:
        """A ``sys.unraisablehook`` silent about this stop's KeyboardInterrupt, and as
        ``previous`` about anything else."""
        def hook(info: Any) -> object:
            if self.requested and info.exc_type is KeyboardInterrupt:
                return None
            return previous(info)
        return hook


def _watch_loop(args: argparse.Namespace, stop: _Stop) -> int:
    """The watch's builds and waits; 130 once interrupted (any moment), 3 on a bug. Each
    rebuild says first what changed in the report since the last, and its report ends
    with the errors and the verdict, the last lines on the screen while the watch waits."""
    source, templates = Path(args.source), Path(args.templates)
    print(f"watching {source.as_posix()} and {templates.as_posix()}: each saved change is "
          "rebuilt; Ctrl-C to stop", file=sys.stderr, flush=True)
    seen = snapshot(source, templates)
    replayed = not args.strict and args.preview is None
    outcome = _run(args, check=False, replayed=replayed)
    before: tuple[Diagnostic, ...] | None = None  # what the builds so far have found
    while not isinstance(outcome, int):
        stop.check()
        if before is not None:
            for line in reporting.changes(before, outcome.diagnostics,
                                          reporting.unchecked(outcome)):
                print(line, file=sys.stderr)
        _print_report(outcome, args)
        stop.check()
        before = reporting.known(before or (), outcome)
        current = wait_for_change(seen, source, templates, stop.check)
        changed = changed_files(seen, current)
        named = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more"
                                          if len(changed) > 3 else "")
        print(f"\n{time.strftime('%H:%M:%S')} changed: {named}; rebuilding",
              file=sys.stderr, flush=True)
        seen = current
        outcome = _run(args, check=False, replayed=replayed)
    return outcome


def _import(argv: list[str], prog: str) -> int:
    """``import``: read each input, convert (importing/convert.py), write the files; never
    over a file that is there. Every question not converted is reported at its place."""
    try:
        args = arguments.import_parser(prog).parse_args(argv)
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
        from nca_anki.importing.run import import_banks, with_settings_written
        from nca_anki.importing.settings import SettingsProblem

        try:  # the settings file, if any, and where --write-settings writes: found first
            settings, target = import_settings(args)
        except SettingsProblem as problem:
            print(problem.diagnostic, file=sys.stderr)
            return 2
        # Without the collector, as a build runs: an import's objects (every record, its
        # text, the parsed trees) live until it ends and form no cycles that matter, and
        # the collector scanned them again and again, more often the bigger the bank:
        # 100,000 JSON questions took 12x the CPU of 10,000 with it (bench/import_speed.py).
        with edges.collector_paused():
            imported = import_banks(args.inputs, args.format, out, args.topic,
                                    dict(args.map), settings)
        if target is not None:
            imported = with_settings_written(imported, target, _import_command(prog, args))
    except KeyboardInterrupt:
        print("interrupted; each file written is whole", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug of ours: say so plainly, without a traceback
        print(reporting.internal_error(exc), file=sys.stderr)
        return 3
    if args.json:
        print(json.dumps(reporting.import_json(imported, out), indent=1, ensure_ascii=False))
    else:
        for line in reporting.imported_files(imported, out):
            print(line)
        sys.stdout.flush()
        for line in reporting.import_problems(imported, out):
            print(line, file=sys.stderr)
    return 1 if any(d.is_error for d in imported.problems) or not imported.written else 0


def import_settings(args: argparse.Namespace) -> tuple[Any, Path | None]:
    """``import``'s settings file (--settings FILE, else the one beside the bank unless
    --no-settings) and where --write-settings writes (None: it was not given);
    SettingsProblem if either cannot be used."""
    from nca_anki.importing import settings
    from nca_anki.importing.readers import names

    target = settings.write_target(args.inputs) if args.write_settings else None
    if args.no_settings:
        return None, target
    path = Path(args.settings) if args.settings is not None else settings.beside(args.inputs)
    if path is None:
        return None, target
    return settings.load(path, names(), named=args.settings is not None), target


def _import_command(prog: str, args: argparse.Namespace) -> str:
    """The command that imports the bank again with the settings written (they hold what
    --from, --map and --topic said)."""
    import shlex

    return shlex.join([prog, "import", *args.inputs, "--out", args.out])


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
    # Nothing is left to interrupt: a Ctrl-C while the interpreter shuts down would only
    # print a traceback from its teardown.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
