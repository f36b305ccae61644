"""The project's file names, and which files in the source folder are question files.

Light on purpose (no third-party imports): the no-op check in replay.py reads these before
anything heavy is loaded.
"""

from __future__ import annotations

import hashlib
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
# Inside it: one state file per (source, templates, output) folders, and three folders of
# entries: parsed source files, what the index read from each deck, the bundle's
# deflated pieces. Each cache folder, and how its entries' names end.
PARSED_NAME = "parsed"
DECKS_NAME = "decks"
PIECES_NAME = "bundle"
CACHE_FOLDERS = ((PARSED_NAME, ".json"), (DECKS_NAME, ".json"), (PIECES_NAME, ".z"))
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
    with a dot are not the author's questions (editor backups, .git)."""
    return sorted(p for p in source.rglob(f"*{SOURCE_SUFFIX}")
                  if p.is_file() and not any(part.startswith(".") for part in
                                             p.relative_to(source).parts))


# What a question may show as an image (reading/media.py tells the type by the bytes).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")


def image_files(source: Path) -> list[Path]:
    """Every file under ``source`` that a question may show as an image, by its suffix
    (reading/media.py), sorted; hidden files and folders left out as for questions."""
    return sorted(p for p in source.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES
                  and p.is_file() and not any(part.startswith(".") for part in
                                              p.relative_to(source).parts))


def file_sha256(path: Path) -> str | None:
    """The SHA-256 of the file's bytes; None if it is absent or cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
