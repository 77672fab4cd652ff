"""Where a sentence ends, in either script: the one sentence splitter of ranking (search/novelty,
search/turns) and of the relays (text/relays).

Two splitters stay apart, for what they do differently: integrations/recallwords cuts at zero width
and keeps every character (its pieces put back together are the message, and it counts their
positions), and integrations/recallmeaning cuts clauses (at a semicolon too), not sentences.
"""

from __future__ import annotations

import re

# Latin sentences end at .!? before a space (not in "v1.2" or "e.g"); CJK ones at 。！？ with or without a
# space after (none is usual); a line break ends one too.
_ENDS = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")
_ENDS_OR_SEMICOLONS = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])\s*|\n+")


def sentences(text: str, *, semicolons: bool = False) -> list[str]:
    """The sentences of `text` in order, none blank; with `semicolons`, a CJK semicolon (；) ends one too
    (a Chinese answer strings its statements together with it)."""
    return [s for s in (_ENDS_OR_SEMICOLONS if semicolons else _ENDS).split(text) if s.strip()]
