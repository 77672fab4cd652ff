"""Tool arguments: one declaration per parameter gives both the JSON schema the model reads and the
check the server applies to what it actually sent.

MCP hosts do not enforce schemas (OpenCode 1.18.33 forwards the model's JSON as written: no default
filling, no type check), so every default and every type is applied here. A bad value becomes an
`ArgumentError` whose text says exactly how to fix the call; it goes to the model verbatim.

This module imports nothing heavy: the server lists tools before the library is loaded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from recollect.errors import RecollectError

Kind = Literal["string", "integer", "boolean", "string_list"]


class ArgumentError(RecollectError, ValueError):
    """A tool was called with a missing, unknown or ill-typed argument; the text says how to fix it."""


def shown(value: Any) -> str:
    """A value as the model wrote it, short enough for an error line."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "…"


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind
    description: str
    required: bool = False
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()  # allowed strings (for string and string_list)
    max_length: int = 2_000  # per string, so a runaway argument cannot flood the library

    def schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"description": self.description}
        if self.kind == "string_list":
            item: dict[str, Any] = {"type": "string"}
            if self.choices:
                item["enum"] = list(self.choices)
            out.update(type="array", items=item)
        else:
            out["type"] = self.kind
            if self.choices:
                out["enum"] = list(self.choices)
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        if self.default is not None:
            out["default"] = self.default
        return out

    def _range(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"an integer between {self.minimum} and {self.maximum}"
        if self.minimum is not None:
            return f"an integer >= {self.minimum}"
        return "an integer"

    def _string(self, value: Any, what: str) -> str:
        if not isinstance(value, str):
            raise ArgumentError(f"{what} must be a string; got {shown(value)}")
        value = value.strip()
        if len(value) > self.max_length:
            raise ArgumentError(f"{what} is {len(value)} characters long; keep it under {self.max_length}")
        if self.choices and value not in self.choices:
            raise ArgumentError(f"{what} must be one of {', '.join(self.choices)}; got {shown(value)}")
        return value

    def check(self, value: Any) -> Any:
        """The value to use, or ArgumentError. `None` (the key absent, or JSON null) means the default."""
        if value is None or (isinstance(value, str) and not value.strip() and self.kind != "string_list"):
            if self.required:
                raise ArgumentError(f"{self.name} is required: {self.description}")
            return self.default
        if self.kind == "string":
            return self._string(value, self.name)
        if self.kind == "integer":
            number: Any = value
            # Models sometimes quote numbers ("5") or write 5.0; both are unambiguous.
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                number = int(value.strip())
            elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
                number = int(value)
            if isinstance(number, bool) or not isinstance(number, int):
                raise ArgumentError(f"{self.name} must be {self._range()}; got {shown(value)}")
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise ArgumentError(f"{self.name} must be {self._range()}; got {number}")
            return number
        if self.kind == "boolean":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                return value.strip().lower() == "true"
            raise ArgumentError(f"{self.name} must be true or false; got {shown(value)}")
        # string_list: a lone string is taken as a list of one (models often drop the brackets).
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list):
            raise ArgumentError(f'{self.name} must be a list of strings, like ["a", "b"]; got {shown(value)}')
        if len(items) > 50:
            raise ArgumentError(f"{self.name} takes at most 50 values; got {len(items)}")
        out = [self._string(v, f"each {self.name} value") for v in items]
        return [v for v in out if v]


@dataclass(frozen=True)
class Signature:
    """The parameters of one tool."""

    tool: str
    params: tuple[Param, ...]

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            # Hosts such as OpenCode add this anyway; saying it keeps every client honest.
            "additionalProperties": False,
        }

    def bind(self, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every parameter with its checked value or default; unknown names are refused, not ignored
        (a misspelt filter silently dropped would widen a search without anyone noticing)."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise ArgumentError(f"{self.tool} takes an object of named arguments; got {shown(arguments)}")
        known = {p.name for p in self.params}
        unknown = [k for k in arguments if k not in known]
        if unknown:
            raise ArgumentError(
                f"{self.tool} has no argument {shown(unknown[0])}; it takes: {', '.join(p.name for p in self.params)}"
            )
        return {p.name: p.check(arguments.get(p.name)) for p in self.params}
