"""``computed_once``: a property computed on first use and kept on the instance.

functools.cached_property does the same, but on Python 3.11 it takes a lock on every first
access (removed in 3.12), which made a per-question property cost more than its work
(measured: 0.1 s over 10,000 questions read from the parse cache). This one takes none: a
value computed twice by racing threads is the same value. Works on frozen dataclasses
(it writes the instance's ``__dict__`` directly); not with ``__slots__``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class computed_once(Generic[T]):
    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> computed_once[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object, owner: type | None = None) -> T | computed_once[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value
