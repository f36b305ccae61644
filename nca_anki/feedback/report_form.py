"""The issue form that the cards' "Report a problem" link opens on GitHub.

``build_decks.py report-form [PROJECT]`` writes it to
``PROJECT/.github/ISSUE_TEMPLATE/question.yml``. GitHub fills each field of a form from
the query parameter of the same ``id`` in the link's address, so with the report_url
that docs/study-groups.md gives, the learner finds the question's fingerprint, GUID,
deck, version, place in the source and their own pick already written, and only says
what is wrong.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from nca_anki.files import read_regular
from nca_anki.publishing.output import write_new

FORM_PATH = Path(".github") / "ISSUE_TEMPLATE" / "question.yml"

# The report_url that goes with the form, for a repository OWNER/REPO on GitHub.
REPORT_URL = ("https://github.com/{repository}/issues/new?template=question.yml"
              "&title=Question+{{fingerprint}}&fingerprint={{fingerprint}}&guid={{guid}}"
              "&deck={{deck}}&version={{version}}&source={{file}}%3A{{line}}&pick={{pick}}"
              "&verdict={{verdict}}")

_FILLED = (
    ("fingerprint", "Question fingerprint", "Filled in by the card's link."),
    ("guid", "Note GUID", "Filled in by the card's link."),
    ("deck", "Deck", "Filled in by the card's link."),
    ("version", "Version of the question", "The date of the deck version that last "
                                           "changed it; filled in by the card's link."),
    ("source", "Where it is written", "The question file and line; filled in by the "
                                      "card's link. Authors: build_decks.py locate "
                                      "FINGERPRINT shows it as it is now."),
    ("pick", "What I picked", "Filled in by the card's link where the card's script runs "
                              "(not on every phone)."),
    ("verdict", "What the card said", "right, wrong or none; filled in like the pick."),
)


def form() -> str:
    """The form's YAML text."""
    lines = [
        "# Written by nca-anki (build_decks.py report-form): the form the cards' \"Report a",
        "# problem\" link opens. Each field's id is a query parameter of that link.",
        "name: Problem with a question",
        "description: A wrong answer, two right answers, a typo or an unclear question in "
        "the decks.",
        "labels: [\"question report\"]",
        "body:",
        "  - type: markdown",
        "    attributes:",
        "      value: Thank you. The card filled in which question this is; say what is "
        "wrong, and how you know.",
        "  - type: dropdown",
        "    id: problem",
        "    attributes:",
        "      label: What is wrong?",
        "      options:",
        "        - The marked answer is wrong",
        "        - More than one answer is right",
        "        - A typo or a broken sentence",
        "        - The question or a choice is unclear",
        "        - Something else",
        "    validations:",
        "      required: true",
        "  - type: textarea",
        "    id: details",
        "    attributes:",
        "      label: Details",
        "      description: What should it say? A link to a source helps the authors.",
        "    validations:",
        "      required: true",
    ]
    for field_id, label, description in _FILLED:
        lines += ["  - type: input", f"    id: {field_id}", "    attributes:",
                  f"      label: {label}", f"      description: \"{description}\""]
    return "\n".join(lines) + "\n"


def write_form(project: Path) -> tuple[Path, bool]:
    """Write the form into ``project``: (its path, whether it was written). An identical
    form is left as it is; raises FileExistsError for anything else in its place, a link
    included (never overwritten, never written through: it may be the authors' own),
    OSError if it cannot be written. Whole or absent (output.write_new)."""
    path = project / FORM_PATH
    data = form().encode("utf-8")
    if os.path.lexists(path):
        if path.is_file() and not path.is_symlink() and read_regular(path) == data:
            return path, False
        raise FileExistsError(str(path))
    try:
        write_new(path, data)
    except FileExistsError as exc:  # put there meanwhile, or a file where a folder goes
        raise FileExistsError(str(exc.filename2 or exc.filename or path)) from None
    return path, True


# A repository on GitHub: its owner (a user or an organisation: letters, digits and
# hyphens, not at either end, at most 39) and its name (letters, digits, ".", "-" and
# "_", at most 100, never "." or "..").
REPOSITORY_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?"
                           r"/(?!\.\.?\Z)[A-Za-z0-9._-]{1,100}")


def repository_problem(repository: str) -> str:
    """Why ``repository`` is no GitHub OWNER/NAME; "" if it is one."""
    if REPOSITORY_RE.fullmatch(repository):
        return ""
    return (f"{repository!r} is not a GitHub repository: give OWNER/NAME, as in its address "
            "https://github.com/OWNER/NAME (the owner: letters, digits and hyphens; "
            "the name: letters, digits, '.', '-' and '_')")


def report_url(repository: str) -> str:
    """The report_url for ``repository`` (checked by repository_problem)."""
    return REPORT_URL.format(repository=repository)


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string, quotes and escapes included: what a printed
    settings line holds can never end its string early or break the line."""
    escaped = []
    for char in value:
        if char in ('"', "\\"):
            escaped.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04X}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'
