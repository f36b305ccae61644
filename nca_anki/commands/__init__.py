"""One module per command: ``build`` (and ``--watch``: watch.py), ``import``, ``locate``,
``stats`` and ``report-form``. Each reads its arguments, calls its stage's entry, prints
(output.py) and returns its exit status; cli.py only picks the command and owns the
output streams. The pipeline and each stage's libraries are imported inside the command,
after the no-op check (tests/pipeline/test_layers.py).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from nca_anki.arguments import Parser

# The command a first argument names -> its module here; anything else is the build's.
COMMANDS = {"import": "import_", "locate": "locate", "stats": "stats",
            "report-form": "report_form"}

EXIT = """exit status:
  0    done
  1    nothing found, an export unreadable, nothing stats could judge, or a file not
       written (each is named)
  2    usage error
  3    a bug of ours, reported in one line, without a traceback
  141  the output was closed before all of it was printed (| head -1)"""



def run(name: str, argv: Sequence[str], prog: str) -> int:
    """Run the command ``name`` (a key of COMMANDS, or "build") with ``argv``; its exit
    status."""
    module = importlib.import_module(f"nca_anki.commands.{COMMANDS.get(name, 'build')}")
    return int(module.run(list(argv), prog))


Command = Callable[[list[str], str], int]  # a command's run(argv, prog) -> exit status


def feedback_parser(prog: str, name: str, description: str) -> argparse.ArgumentParser:
    """The parser of a command that closes the loop with learners (locate, stats,
    report-form), with their exit statuses."""
    return Parser(prog=f"{prog} {name}", description=description, epilog=EXIT,
                  formatter_class=argparse.RawDescriptionHelpFormatter)


def parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The arguments, or the exit status argparse chose (2 on a usage error, 0 for -h)."""
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def guarded(command: Command) -> Command:
    """``command`` (a feedback command's ``run``) whose exit status is 130 when it is
    interrupted and 3 (in one line) on a bug of ours. A closed output goes on up to
    cli.main, which ends quietly."""
    def run(argv: list[str], prog: str) -> int:
        try:
            return command(argv, prog)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        except BrokenPipeError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bug of ours: said plainly, no traceback
            from nca_anki.commands.output import internal_error

            print(internal_error(exc), file=sys.stderr)
            return 3
    return run
