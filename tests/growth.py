"""CPU time for the growth tests: time linear in the input is checked by growth, never by
speed (docs/contributing.md, "Time linear in the input").

``least_cpu(call)`` is the least CPU time of this process over two calls, with Python's
garbage collector paused: its full collections come more often as a long input's objects
pile up, which made a linear rendering measure 8.1x for 4x the text once in CI (3.9x
without them). The least of two drops a one-off stall of the machine.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def least_cpu(call: Callable[[], object], tries: int = 2) -> float:
    best = float("inf")
    for _ in range(tries):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            call()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best
