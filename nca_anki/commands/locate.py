"""``locate``: find a question by the fingerprint or GUID a report names, or by its
words (feedback/locate.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from nca_anki import edges
from nca_anki.commands import feedback_parser, guarded, parse


@guarded
def run(argv: list[str], prog: str) -> int:
    parser = feedback_parser(prog, "locate", "Find a question by the fingerprint or GUID a report "
                             "names, or by its words: where it is written, its text now, and the "
                             "versions that changed it (docs/study-groups.md).")
    parser.add_argument("query", metavar="FINGERPRINT|GUID|TEXT")
    parser.add_argument("--source", default="source", metavar="DIR")
    parser.add_argument("--out", default="dist", metavar="DIR",
                        help="the published decks, for a fingerprint of an earlier version")
    parser.add_argument("--json", action="store_true")
    args = parse(parser, argv)
    if isinstance(args, int):
        return args
    source = Path(args.source)
    if not source.is_dir():
        print(f"{args.source}: error: not a folder; pass --source DIR", file=sys.stderr)
        return 2
    if not args.query.strip():
        print("locate: error: say what to look for", file=sys.stderr)
        return 2
    from nca_anki.feedback.locate import locate
    from nca_anki.reading.published import read_published

    search = locate(args.query, source, read_published(Path(args.out)),
                    edges.lock_history(source))
    if args.json:
        print(json.dumps({"query": args.query, "found": [f.to_json() for f in search.found],
                          "notes": list(search.said)}, indent=1, ensure_ascii=False))
    else:
        for note in search.said:
            print(f"note: {note}", file=sys.stderr)
        for found in search.found:
            print("\n".join(found.text()))
        if not search.found:
            print(f"no question matches {args.query!r} in {source.as_posix()}"
                  + _looks_like(args.query.strip()), file=sys.stderr)
    return 0 if search.found else 1


def _looks_like(query: str) -> str:
    """A hint for a query that is nearly a fingerprint or a GUID."""
    import re

    if re.fullmatch(r"nca-[0-9a-fA-F]+", query) and not re.fullmatch(r"nca-[0-9a-f]{16}",
                                                                      query):
        return " (a GUID is nca- and 16 lower-case hex digits: copy it whole from the report)"
    if re.fullmatch(r"[0-9a-fA-F]{6,24}", query) and not re.fullmatch(r"[0-9a-f]{12}", query):
        return " (a fingerprint is 12 lower-case hex digits: copy it whole from the report)"
    return ""
