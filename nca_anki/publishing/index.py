"""The published index beside the decks: the all-topics bundle, ``manifest.json``,
``README.md`` and ``CHANGELOG.md`` (docs/sharing.md).

Everything here is worked out from the decks as written (read back from their files),
each deck's version record (versions.py) and the previous changelog, so it is the same
bytes for the same decks on any machine. The bundle holds the very notes of the per-topic decks
(same GUIDs, ``mod``, fields, tags and note type) under the common parent deck: importing
it and any per-topic file gives no duplicates.
"""

from __future__ import annotations

import hashlib
import html
import re
import sqlite3
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from nca_anki.diagnostics import Diagnostic, error, warning
from nca_anki.files import BUNDLE_SUFFIX, CHANGELOG_NAME, INDEX_NAME, MANIFEST_NAME
from nca_anki.publishing.manifest import FactsStore, IndexedDeck, manifest_text
from nca_anki.publishing.output import WriteError
from nca_anki.reading import published
from nca_anki.reading.published import Published
from nca_anki.publishing.package import Pieces, bundle_stride, merge_packages
from nca_anki.publishing.sink import Sink
from nca_anki.identity.retired import RETIRED_TAG
from nca_anki.publishing.versions import UPDATED_TAG, DeckVersion
from nca_anki.report import FileStatus

def bundle_name(parent_slug: str) -> str:
    return f"{parent_slug}{BUNDLE_SUFFIX}"


def deck_facts(package: bytes) -> published.DeckFacts:
    """What the index keeps of a deck (IndexedDeck's ``notes`` and ``note_type_mod``),
    from its ``.apkg`` bytes. The worker that built a deck hands them over with it, so
    the index need not read back a deck it has just seen written."""
    return published.facts(published.collection_of(package))


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def bundle(decks: Sequence[IndexedDeck], parent: str, pieces: Pieces | None = None,
           *, threads: int = 1, scratch: Path | None = None) -> bytes:
    """Every topic's deck as a subdeck of ``parent``, in one package: the same notes.
    ``pieces``: the deflated pieces of the last bundles; ``threads``: how many deflate
    them (package.py)."""
    count = sum(d.questions for d in decks)
    version = _latest(decks)
    description = (f"<p>All {len(decks)} topics, {count} multiple-choice questions, as "
                   f"subdecks. <b>Version {html.escape(version)}</b>.</p><p>Each subdeck's "
                   f"description says what its version changed. Importing this file and "
                   f"any single-topic file gives no duplicates.</p>")
    # Ids from the oldest note's time, each deck in a range of its own (package.py).
    mods = [mod for d in decks for _, mod, _ in d.notes]
    # Every deck's images, once each (a name is its content's hash).
    media = sorted({name: data for d in decks for name, data in d.media_files()}.items())
    # In memory only when small: at 100,000 questions the merged file is 150 MB.
    small = sum(len(d.notes) for d in decks) <= SCRATCH_NOTES
    return merge_packages([d.collection for d in decks], parent, description,
                          min(mods, default=0),
                          bundle_stride(max(len(d.notes) for d in decks)), pieces,
                          threads=threads, media=media, scratch=scratch if small else None)


SCRATCH_NOTES = 20_000  # the bundle of this many notes is a file of about 25 MB


def _latest(decks: Sequence[IndexedDeck]) -> str:
    return max((d.version.version for d in decks), default="")


def _size(n: int) -> str:
    return f"{n / 1024:.1f} KiB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MiB"


# Markdown's inline syntax, for text on a list item, heading or table line: every ASCII
# punctuation mark that CommonMark or GitHub's tables give a meaning (emphasis, code,
# links, images, HTML, entities, headings, pipes, strike-through) takes a backslash,
# which CommonMark allows before any ASCII punctuation and shows as the mark itself ("&"
# only where it would start an entity, "!" only before "["). Once
# only: an entity ("&#124;") with a backslash added to its "#" showed as "&#124;" on
# GitHub. tests/publishing/test_index.py renders the files with a CommonMark/GFM renderer.
_MD_ESCAPED_RE = re.compile(r"[\\`*_\[\]#<>|~]|&(?=#?\w+;)|!(?=\[)")


def _md(text: str) -> str:
    """Plain text, shown as itself on a Markdown line."""
    return _MD_ESCAPED_RE.sub(lambda m: f"\\{m.group(0)}", " ".join(text.split()))


def readme(decks: Sequence[IndexedDeck], bundle_file: str, bundle_data: bytes, parent: str
           ) -> str:
    version = _latest(decks)
    rows = [f"| {_md(d.name)} | {d.questions} | [{d.file}]({d.file}) | {_size(d.size)} "
            f"| `{d.sha256}` | {d.version.version} |" for d in decks]
    rows.append(f"| **All topics** ({_md(parent)}, one subdeck per topic) "
                f"| {sum(d.questions for d in decks)} | [{bundle_file}]({bundle_file}) "
                f"| {_size(len(bundle_data))} | `{_sha(bundle_data)}` | {version} |")
    return "\n".join([
        "# The decks",
        "",
        f"Anki flashcard decks of multiple-choice questions, built by nca-anki from this "
        f"repository's `source/`. Version **{version}**: the date of the newest content "
        f"change. What changed in each version: [CHANGELOG.md]({CHANGELOG_NAME}). This "
        f"page is generated by the build; do not edit it.",
        "",
        "| Deck | Questions | File | Size | SHA-256 | Last content change |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        "## Import",
        "",
        "Take one topic's file, or the all-topics file for every topic at once (taking both "
        "does no harm: the notes are the same, so nothing is duplicated). In Anki desktop "
        "choose *File → Import*; on AnkiDroid and AnkiMobile open the file with Anki. Keep "
        "the default options.",
        "",
        "## Update",
        "",
        "Download the newer file and import it the same way, with the default options "
        "(*update notes: if newer*). Changed questions are updated in place; your cards, "
        "their schedule and their review history are kept. Every deck's description in "
        "Anki shows its version.",
        "",
        f"- **What changed**: every question added or changed in a version carries the tag "
        f"`{UPDATED_TAG}<version>`; search `tag:{UPDATED_TAG}{version}` in the browser to "
        f"review exactly those.",
        f"- **Withdrawn questions**: Anki's import never deletes. A question the authors "
        f"removed comes to you as a notice on its card and the tag `{RETIRED_TAG}`; search "
        f"`tag:{RETIRED_TAG}` and suspend or delete those cards. Someone importing for the "
        "first time gets no card for them.",
        "- **Your own edits** to a note are kept unless that question changes again.",
        "",
        "## Check a download",
        "",
        "Compare the file's SHA-256 with the table: `sha256sum FILE` (Linux), "
        "`shasum -a 256 FILE` (macOS), `Get-FileHash FILE` (PowerShell). "
        f"[{MANIFEST_NAME}]({MANIFEST_NAME}) has the same facts, and every question's GUID, "
        "for scripts.",
        "",
    ])


def changelog_entry(decks: Sequence[IndexedDeck], version: str) -> str:
    """The changelog's entry for ``version``: each deck whose latest version it is, with
    the questions it added, changed and withdrew, by prompt."""
    lines = [f"## {version}", ""]
    for d in decks:
        record = d.version
        if record.version != version:
            continue
        lines += [f"### {_md(d.name)}", ""]
        live = {guid for guid, _, retired in d.notes if not retired}
        if live and set(record.added) == live and not record.removed:
            # A new deck: every question would be listed as added (2,000 lines for a
            # big topic, read by nobody); the deck's file lists them.
            noun = "question" if len(live) == 1 else "questions"
            lines += [f"- First version of this deck: {len(live)} {noun}.", ""]
            continue
        prompts = d.prompts()
        images = set(record.images)
        for what, guids in (("Added", record.added),
                            ("Changed", [g for g in record.changed if g not in images]),
                            ("Image changed", record.images),
                            ("Added or changed", record.updated),
                            ("Withdrawn", record.removed)):
            lines += [f"- {what}: {_md(_clip(prompts.get(g, g)))}"
                      for g in sorted(guids, key=lambda g: (prompts.get(g, g), g))]
        if record.layout:
            lines.append("- The card layout changed (every card shows it at once).")
        if record.report:
            count = len(record.report)
            lines.append(f"- The \"Report a problem\" link on the back of {count} "
                         f"card{'s' if count != 1 else ''} was added, removed or given a new "
                         "address; their questions did not change.")
        lines.append("")
    return "\n".join(lines)


def _clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


_HEAD = ("# Changelog\n\nWhat each version of the decks changed, newest first; a version is "
         "the date of its changes. Generated by the build; do not edit it.\n")


def changelog(previous: str | None, decks: Sequence[IndexedDeck]) -> str:
    """The changelog: the entry of the decks' latest version written anew, every older
    entry kept as it was. A build that changed nothing writes the same text again."""
    entries: dict[str, str] = {}
    if previous:
        for block in re.split(r"(?m)^(?=## )", previous)[1:]:
            heading = block.split("\n", 1)[0][3:].strip()
            entries[heading] = block.rstrip("\n") + "\n"
    version = _latest(decks)
    if version:
        entries[version] = changelog_entry(decks, version).rstrip("\n") + "\n"
    return "\n".join([_HEAD, *(entries[v] for v in sorted(entries, reverse=True))])


def index_files(decks: Sequence[IndexedDeck], parent: str, parent_slug: str,
                previous_changelog: str | None, pieces: Pieces | None = None,
                *, threads: int = 1, scratch: Path | None = None) -> dict[str, bytes]:
    """File name -> bytes of the bundle, manifest, README and changelog."""
    name = bundle_name(parent_slug)
    data = bundle(decks, parent, pieces, threads=threads, scratch=scratch)
    return {name: data,
            MANIFEST_NAME: manifest_text(decks, name, data, parent, _latest(decks)).encode(),
            INDEX_NAME: readme(decks, name, data, parent).encode(),
            CHANGELOG_NAME: changelog(previous_changelog, decks).encode()}


def _has(published: Published, name: str) -> bool:
    try:
        return published.index_text(name) is not None
    except (OSError, UnicodeDecodeError):
        return True  # there, if not readable


def write_index(published: Published, decks: Sequence[tuple[str, str, Path]],
                versions: Mapping[str, DeckVersion], parent: str, parent_slug: str,
                sink: Sink, cache: FactsStore | None = None,
                pieces: Pieces | None = None, *, threads: int = 1,
                scratch: Path | None = None) -> tuple[dict[str, FileStatus], list[Diagnostic]]:
    """Put the bundle, manifest, README and changelog made from the decks as they will
    be published (``decks``: deck name, topic name, file) through ``sink``: each file's
    status, and any problem. A deck this build staged is read from its staged file, any
    other from ``published`` (what the build read before writing). What each deck holds
    is taken from ``cache`` where it has it, the bundle's deflated pieces from
    ``pieces``. (--check and --verify pass neither: they read and deflate everything, as
    CI trusts.)"""
    out = published.folder
    indexed, problems = [], []
    for name, topic, path in sorted(decks):
        stored = sink.current(path)
        file = published.files.get(path.name)
        if stored != path:  # staged by this build
            read = stored.read_bytes
        elif file is not None and file.regular:
            read = file.bytes
        else:
            continue  # a topic that failed before it was ever built
        try:
            deck = IndexedDeck.of(name, topic, path, read(), versions.get(name), cache)
        except Exception as exc:  # noqa: BLE001 - any damage: the index cannot list it
            problems.append(error("E502", path.as_posix(), 0, f"cannot read this deck to index it "
                                  f"({type(exc).__name__}: {exc}); rebuild it"))
            continue
        indexed.append(deck)
    if problems or not indexed:
        return {}, problems
    changelog_path = out / CHANGELOG_NAME
    try:
        previous = published.index_text(CHANGELOG_NAME)
    except (OSError, UnicodeDecodeError) as exc:
        return {}, [error("E502",
                          changelog_path.as_posix(), 0, f"cannot read the changelog ({exc}); "
                          "restore it from version control")]
    if previous is None and _has(published, MANIFEST_NAME):
        problems.append(warning("W502", changelog_path.as_posix(), 0, (
            "missing, but the decks were published before: written again with the newest "
            "version's entry only; restore it from version control for the older entries")))
    try:
        made = index_files(indexed, parent, parent_slug, previous, pieces, threads=threads,
                           scratch=scratch)
    except (OSError, sqlite3.Error) as exc:  # the bundle is merged in a temporary folder
        where = tempfile.gettempdir()
        return {}, [error("E501", out.as_posix(), 0, f"cannot make the all-topics bundle in the "
                          f"temporary folder {where} ({exc}); free space there, or set TMPDIR "
                          "to a folder with room, and build again")]
    statuses = {}
    for name, data in made.items():
        try:
            statuses[name] = sink.put(out / name, data)
        except WriteError as exc:
            problems.append(error("E501", exc.path.as_posix(), 0, exc.reason))
    return statuses, problems
