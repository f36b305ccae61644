"""``report-form``: write the GitHub issue form the cards' "Report a problem" link opens
(feedback/report_form.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from nca_anki.commands import feedback_parser, guarded, parse


@guarded
def run(argv: list[str], prog: str) -> int:
    parser = feedback_parser(prog, "report-form", "Write the GitHub issue form the cards' \"Report "
                             "a problem\" link opens, .github/ISSUE_TEMPLATE/question.yml, into "
                             "PROJECT, and print the report_url to set (docs/study-groups.md).")
    parser.add_argument("project", nargs="?", default=".", metavar="PROJECT")
    parser.add_argument("--repository", default="OWNER/REPO", metavar="OWNER/REPO",
                        help="the GitHub repository, for the report_url printed")
    args = parse(parser, argv)
    if isinstance(args, int):
        return args
    from nca_anki.feedback.report_form import (report_url, repository_problem, toml_string,
                                               write_form)

    if problem := repository_problem(args.repository):
        print(f"--repository: error: {problem}; nothing was written", file=sys.stderr)
        return 2
    try:
        path, written = write_form(Path(args.project))
    except FileExistsError as exc:
        print(f"{exc}: error: another file is there; not overwritten (move it, or merge "
              "the form by hand)", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{exc.filename or args.project}: error: cannot write the form: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"{path.as_posix()} {'written' if written else 'already there'}")
    print("Set in source/nca-anki.toml:")
    print(f"report_url = {toml_string(report_url(args.repository))}")
    return 0
