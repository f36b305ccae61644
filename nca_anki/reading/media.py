"""Images a question shows: found, checked and named for Anki's media folder.

A question writes ``![alt](path)`` with the path relative to its own file. The file must
be inside the source folder (it is published with the decks), be an image every Anki
client shows (PNG, JPEG, GIF, WebP or SVG, told by its bytes, not its name) and be at most
``MAX_IMAGE_BYTES``. It travels in the ``.apkg`` as ``nca-<first 16 hex digits of its
SHA-256>.<type>``: two topics' ``diagram.png`` never collide, and an edited image gets a
new name, so its note's field changes and Anki updates the note, where a file under the
same name would be skipped as already present (docs/anki-import.md, "Media").

Standard library only; reads files, never writes. ``MediaFolder.resolve`` answers one
reference (cards/render.py asks it for each image of a note); ``referenced`` finds the
references in a question file's text without parsing it, for cache keys and watching (a
reference inside a code block counts there too: it only makes a key more careful).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from nca_anki.files import NotRegularFile, read_regular
from nca_anki.reading.images import image_problem, image_type
from nca_anki.records import MediaFile

# Per image. Anki's own limit is 100 MiB per file; a deck goes to phones, and a clear
# diagram or screenshot is well under this (a 1600x1000 PNG screenshot is 100-400 KiB).
MAX_IMAGE_BYTES = 2 * 1024 * 1024

# A link's target, "](path": on a line after a "![", it may be an image's.
_TARGET_RE = re.compile(r"\]\(\s*<?([^)\s>]+)")


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MiB" if n >= 1024 * 1024 else f"{n / 1024:.0f} KiB"


class MediaFolder:
    """The images of the source folder ``root``, each read and checked once per build."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._inside = root.resolve()
        self._known: dict[Path, MediaFile | str] = {}

    def resolve(self, question_file: str, src: str) -> MediaFile | str:
        """The image ``src`` (as the Markdown engine gives it: percent-encoded) referenced
        from ``question_file``, or why it cannot be shown, as a message that says what to do."""
        written = unquote(src)
        if PurePosixPath(written).is_absolute() and not written.startswith("//") \
                or re.match(r"^[A-Za-z]:[\\/]", written):  # "C:\\..." has a "scheme" too
            return (f"image path {written!r} is absolute; write it relative to this file "
                    "(e.g. images/diagram.png)")
        if urlsplit(written).scheme or written.startswith("//"):
            return (f"image {written!r} is a web address, and cards are studied offline: save "
                    "the image in the source folder and write its path relative to this file")
        path = Path(question_file).parent / written
        try:
            real = path.resolve()
        except (OSError, RuntimeError) as exc:
            return f"image {written!r} cannot be read ({exc})"
        if not real.is_relative_to(self._inside):
            return (f"image {written!r} is outside the source folder {self.root.as_posix()}; "
                    "move it in (e.g. to images/ beside the question files): only the source "
                    "folder is published with the decks")
        if real not in self._known:
            self._known[real] = self._read(real, written, path.as_posix())
        return self._known[real]

    @staticmethod
    def _read(real: Path, written: str, shown: str) -> MediaFile | str:
        if real.is_dir():
            return f"image {written!r} is a folder ({shown}); name the image file in it"
        try:
            size = real.stat().st_size
            if size > MAX_IMAGE_BYTES:
                return (f"image {written!r} is {_size(size)}, over the limit of "
                        f"{_size(MAX_IMAGE_BYTES)} per image (decks go to phones); resize it "
                        "or save it compressed (PNG for diagrams, JPEG for photos)")
            data = read_regular(real, MAX_IMAGE_BYTES)
        except NotRegularFile:
            return (f"image {written!r} is not a regular file but a named pipe, a device or a "
                    "socket (never opened); put the image file there")
        except FileNotFoundError:
            return f"image {written!r} not found (looked for {shown}); the path is relative " \
                   "to this question file"
        except OSError as exc:
            return f"image {written!r} cannot be read ({exc.strerror or exc})"
        kind = image_type(data)
        if kind is None:
            return (f"{written!r} is not an image the Anki apps show: its bytes are not PNG, "
                    "JPEG, GIF, WebP or SVG; save it as one of those")
        if why := image_problem(data, kind):
            return (f"image {written!r} cannot be shown on a card: {why}" + (
                "; export it again as a plain drawing, or as PNG" if kind == "svg" else ""))
        sha = hashlib.sha256(data).hexdigest()
        return MediaFile(name=f"nca-{sha[:16]}.{kind}", path=real.as_posix(), sha256=sha,
                         size=len(data))


def referenced(text: str, question_file: Path) -> tuple[Path, ...]:
    """The files ``text`` (a question file's) may show as images, found without parsing:
    every ``](path)`` after a ``![`` on its line that is a relative path, resolved against
    ``question_file``. More than the images (a link after an image is counted too), never
    fewer; and in time linear in the text (a pattern that scans from each ``![`` to its
    ``]`` took minutes over a line of 100,000 ``![``)."""
    if "![" not in text:
        return ()
    found = []
    for match in (m for line in text.splitlines() if (first := line.find("![")) >= 0
                  for m in _TARGET_RE.finditer(line, first)):
        written = unquote(match.group(1))
        if urlsplit(written).scheme or written.startswith("/"):
            continue
        found.append(question_file.parent / written)
    return tuple(dict.fromkeys(found))


def images_key(text: str, question_file: Path) -> str:
    """A hash of the names and bytes of the files ``text`` may show as images (an absent
    one counts as absent): an edited image changes it, so its topic is built again."""
    parts = []
    for path in referenced(text, question_file):
        try:
            digest = hashlib.sha256(read_regular(path, MAX_IMAGE_BYTES)).hexdigest()
        except OSError:  # absent, too large or not a file: its topic fails, and says why
            digest = "-"
        parts.append(f"{path.as_posix()}:{digest}")
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest() \
        if parts else ""
