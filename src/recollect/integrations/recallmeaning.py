"""Auto-recall's second signal, meaning, for when a cue message's words do not decide (autorecall.py).

Two uses, one model: the index's card vectors by the full multilingual card encoder (search by meaning
is on by default), or, without them, the static model that ships in the package.

- `rescue`: words proposed sessions that answered, but none covers enough of the message. The nearest
  of the best few by their cards decides.
- `nearest_said`: words proposed no session that answered at all. That is a question across the
  language gap ("retrying failed ingestion jobs" about a session held in Chinese) or a paraphrase
  sharing no word. The card vectors then propose the candidates (autorecall.propose). A card is
  a whole session cut to 400 characters, and across scripts its cosine to a question is low: 0.16 to
  0.29 for true answers, the same range as topics never discussed. So the check is made against what
  the session said, by clause: the first clause of its first question and of its first answer. A
  session is taken only when one of those means what the message asks (`PROPOSE_MEANING`).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from recollect.integrations.cues import strip_cues

if TYPE_CHECKING:
    from recollect.integrations.autorecall import Entry

# Below MIN_COVERAGE, the best session that answered still comes back when it covers RESCUE_COVERAGE and its
# card means the same as the message (cosine by the shipped static model): see `rescue`.
RESCUE_COVERAGE, RESCUE_MEANING = 0.1, 0.5
# The same by the full card encoder's stored card vectors, when the index holds them (`card_meaning`).
RESCUE_CARD_MEANING = 0.3
RESCUE_TRIES = 3  # sessions that answered which `rescue` (and `nearest_said`) compare, best first
# A clause of what a session said, by the card encoder, at this cosine to the message: the session
# answers it (`nearest_said`). On the four tuning sets (docs/loop.md, "Fifth pass"), of the cues that
# reach this check, topics never discussed come to at most 0.31 and true answers found to at least 0.41:
# the floor is between them.
PROPOSE_MEANING = 0.35
CLAUSE_CHARS = 200
# A clause ends at a sentence's end or a line's, in either script ("1.5" and "a.b" do not end one; a
# colon does not: "Decision: use TOML" is one).
_CLAUSE_END = re.compile(r"(?<=[。！？；\n])|(?<=[.!?;])(?=\s)")


class Remembered:
    """`model` with the vectors of the texts it embedded kept (the last VECTORS_KEPT), per process: the
    plugin helper lives as long as OpenCode, and the message and the first clauses of the same few
    sessions are embedded again and again (the encoder's tokenizer alone costs ~3 ms of CPU a clause)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.model_id = model.model_id

    def embed(self, texts: Sequence[str]) -> Any:
        import numpy as np

        if not texts:
            return self.model.embed([])  # the embedder's own empty (0, dim) array
        keys = [(self.model_id, t) for t in texts]
        with _KEPT_LOCK:
            missing = list(dict.fromkeys(t for t, key in zip(texts, keys, strict=True) if key not in _KEPT))
        # outside the lock: the encoder is the slow part
        made: Any = np.asarray(self.model.embed(missing), dtype=np.float32) if missing else []
        with _KEPT_LOCK:
            found = {key: _KEPT[key] for key in keys if key in _KEPT}
            found.update(((self.model_id, t), v) for t, v in zip(missing, made, strict=True))
            for key in keys:
                _KEPT[key] = found[key]
                _KEPT.move_to_end(key)
            while len(_KEPT) > VECTORS_KEPT:
                _KEPT.popitem(last=False)
        return np.stack([found[key] for key in keys])


VECTORS_KEPT = 2_048  # ~4 MB of the card encoder's vectors
_KEPT: OrderedDict[tuple[str, str], Any] = OrderedDict()
_KEPT_LOCK = threading.Lock()


def rescue(
    text: str, answered: list[Entry], meaning: Callable[[str, list[int]], dict[int, float] | None] | None = None
) -> list[Entry]:
    """One of the best few sessions that answered (best words first) whose card means the same as the
    message, when words alone did not decide: each covers less than MIN_COVERAGE of the message, or the
    message's Chinese was set aside (`Entry.one_script`). Words alone miss a paraphrase, an English
    question about a Chinese session and Chinese bigrams cut across words; meaning alone would fire on
    any nearby topic, so the session must still hold some of the message's words (RESCUE_COVERAGE).

    "The same": when the index holds the full card encoder's vectors for them (search by meaning on),
    the nearest of them by that encoder, at a cosine of at least RESCUE_CARD_MEANING; else the first at
    RESCUE_MEANING by the static model that ships in the package, against the card's title, first
    question, decisions and outcome (its English-Chinese alignment is weak, about 0.3)."""
    from recollect.history import static_similarity

    query = strip_cues(text)
    tries = answered[:RESCUE_TRIES]
    by_card = meaning(query, [e.sid for e in tries]) if meaning and tries else None
    if by_card is not None:
        for entry in tries:
            entry.meaning = by_card.get(entry.sid)
        best = max(tries, key=lambda e: e.meaning if e.meaning is not None else -1.0)
        return [best] if best.meaning is not None and best.meaning >= RESCUE_CARD_MEANING else []
    for entry in tries:
        entry.meaning = static_similarity(query, entry.gist)
        if entry.meaning is not None and entry.meaning >= RESCUE_MEANING:
            return [entry]
    return []


def card_meaning(conn: sqlite3.Connection, model: Any, query: str, sids: list[int] | None) -> dict[int, float] | None:
    """The cosine of `query` to each of `sids`' card vectors (every card when `sids` is None) by the full
    card encoder `model`, nearest first, when the index holds a vector for at least one and `model` is
    not None; else None."""
    from recollect.history import card_meaning_candidates

    if model is None:
        return None
    import numpy as np

    try:
        allowed = None if sids is None else np.asarray(sids, dtype=np.int64)
        found = card_meaning_candidates(conn, model, query, allowed)
    except Exception:  # meaning is a second signal: any failure leaves the words' answer
        return None
    return found or None


def clauses(text: str) -> list[str]:
    """The clauses of `text`, in order (longer than 3 characters), each cut to CLAUSE_CHARS."""
    out = (" ".join(clause.split()) for clause in _CLAUSE_END.split(text))
    return [clause[:CLAUSE_CHARS] for clause in out if len(clause) > 3]


def nearest_said(model: Any, text: str, said: dict[int, list[str]]) -> tuple[int, float] | None:
    """(sid, cosine) of the session one of whose texts (`said`, per sid) opens with the
    clause nearest `text` by `model`, or None when there is nothing to compare or the model fails. Only
    the first clause of each text: the card encoder costs ~5 ms of CPU per clause on the message's path."""
    import numpy as np

    owners: list[int] = []
    pieces: list[str] = []
    for sid, texts in said.items():
        for piece in texts:
            first = clauses(piece)[:1]
            owners.extend(sid for _ in first)
            pieces.extend(first)
    if not pieces:
        return None
    try:
        vectors = np.asarray(model.embed([strip_cues(text), *pieces]), dtype=np.float32)
    except Exception:  # a second signal: a failing model leaves the words' answer (silence)
        return None
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    vectors /= norms[:, None]
    scores = vectors[1:] @ vectors[0]
    best = int(np.argmax(scores))
    return owners[best], float(scores[best])
