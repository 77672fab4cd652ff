"""Reading JSON we did not write (agent stores, model replies): a value of the expected type, or a default."""

from __future__ import annotations

import json
from typing import Any, TypeVar

T = TypeVar("T")


def typed(value: Any, kind: type[T], default: T) -> T:
    """`value` if it is a `kind`, else `default`: a store's field is not always what its format says."""
    return value if isinstance(value, kind) else default


def parsed_json(text: Any, default: Any) -> Any:
    """`text` parsed when it is a string of JSON, else `default`. Stores keep JSON inside strings (tool
    arguments, payload columns); one that is not JSON, or nests too deep to parse, is not an error."""
    if not isinstance(text, str):
        return default
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return default
