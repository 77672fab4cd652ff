"""How crowded a session's card is: the mean cosine of its card to the nearest other cards in a scope.

Among hundreds of sessions made from a few templates ("Fix pipeline failure in TestSavePipelineUnicode",
"Fix pipeline failure in TestSplitPipelineTimeout", ...), every card of the crowd lies near every other
and near any question that shares their topic words: their cosine to a question says less than the
cosine of a card that stands alone. Auto-recall (integrations/autorecall.py) discounts a card's cosine
by how crowded it is, the hubness correction of cross-lingual retrieval (CSLS), before it ranks the
sessions nearest a cue message's topic."""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections import OrderedDict
from typing import Any

from recollect.index.vectors import load_matrix

CROWDING_NEIGHBOURS = 10  # the nearest other cards a card's crowding is the mean cosine to
# A card's crowding in a scope holds until the index's vectors change: kept per process for the last few
# scopes (the plugin helper asks in the same project again and again; each card costs a row of cosines).
# Only for vectors still current: the entry holds its matrix weakly, and an entry whose matrix
# `load_matrix` has let go (the index's vectors changed) is dropped, so that what is kept never holds
# an old generation's arrays alive.
SCOPES_KEPT = 8
_KEPT: OrderedDict[tuple[int, str, int, int], tuple[weakref.ref[Any], tuple[int, ...], dict[int, float]]] = (
    OrderedDict()
)
_KEPT_LOCK = threading.Lock()


def card_crowding(
    conn: sqlite3.Connection, model_id: str, sids: list[int], scope: list[int], k: int = CROWDING_NEIGHBOURS
) -> dict[int, float]:
    """Per session of `sids` that has a card vector of `model_id`: the mean cosine of its card to the `k`
    nearest other cards of `scope` (fewer when the scope holds fewer). Empty when the scope holds fewer
    than two cards."""
    matrix = load_matrix(conn, model_id)
    members = tuple(sorted(scope))
    key = (id(matrix), model_id, k, hash(members))
    with _KEPT_LOCK:
        for old in [stale for stale, entry in _KEPT.items() if entry[0]() is None]:
            del _KEPT[old]  # its vectors are gone: a new generation replaced them
        kept = _KEPT.get(key)
        # the same vectors (not an object that took their id) and the same scope (not one of equal hash)
        if kept is None or kept[0]() is not matrix or kept[1] != members:
            kept = (weakref.ref(matrix), members, {})
        _KEPT[key] = kept
        _KEPT.move_to_end(key)
        while len(_KEPT) > SCOPES_KEPT:
            _KEPT.popitem(last=False)
        known = dict(kept[2])
    missing = [sid for sid in dict.fromkeys(sids) if sid not in known]
    if missing:
        made = _crowding(matrix, missing, scope, k)
        with _KEPT_LOCK:
            kept[2].update(made)
        known.update(made)
    return {sid: known[sid] for sid in sids if sid in known}


def _crowding(matrix: Any, sids: list[int], scope: list[int], k: int) -> dict[int, float]:
    import numpy as np

    cards = matrix.kinds == 1
    crowd_rows = np.flatnonzero(cards & np.isin(matrix.sids, np.asarray(scope, dtype=np.int64)))
    own_rows = np.flatnonzero(cards & np.isin(matrix.sids, np.asarray(sids, dtype=np.int64)))
    if len(crowd_rows) < 2 or not len(own_rows):
        return {}

    def unit(rows: Any) -> Any:
        slots = np.asarray(matrix.slots)[rows]
        vectors = np.asarray(matrix.matrix)[slots].astype(np.float32) * np.asarray(matrix.scales)[slots][:, None]
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return vectors / norms

    cosines = unit(own_rows) @ unit(crowd_rows).T
    cosines[matrix.sids[own_rows][:, None] == matrix.sids[crowd_rows][None, :]] = -np.inf  # not to itself
    k = max(1, min(k, len(crowd_rows) - 1))
    nearest = np.partition(cosines, -k, axis=1)[:, -k:]
    return {int(sid): float(v) for sid, v in zip(matrix.sids[own_rows].tolist(), nearest.mean(axis=1), strict=True)}
