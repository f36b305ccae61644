"""The command's arguments: its two parsers (a build, and ``import``), one line of help
for each option, and every usage error (exit status 2) found before anything runs: an
empty or misplaced folder, options that cannot go together, a malformed
SOURCE_DATE_EPOCH.
"""

from __future__ import annotations

import argparse
import errno
from collections.abc import Callable, Sequence
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from nca_anki import __version__
from nca_anki.files import CACHE_ENV, CACHE_FOLDER

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from nca_anki.importing.readers import Reader

EXIT_CODES = """exit status:
  0    built (or, with --check/--verify, nothing to rebuild)
  1    errors in the input, a stale output (--verify), an output not written,
       or warnings about the sources with --strict
  2    usage error: a bad option, or an unusable --source, --templates or --out
  3    a bug of ours, reported in one line, without a traceback
  130  interrupted (Ctrl-C): nothing half-written is left behind
  141  the output was closed before all of it was printed (| head): the decks
       are written, or not, as the report would have said; nothing half-written"""


class Parser(argparse.ArgumentParser):
    """argparse's parser, except that help, usage and the version are printed as the rest
    is: a closed output (``-h | head -1``) reaches cli.main as BrokenPipeError, which
    ends the command quietly with its own status, where argparse would drop the error
    and exit 0 as if everything had been shown."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (file or sys.stderr).write(message)


def build_parser(prog: str) -> argparse.ArgumentParser:
    """The options, one line of help each (docs/authors.md, "Building", says more)."""
    parser = Parser(
        prog=prog,
        description="Build one Anki deck (.apkg) per topic from the question files in SOURCE."
                    f"\n\n{prog} import INPUT... --out DIR [--from FORMAT] converts a bank in "
                    f"another format\ninto question files ({prog} import -h). From learners "
                    f"(docs/study-groups.md):\n{prog} locate FINGERPRINT|GUID|TEXT finds a "
                    f"reported question; {prog} stats EXPORT...\nflags the questions "
                    f"learners' exports show most missed; {prog} report-form writes\nthe "
                    "issue form the cards' report link opens.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
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
    parser.add_argument("--note-type-change", action="store_true",
                        help="allow a card with fields added or removed (E403)")
    parser.add_argument("--json", action="store_true",
                        help="print the report as one JSON document on stdout")
    return parser


IMPORT_EXIT_CODES = """exit status:
  0    every question converted and written
  1    something not converted (each is named), or nothing written
  2    usage error: a bad option, or a settings file (nca-import.toml) that
       cannot be used (nothing is read or written)
  3    a bug of ours, reported in one line, without a traceback
  141  the output was closed before all of it was printed (| head): the files
       are written all the same, each whole"""


def import_parser(prog: str, readers: Sequence[Reader] | None = None
                  ) -> argparse.ArgumentParser:
    """``import``'s options; its formats are ``readers`` (None: readers.py's table)."""
    # The table only: a reader's module loads when a file is read with it.
    from nca_anki.importing.readers import READERS, formats_help, names
    from nca_anki.importing.shape import ROLES

    table = READERS if readers is None else tuple(readers)
    parser = Parser(
        prog=f"{prog} import",
        description="Convert question banks in another format into question files in this "
                    "project's format, one per topic part (docs/importing.md).",
        epilog=f"{formats_help(table)}\n\n{IMPORT_EXIT_CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="the files to convert, or folders to search for them")
    formats = names(table)
    mapped = [reader.name for reader in table if reader.takes_map]
    parser.add_argument("--from", dest="format", choices=formats, metavar="FORMAT",
                        help=f"their format, if not each file's own (told by its name and "
                             f"content): {', '.join(formats)}")
    parser.add_argument("--map", action="append", default=[], metavar="KEY=ROLE",
                        type=_mapping(ROLES),
                        help=f"in a bank read as {', '.join(mapped[:-1])} or {mapped[-1]}, "
                             "read KEY (a key, column, XML element or attribute) as ROLE: "
                             f"{', '.join(ROLES)} (answer0/answer1: "
                             "an index counted from 0/1); a key inside nested objects as a path, "
                             "e.g. options.label=choice-text, meta.why=explanation; repeat for "
                             "more keys")
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="where the question files go (source, or a new folder)")
    parser.add_argument("--topic", metavar="NAME",
                        help="one topic for all inputs (default: each input's own title)")
    parser.add_argument("--json", action="store_true",
                        help="print the outcome as one JSON document on stdout "
                             "(docs/import.schema.json) instead of the report")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--settings", metavar="FILE",
                        help="read the settings in FILE (TOML: from, topic, [map], "
                             "[files.\"PATTERN\"]) for every input; by default "
                             "nca-import.toml beside the bank, if there")
    chosen.add_argument("--no-settings", action="store_true",
                        help="use no settings file, not even one beside the bank")
    parser.add_argument("--write-settings", action="store_true",
                        help="write how each file was read to nca-import.toml beside the "
                             "bank, so that importing it again reads it the same")
    return parser


def _mapping(roles: tuple[str, ...]) -> Callable[[str], tuple[str, str]]:
    """argparse's type for --map: "KEY=ROLE" -> (KEY, ROLE), ROLE one of ``roles``."""
    def parse(value: str) -> tuple[str, str]:
        key, sep, role = value.rpartition("=")
        if not sep or not key.strip():
            raise argparse.ArgumentTypeError(f"expected KEY=ROLE, got {value!r}")
        if role.strip() not in roles:
            raise argparse.ArgumentTypeError(
                f"unknown role {role!r} in {value!r}; the roles: {', '.join(roles)}")
        return key.strip(), role.strip()
    return parse


def program_name(argv0: str) -> str:
    """The command as the user ran it, for usage lines: ``build_decks.py``, ``nca-anki``."""
    name = os.path.basename(argv0)
    return "nca-anki" if name in ("", "__main__.py", "cli.py", "-c") else name


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value!r}")
    return int(value)


def usage_problems(args: argparse.Namespace) -> list[str]:
    """Every usage error in a build's arguments, each as a line to print."""
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
    return problems


def _folder_problems(args: argparse.Namespace) -> list[str]:
    """Usage errors in the folder arguments, each as a line to print. An empty value (an
    unset shell variable) would otherwise mean the current folder."""
    cache, named_by = cache_folder(args)
    # A link that leads to itself (or a ring of links) cannot be a folder, and every check
    # below would resolve it: said first, and alone.
    loops = [f"{value}: error: {name} is a symbolic link that leads back to itself; name a "
             "folder" for name, value in (
                 ("--source", args.source), ("--templates", args.templates), ("--out", args.out),
                 ("--release", args.release), ("--preview", args.preview),
                 (named_by, None if cache is None else str(cache)))
             if value is not None and value.strip() and _is_loop(Path(value))]
    if loops:
        return loops
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
    if cache is None or not str(cache).strip():
        pass  # no cache, or an empty --cache-dir (said above)
    elif cache.exists() and not cache.is_dir():
        if named_by != "--cache-dir":  # that one is said above
            problems.append(f"{cache}: error: {named_by} names a file, not a folder; name a "
                            "folder for the build cache")
    else:
        # Not among what is published, nor among what the build reads (a cache in the
        # templates would change their hash with every build).
        for other, value in (("--out", args.out), ("--source", args.source),
                             ("--templates", args.templates)):
            folder = Path(value).resolve() if value.strip() else None
            if folder is not None and (cache.resolve() == folder
                                       or folder in cache.resolve().parents):
                problems.append(f"{cache}: error: {named_by} is inside {other} ({value}); "
                                "name a folder for the build cache outside it")
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


def _is_loop(path: Path) -> bool:
    """Whether ``path`` is, or passes through, a symbolic link that leads back to itself."""
    try:
        path.resolve()
    except RuntimeError:  # Python 3.11 and 3.12 say a loop so
        return True
    except OSError as exc:  # later versions so
        return exc.errno == errno.ELOOP
    return False


def cache_folder(args: argparse.Namespace) -> tuple[Path | None, str]:
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
