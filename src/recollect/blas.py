"""One OpenBLAS thread for a process that searches, and whether this process has it.

OpenBLAS fixes its thread count when numpy is imported, from OPENBLAS_NUM_THREADS. A one-shot search or
an MCP server does small matrix products, where a second thread only spins beside the host, so they ask
for one thread before numpy is imported. Setting the variable after numpy's import changes nothing in
this process (only in its children), so it is set only before, and what this process runs on is known
here rather than guessed from the environment later.
"""

from __future__ import annotations

import os
import sys

_VARIABLE = "OPENBLAS_NUM_THREADS"
# Set before this process started (the user, or a parent such as the index's worker pool): numpy, not
# imported yet when recollect is, will read it.
_one_from_start = os.environ.get(_VARIABLE) == "1" and "numpy" not in sys.modules
_held_here = False


def hold_to_one_thread() -> None:
    """Ask for one BLAS thread, unless the user set their own or numpy has started OpenBLAS already."""
    global _held_here
    if "numpy" in sys.modules:
        return
    os.environ.setdefault(_VARIABLE, "1")
    _held_here = os.environ[_VARIABLE] == "1"


def one_thread() -> bool:
    """Whether OpenBLAS in this process runs on one thread because it was asked to before numpy started."""
    return _one_from_start or _held_here
