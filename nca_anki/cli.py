"""Command line: pick the command (commands/, one module each), run it, own the output.

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

import contextlib
import gc
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from nca_anki import edges
from nca_anki.arguments import program_name

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
    """The command ``argv`` names (commands/), run; its exit status."""
    from nca_anki import commands

    name = argv[0] if argv[:1] and argv[0] in commands.COMMANDS else "build"
    return commands.run(name, argv if name == "build" else argv[1:], prog)


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
