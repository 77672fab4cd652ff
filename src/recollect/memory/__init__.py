"""Curated memory: markdown notes people trust, with a trust lifecycle and scored recall.

Files are the truth (`files.py`); their derived index.md / ROOT.md tables are compiled
(`compile.py`); recall scores them (`score.py`); the operations every surface calls are `recall.py` (reads),
`write.py` (remember, supersede, forget), `review.py` and `inspect.py` (compile, inspect), returning
the types of `results.py`; `inject.py` builds the block put in front of a model. Import from here:

    from recollect.memory import open_memory, recall, remember
    space = open_memory()  # global root + this project's .memory/
    remember(space, "Deploys use pnpm, not npm: the lockfile is pnpm's.", category="pitfalls")
    for hit in recall(space, "部署 deploy"):
        print(hit.memory.id, hit.why.terms)

Nothing here talks to the history index, and nothing here prints.
"""

from recollect.memory.audit import AuditEntry
from recollect.memory.files import (
    InvalidMemory,
    Memory,
    MemoryNotFound,
    MemoryOperationError,
    MemoryRoot,
    NotAllowed,
    SecretRefused,
    find_project_root,
)
from recollect.memory.inject import (
    INJECTION_END,
    INJECTION_MARKER,
    TURN_MARKER,
    injection_block,
    standing_block,
    turn_block,
)
from recollect.memory.inspect import compile_memory, inspect
from recollect.memory.recall import get_memory, list_memories, most_similar, proposals, read_log, recall
from recollect.memory.results import ForgetResult, Inspection, MemoryEntry, Problem, Recalled, RememberResult
from recollect.memory.review import accept, edit, reject
from recollect.memory.score import Why
from recollect.memory.settings import DEFAULT_CATEGORIES, MemorySettings
from recollect.memory.space import MemorySpace, effective_status, open_memory
from recollect.memory.write import forget, remember, supersede

__all__ = [
    "DEFAULT_CATEGORIES",
    "INJECTION_END",
    "INJECTION_MARKER",
    "TURN_MARKER",
    "AuditEntry",
    "ForgetResult",
    "Inspection",
    "InvalidMemory",
    "Memory",
    "MemoryEntry",
    "MemoryNotFound",
    "MemoryOperationError",
    "MemoryRoot",
    "MemorySettings",
    "MemorySpace",
    "NotAllowed",
    "Problem",
    "Recalled",
    "RememberResult",
    "SecretRefused",
    "Why",
    "accept",
    "compile_memory",
    "edit",
    "effective_status",
    "find_project_root",
    "forget",
    "get_memory",
    "injection_block",
    "inspect",
    "list_memories",
    "most_similar",
    "open_memory",
    "proposals",
    "read_log",
    "recall",
    "reject",
    "remember",
    "standing_block",
    "supersede",
    "turn_block",
]
