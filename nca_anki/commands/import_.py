"""``import``: read each bank, convert it (importing/), write this project's question
files, never over a file that is there; every question not converted is reported at its
place. Exit status: 0 written, 1 a question or file refused or nothing written, 2 usage
errors (a settings file that cannot be used), 3 a bug of ours, 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from nca_anki import arguments, edges
from nca_anki.commands import output


def run(argv: list[str], prog: str) -> int:
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
        print(output.internal_error(exc), file=sys.stderr)
        return 3
    if args.json:
        print(json.dumps(output.import_json(imported, out), indent=1, ensure_ascii=False))
    else:
        for line in output.imported_files(imported, out):
            print(line)
        sys.stdout.flush()
        for line in output.import_problems(imported, out):
            print(line, file=sys.stderr)
    return imported.exit_status


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
