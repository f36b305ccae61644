"""Which format an input is in: by its extension first, then by its content when the
extension says nothing (``.txt``, none) or is not one a bank uses. ``--from`` overrides.

Also which files of a folder given as an input may be banks: every file, at any depth,
whose extension is one of ``EXTENSIONS`` or ``.txt`` (told by content). Hidden folders,
``node_modules`` and the like are skipped; a file that holds no questions (a README) is
skipped with a warning (run.py).
"""

from __future__ import annotations

import re
from pathlib import PurePath

EXTENSIONS = {
    ".json": "json", ".yaml": "yaml", ".yml": "yaml",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".js": "typescript", ".jsx": "typescript", ".mjs": "typescript", ".cjs": "typescript",
    ".md": "markdown", ".markdown": "markdown",
    ".gift": "gift",
    ".csv": "csv", ".tsv": "tsv",
    ".xml": "moodle-xml",
    ".aiken": "aiken",
}
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "dist", "build",
                             "site-packages"})

_AIKEN_RE = re.compile(r"^ANSWER:\s*[A-Z]\s*$", re.M)
_GIFT_RE = re.compile(r"^\s*(?:::[^\n]*?::|\$CATEGORY:)|\{\s*(?:[=~]|T\s*\}|F\s*\}|TRUE|FALSE)",
                      re.M)
_TASK_RE = re.compile(r"^\s{0,3}[-*+]\s+\[[ xX]\]", re.M)
_MARKDOWN_RE = re.compile(r"^\s{0,3}(?:#{1,6}\s|[-*+]\s+\[[ xX]\]|\d{1,3}[.)]\s)", re.M)


def detect(path: str, text: str) -> str | None:
    """The format of ``text`` (read from ``path``), or None if it is none this reads."""
    ext = PurePath(path).suffix.casefold()
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith(("{", "[")):
        return "json"
    if head.startswith("<") and ("<quiz" in head or "<question" in head):
        return "moodle-xml"
    if _AIKEN_RE.search(text):
        return "aiken"
    if _GIFT_RE.search(text):
        return "gift"
    if _TASK_RE.search(text) or _MARKDOWN_RE.search(head):
        return "markdown"
    if re.match(r"(?:export|const|let|var|module\.exports|window\.)\b", head):
        return "typescript"
    first = head.split("\n", 1)[0]
    if first.count("\t") >= 2:
        return "tsv"
    if first.count(",") >= 2:
        return "csv"
    return None


def bank_files(names: list[str]) -> list[str]:
    """Of a folder's files (relative POSIX paths, sorted), those that may be banks."""
    return [n for n in names
            if PurePath(n).suffix.casefold() in (*EXTENSIONS, ".txt")  # .txt: by content
            and not any(part.startswith(".") or part in SKIPPED_FOLDERS
                        for part in PurePath(n).parts[:-1])
            and not PurePath(n).name.startswith(".")
            and PurePath(n).name.casefold() not in ("package.json", "package-lock.json",
                                                    "tsconfig.json", "composer.json")]
