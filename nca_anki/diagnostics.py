"""Problems found in the user's input, as values.

Every stage returns diagnostics instead of raising, so one run reports every problem at
once. A diagnostic prints as ``path:line: severity: message`` (line 0: the whole file).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    severity: Severity
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line > 0 else self.path
        return f"{where}: {self.severity.value}: {self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def error(path: str, line: int, message: str) -> Diagnostic:
    return Diagnostic(path, line, Severity.ERROR, message)


def warning(path: str, line: int, message: str) -> Diagnostic:
    return Diagnostic(path, line, Severity.WARNING, message)


def clip(text: str, limit: int = 80) -> str:
    """Source text quoted in a message: stripped, and cut with '…' past ``limit``."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Sorted by path, then line, errors before warnings; duplicates dropped."""
    return tuple(sorted(set(diagnostics)))
