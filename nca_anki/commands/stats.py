"""``stats``: which questions learners fail far more often than the rest of their topic,
from their Anki exports (feedback/stats.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nca_anki.feedback.stats import LearnerReviews, Stats

from nca_anki.commands import feedback_parser, guarded, parse


@guarded
def run(argv: list[str], prog: str) -> int:
    from nca_anki.feedback.stats import MIN_LEARNERS

    parser = feedback_parser(prog, "stats", "Which questions learners fail far more often than the "
                             "rest of their topic, from the Anki exports learners chose to send "
                             "(.apkg with scheduling, or .colpkg). Never edits a question "
                             "(docs/study-groups.md).")
    parser.add_argument("exports", nargs="+", metavar="EXPORT")
    parser.add_argument("--source", default="source", metavar="DIR",
                        help="the folder whose lock pairs cards with questions")
    parser.add_argument("--min-learners", type=int, default=MIN_LEARNERS, metavar="N",
                        help=f"show no question fewer learners reviewed (default "
                             f"{MIN_LEARNERS})")
    parser.add_argument("--top", type=int, default=10, metavar="N",
                        help="also list the N most failed questions not flagged")
    parser.add_argument("--json", action="store_true")
    args = parse(parser, argv)
    if isinstance(args, int):
        return args
    if args.min_learners < 1 or args.top < 0:
        print("stats: error: --min-learners must be 1 or more, --top 0 or more",
              file=sys.stderr)
        return 2
    from nca_anki.feedback.stats import item_stats
    from nca_anki.files import LOCK_NAME, read_regular
    from nca_anki.identity.lockfile import load_lock

    lock_path = Path(args.source) / LOCK_NAME
    try:
        lock, _ = load_lock(read_regular(lock_path).decode("utf-8"), lock_path.as_posix())
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
        print(f"{lock_path.as_posix()}: error: cannot read the lock ({why}); pass --source "
              "DIR of the project whose decks the learners studied", file=sys.stderr)
        return 2
    if lock is None or not lock.entries:
        print(f"{lock_path.as_posix()}: error: the lock knows no question; build first",
              file=sys.stderr)
        return 2
    guids = frozenset(e.guid for e in lock.entries)
    exports, failed = _read_exports(args.exports, guids)
    result = item_stats(exports, lock.entries, args.min_learners)
    if args.json:
        print(json.dumps({"learners": result.learners, "duplicate_exports": result.same,
                          "unreadable_exports": failed,
                          "exports_without_reviews": result.without_reviews,
                          "min_learners": result.min_learners,
                          "hidden_questions": result.hidden, "judged": result.judged,
                          "questions": [i.to_json() for i in result.items]},
                         indent=1, ensure_ascii=False))
        if not result.judged:
            print(f"stats: {_nothing_judged(result)}", file=sys.stderr)
    else:
        print("\n".join(_stats_text(result, args.top)))
    return 1 if failed or not result.judged else 0


def _read_exports(names: list[str], guids: frozenset[str]) -> tuple[list[LearnerReviews], int]:
    """Each export's reviews, and how many could not be read (each named on stderr, as is
    each with no review of these decks)."""
    from nca_anki.feedback.stats import ExportError, limit_sqlite_heap, read_export

    limit_sqlite_heap()
    exports, failed = [], 0
    for name in names:
        try:
            exports.append(read_export(Path(name), guids))
        except (ExportError, OSError) as exc:
            failed += 1
            said = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            print(f"{name}: error: {said}; left out", file=sys.stderr)
            continue
        if not exports[-1].questions:
            print(f"{name}: warning: no review of this project's questions (the published "
                  "deck itself, or exported without \"Include scheduling information\"?); "
                  "not counted", file=sys.stderr)
    return exports, failed


def _nothing_judged(result: Stats) -> str:
    """Why no question could be judged, and what to do (never an all-clear)."""
    learners = (f"{result.learners} learner(s) reviewed these decks"
                + (f" ({result.without_reviews} export(s) held no review of them)"
                   if result.without_reviews else ""))
    if result.items:
        why = (f"the {len(result.items)} question(s) reviewed by at least "
               f"{result.min_learners} learners are each the only one of their topic, and "
               "a question is judged against the others of its topic")
    else:
        why = (f"a question is judged once at least {result.min_learners} learners "
               f"(--min-learners) reviewed it, and {learners}: no question had that many")
        learners = ""
    return (f"Nothing could be judged: {why}{'; ' + learners if learners else ''}. Collect "
            "more learners' exports, or pass a lower --min-learners N (fewer learners say "
            "less, and are easier to recognise).")


def _stats_text(result: Stats, top: int) -> list[str]:
    lines = [f"{result.learners} learner(s)"
             + (f" ({result.same} export(s) of a collection already counted, left out)"
                if result.same else "")
             + f"; {len(result.items)} question(s) reviewed by at least "
             f"{result.min_learners}; {result.hidden} with fewer, not shown"]
    if result.unknown:
        lines.append(f"{result.unknown} reviewed note(s) the lock does not know "
                     "(another project's decks?), left out")
    flagged = [i for i in result.items if i.flagged]
    if result.without_reviews:
        lines.append(f"{result.without_reviews} export(s) without a review of these decks, "
                     "not counted")
    if result.alone and result.judged:
        lines.append(f"{result.alone} question(s) the only one of their topic shown: not "
                     "judged")
    lines.append("")
    lines.append(f"Likely flawed ({len(flagged)}): check the key, the choices and the "
                 "wording; build_decks.py locate GUID shows each" if flagged else
                 "No question stands out from its topic." if result.judged else
                 _nothing_judged(result))
    for item in flagged:
        lines += [f"  {item.guid}  {item.file}  {item.excerpt}", f"    {item.evidence()}"]
    others = [i for i in result.items if not i.flagged][:top]
    if others:
        lines += ["", f"Most failed of the rest (top {len(others)}):"]
        lines += [f"  {i.guid}  {i.rate:.0%} of {i.learners}  {i.excerpt}" for i in others]
    return lines
