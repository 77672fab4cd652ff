"""recollect: a local memory for coding agents.

History: search and read every session an agent already stored (read-only, through a
disposable sidecar index). Memory: curated markdown notes with a trust lifecycle.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

__version__ = "0.1.0"


def lazy_names(package: str, modules: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's module `__getattr__` (PEP 562) that imports each name of `modules` on first use and
    keeps it, so that importing the package costs only what its callers use. `modules` maps a name to
    the module holding it, absolute or relative to `package`, as "module" or, for a name the module
    spells otherwise, "module:name". Lives here, in the root package every module already loads."""

    def __getattr__(name: str) -> Any:
        import importlib  # here: a process that imports only light modules (the plugin helper) never loads it

        if name not in modules:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, spelled = modules[name].partition(":")
        value = getattr(importlib.import_module(module, package), spelled or name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
