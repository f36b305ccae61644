"""``build`` (the default command): parse the arguments, build (or answer from the
no-op replay), print the report, and, with --verify --release, copy the decks. Exit
status: 0 built (warnings allowed), 1 errors in the input (or an output that could not be
written), 2 usage errors, 3 a bug of ours, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from nca_anki import arguments, edges
from nca_anki.commands import output
from nca_anki.files import LOCK_NAME

if TYPE_CHECKING:
    from nca_anki.report import BuildReport


def run(argv: list[str], prog: str) -> int:
    """The build command with ``argv``; its exit status."""
    try:
        args = arguments.build_parser(prog).parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 for --help
        return int(exc.code or 0)
    problems = arguments.usage_problems(args)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if args.watch:
        from nca_anki.commands.watch import watch

        return watch(args, run_build, print_report)
    verify = args.verify or args.release is not None
    # --verify always checks in full: it is what CI trusts, and a replayed report carries
    # no record of what is stale. --strict too: a replayed build wrote nothing to stop.
    outcome = run_build(args, check=verify, replayed=not verify and not args.strict
                        and args.preview is None)
    if isinstance(outcome, int):
        return outcome
    lock = Path(args.source, LOCK_NAME).as_posix()
    stale = output.stale(outcome, lock) if verify else []
    if args.json:
        mode = "verify" if verify else "check" if args.check else \
            "preview" if args.preview is not None else "build"
        print(json.dumps(output.as_json(outcome, mode=mode, stale=stale), indent=1,
                         ensure_ascii=False))
        return outcome.exit_status(stale)
    print_report(outcome, args, checking=verify or args.check)
    if not verify:
        return outcome.exit_status()
    print("\n".join(output.verified(stale, args.out, lock)), file=sys.stderr)
    status = outcome.exit_status(stale)
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


def run_build(args: argparse.Namespace, *, check: bool, replayed: bool) -> BuildReport | int:
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
        print(output.internal_error(exc, nothing_changed=True), file=sys.stderr)
        return 3
    progress.close()
    return report


def print_report(report: BuildReport, args: argparse.Namespace, *,
                  checking: bool = False) -> None:
    """The text report (output.py): what was built on stdout, then the warnings, the
    errors and the verdict on stderr, where the eye lands last."""
    mode = output.Mode.QUIET if args.quiet else output.Mode(args.warnings)
    shown = output.text(report, mode, checking=checking,
                           previewing=args.preview is not None)
    for line in shown.summary:
        print(line)
    sys.stdout.flush()
    for line in shown.problems:
        print(line, file=sys.stderr)
    sys.stderr.flush()
