"""The project's file names, and which files in the source folder are question files.

Light on purpose (no third-party imports): the no-op check in replay.py reads these before
anything heavy is loaded.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

SOURCE_SUFFIX = ".txt"  # question files
CONFIG_NAME = "nca-anki.toml"  # settings, in the source folder
LOCK_NAME = "nca-anki.lock"  # identities, in the source folder (lockfile.py)
OLD_LOCK_NAME = "nca-anki.lock.json"  # format 1 of the lock, migrated on the next build
# The build cache (caching/): one folder outside the published output, by default this
# one in the project folder (the command's current folder), git-ignored; --cache-dir or
# the environment variable moves it.
CACHE_FOLDER = ".nca-anki-cache"
CACHE_ENV = "NCA_ANKI_CACHE_DIR"
# Inside it: one state file per (source, templates, output) folders, and four folders of
# entries: parsed source files, each topic's rendered notes, what the index read from
# each deck, the bundle's deflated pieces. Each cache folder, and how its entries' names
# end.
PARSED_NAME = "parsed"
RENDERED_NAME = "rendered"
DECKS_NAME = "decks"
PIECES_NAME = "bundle"
CACHE_FOLDERS = ((PARSED_NAME, ".json"), (RENDERED_NAME, ".z"), (DECKS_NAME, ".json"),
                 (PIECES_NAME, ".z"))
# What marks a folder as our cache (https://bford.info/cachedir/): a build works, and
# deletes entries, only in a folder that has it or that it made.
CACHE_TAG_NAME = "CACHEDIR.TAG"
# Where versions before 2026-12 kept the cache: in the output folder, which learners
# download. The next build that writes removes them.
OLD_CACHE_FILE = ".nca-anki-cache.json"
OLD_CACHE_FOLDERS = ((".nca-anki-parsed", ".json"), (".nca-anki-decks", ".json"),
                     (".nca-anki-bundle", ".z"))
# The published index, in the output folder beside the decks (index.py).
MANIFEST_NAME = "manifest.json"
INDEX_NAME = "README.md"
CHANGELOG_NAME = "CHANGELOG.md"
INDEX_FILES = (MANIFEST_NAME, INDEX_NAME, CHANGELOG_NAME)
# The all-topics bundle is "<parent deck slug>_all_topics.apkg": a topic's deck file name
# is a slug of letters, digits and hyphens (topics.slugify), never with an underscore.
BUNDLE_SUFFIX = "_all_topics.apkg"


def is_bundle(name: str) -> bool:
    return name.endswith(BUNDLE_SUFFIX)


def question_files(source: Path) -> list[Path]:
    """Every question file under ``source``, sorted; files and folders whose name starts
    with a dot are not the author's questions (editor backups, .git). A pipe, a device or a
    broken link with the name of one is listed too, so that reading it refuses it by name
    (read_regular): left out, its questions would look deleted."""
    return sorted(p for p in source.rglob(f"*{SOURCE_SUFFIX}")
                  if not p.is_dir() and not any(part.startswith(".") for part in
                                             p.relative_to(source).parts))


# What a question may show as an image (reading/media.py tells the type by the bytes).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")


def image_files(source: Path) -> list[Path]:
    """Every file under ``source`` that a question may show as an image, by its suffix
    (reading/media.py), sorted; hidden files and folders left out as for questions."""
    return sorted(p for p in source.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES
                  and not p.is_dir() and not any(part.startswith(".") for part in
                                              p.relative_to(source).parts))


class NotRegularFile(OSError):
    """A folder, named pipe, device or socket where a file was expected: never opened."""


class TooLarge(OSError):
    """A file larger than what is read of it."""


NOT_REGULAR = ("not a regular file (a folder, a named pipe, a device or a socket); "
               "put a file there")


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file (of at most ``limit`` bytes); else
    NotRegularFile, TooLarge or the OSError of reading it. A pipe, a device or a socket is
    never opened (opening a pipe waits for a writer for ever, and a device never ends),
    and what is opened is checked again, so a file swapped for one meanwhile is refused
    too. Every file a build or an import reads from the author goes through here."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise NotRegularFile(errno.EINVAL, NOT_REGULAR, str(path))
    if limit is not None and info.st_size > limit:
        raise TooLarge(errno.EFBIG, f"too large: {info.st_size:,} bytes, more than the "
                       f"{limit:,} read of such a file", str(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise NotRegularFile(errno.EINVAL, NOT_REGULAR, str(path))
        data = file.read(-1 if limit is None else limit + 1)
    if limit is not None and len(data) > limit:
        raise TooLarge(errno.EFBIG, f"too large: more than the {limit:,} bytes read of such "
                       "a file", str(path))
    return data


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of the file's bytes; None if it is absent, cannot be read or is not a
    regular file."""
    try:
        return hashlib.sha256(read_regular(path)).hexdigest()
    except OSError:
        return None
