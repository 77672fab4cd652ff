"""Reading JSON we did not write (agent stores, model replies): a value of the expected type, or a default."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def typed(value: Any, kind: type[T], default: T) -> T:
    """`value` if it is a `kind`, else `default`: a store's field is not always what its format says."""
    return value if isinstance(value, kind) else default
