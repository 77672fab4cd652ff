"""JSON in and out: a value of the expected type from JSON we did not write (agent stores, model
replies, JSON inside a string), and the plain object a result's `to_dict` returns."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection
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


def plain(result: Any, *, omit: Collection[str] = (), **values: Any) -> dict[str, Any]:
    """A dataclass `result` as a JSON object: its fields by name in their declared order, values as
    they are (nested results are the caller's to convert), leaving out those in `omit`. Each of
    `values` replaces the value of the field it names, in its place; the others (new keys, and
    omitted fields given again) follow, in the order given."""
    data = {f.name: getattr(result, f.name) for f in dataclasses.fields(result) if f.name not in omit}
    data.update(values)
    return data
