"""A question's picture named by a key of a structured bank (``"image": "/images/q7.jpg"``).

A key whose every value is an image's path (by its extension) is the question's picture.
Its file is looked for where the bank's own app would find it: beside the bank, then in
the likely web roots (``public/``, ``static/``, ``assets/``) of the bank's folder and of
its parents (a leading ``/`` is the site's root, not the file system's), at most
``_UP`` folders up and never above a repository's root (a folder holding ``.git``).
Found, it is checked as any image a card shows (type by its bytes, size) and carried with
the question as Moodle's embedded files are (``Item.media``), shown above its prompt; not
found, the question is left out and named at its line: a card asking about "the picture
shown" without it would mislead."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from nca_anki.diagnostics import clip
from nca_anki.reading.images import image_problem, image_type
from nca_anki.reading.media import MAX_IMAGE_BYTES

_EXTENSIONS = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
_ROOTS = ("", "public", "static", "assets", "www", "web")
_UP = 3  # parents of the bank's folder looked in


def is_picture(value: object) -> bool:
    """Whether ``value`` names an image file: a path or URL ending in an image's
    extension."""
    if not isinstance(value, str) or not value.strip() or "\n" in value:
        return False
    path = urlsplit(value.strip()).path or value.strip()
    return path.casefold().endswith(_EXTENSIONS)


def picture_key(objects: list[dict[str, object]], keys: Iterable[str]) -> str | None:
    """The key among ``keys`` whose every non-empty value is an image's path (in at least
    one question); the first if several are."""
    for key in keys:
        held = [o[key] for o in objects if o.get(key) not in (None, "")]
        if held and all(is_picture(v) for v in held):
            return key
    return None


class Pictures:
    """Finds and reads the pictures of one bank file, each file once."""

    def __init__(self, bank: str) -> None:
        self.folder = Path(bank).parent
        self.read: dict[Path, tuple[bytes, str]] = {}

    def folders(self) -> list[Path]:
        """The bank's folder and its parents looked in, nearest first."""
        found = [self.folder]
        here = self.folder.resolve()
        for _ in range(_UP):
            if (here / ".git").exists() or here.parent == here:
                break
            here = here.parent
            found.append(here)
        return found

    def picture(self, written: str) -> tuple[str, bytes, str]:
        """The picture ``written`` names: its name for the question's text, its bytes; or
        "", b"" and why it cannot go with the question."""
        if urlsplit(written).scheme in ("http", "https") or written.startswith("//"):
            return written, b"", ""  # on the web: a link (convert.py says so)
        relative = unquote(urlsplit(written).path or written).lstrip("/")
        if not relative or ".." in PurePosixPath(relative).parts:
            return "", b"", f"its picture {clip(written, 60)!r} is no path inside the bank"
        for folder in self.folders():
            for root in _ROOTS:
                path = folder / root / relative
                if path.is_file():
                    data, why = self._read(path)
                    if why:
                        return "", b"", f"its picture {clip(written, 60)!r} {why}"
                    return PurePosixPath(relative).name, data, ""
        above = len(self.folders()) - 1
        return "", b"", (f"its picture {clip(written, 60)!r} is not there (looked in the "
                         f"bank's folder{f' and {above} above it' if above else ''}, and in "
                         f"their {', '.join(r + '/' for r in _ROOTS[1:4])}…)")

    def _read(self, path: Path) -> tuple[bytes, str]:
        if path not in self.read:
            self.read[path] = _checked(path)
        return self.read[path]


def _checked(path: Path) -> tuple[bytes, str]:
    try:
        if path.stat().st_size > MAX_IMAGE_BYTES:
            return b"", f"is larger than {MAX_IMAGE_BYTES:,} bytes (decks go to phones)"
        data = path.read_bytes()
    except OSError as exc:
        return b"", f"cannot be read: {exc.strerror or exc}"
    kind = image_type(data)
    if kind is None:
        return b"", "is not an image of a type cards show (PNG, JPEG, GIF, WebP or SVG)"
    if why := image_problem(data, kind):
        return b"", f"cannot be shown on a card: {why}"
    return data, ""
