"""Problems found in the user's input, as values.

Every stage returns diagnostics instead of raising, so one run reports every problem at
once. A diagnostic prints as ``path:line: severity[CODE]: message`` (line 0: the whole
file); its code (nca_anki/codes.py) names the kind of problem and never changes meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from collections.abc import Iterable

from nca_anki.codes import CODES


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True, kw_only=True)
class Diagnostic:
    path: str
    line: int
    severity: Severity
    message: str
    code: str  # nca_anki/codes.py; its letter is the severity (E, W)
    # The fingerprint of the question it is about (Question.fingerprint), to acknowledge
    # it by; "" if it is about no one question (reading/acknowledged.py).
    question: str = ""

    def __str__(self) -> str:
        return f"{self.where}: {self.severity.value}[{self.code}]: {self.message}"

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line > 0 else self.path

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


def error(code: str, path: str, line: int, message: str) -> Diagnostic:
    assert code in CODES and code[0] == "E", f"not an error code: {code}"
    return Diagnostic(path=path, line=line, severity=Severity.ERROR, message=message, code=code)


def warning(code: str, path: str, line: int, message: str) -> Diagnostic:
    assert code in CODES and code[0] == "W", f"not a warning code: {code}"
    return Diagnostic(path=path, line=line, severity=Severity.WARNING, message=message, code=code)


def clip(text: str, limit: int = 80) -> str:
    """Source text quoted in a message: stripped, and cut with '…' past ``limit``."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_about_sources(d: Diagnostic) -> bool:
    """A warning about what the authors wrote (question files, settings: codes W1xx, W2xx),
    which --strict fails a build for; not one about the build's own events (a question
    removed, a cache not kept, a publish finished), which would fail it for no fault."""
    return not d.is_error and d.code[1] in "12"


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Sorted by path, then line, errors before warnings; duplicates dropped."""
    return tuple(sorted(set(diagnostics)))
