"""Auto-recall's second signal, meaning, for when a cue message's words do not decide (autorecall.py):
no session that answered covers enough of the message's words. That is a paraphrase, a question across
the language gap ("retrying failed ingestion jobs" about a session held in Chinese, 提交信息的格式 about
"commit messages"), or a topic never discussed that shares a word or two with one that was.

- With the index's card vectors (the full multilingual card encoder; search by meaning is on by
  default), `stands_out` decides among the sessions that answered nearest the message's topic
  (autorecall.propose). The topic is the message without its frame (cues, question and meta words):
  across scripts the frame is most of what the encoder sees, and a short topic aligns with its
  translation far better than a whole question does. No one cosine separates the answers from the topics
  never discussed (on the tuning sets the answers' cards reach 0.14-0.69 and the never-discussed
  topics' nearest cards 0.07-0.45). What does is relative: the answer is the nearest session by two
  views at once, its card and what it said (the first clause of its first question and of its first
  answer), and it stands out from the next one in both. How far ahead is relative too: on a young store
  MEANING_MARGIN; among hundreds of sessions, whose cards crowd within a hair of each other near any
  topic, CROWD_LEAD standard deviations of the crowd's cosines, when that is less (a 1,000-session
  store: about 0.02). Before any of this a card's cosine is discounted by CROWDING times its crowding,
  the mean cosine of its card to its nearest other cards in the scope (`uncrowded`,
  search/crowding.py): hundreds of templated sessions lie near each other and near any question on
  their topic, and put the answer third or tenth by cosine alone; at 1,000 generated sessions the
  discount put it first for 153 of the 163 cue messages meaning ranked instead of 137.
- Without card vectors, `rescue`: the static model that ships in the package, against the card of each
  of the best few sessions the words proposed.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from recollect.integrations.cues import strip_cues

if TYPE_CHECKING:
    from recollect.integrations.autorecall import Entry

# Without card vectors, below MIN_COVERAGE the best session that answered still comes back when it covers
# RESCUE_COVERAGE and its card means the same as the message (cosine by the shipped static model): `rescue`.
RESCUE_COVERAGE, RESCUE_MEANING = 0.1, 0.5
RESCUE_TRIES = 3  # sessions that answered which `rescue` and `stands_out` compare, nearest first
# `stands_out`: the nearest session by its card and by what it said must lead the next one by MARGIN in
# both, and the mean of its two cosines must reach FLOOR. Chosen on two kept worlds (held-outs 2 and 4:
# the answer came back for 76 of 80 cues instead of 72, and 2 of 20 never-discussed topics fired instead
# of 3), then checked on three more (the first set, held-outs 1 and 3: 109 of 113 instead of 107, 2 of
# 18 instead of 4); docs/loop.md, "Sixth pass".
MEANING_MARGIN, MEANING_FLOOR = 0.05, 0.2
# Across the language gap the card encoder's cosines run lower (a Chinese question about a session held in
# English): the floor asked of a session is lowered by GAP_FLOOR of itself times how far apart the scripts
# of the topic and the session are (`floors`; history.script_gap, 0 the same script, 1 the other). Half:
# on the recorded steps of the nine tuning sets (bench/replay_recall.py) a quarter answered 3 cues more at
# 1,000 sessions and 4 alone, a half 5 and 6, the whole 5 and 8; none fired on a never-discussed topic
# (docs/loop.md, "At scale, eleventh session").
GAP_FLOOR = 0.5
# With no other session that answered near the topic (a young store), what it must lead is this cosine in
# both views: it must then be near on its own (0.35, the old absolute floor), as no neighbour shows the way.
MEANING_ALONE = 0.3
# Among many sessions (at least CROWD behind the nearest that answered) the lead is measured against how
# far apart the crowd's cosines lie: CROWD_LEAD standard deviations of theirs, if that is less than MARGIN.
CROWD, CROWD_LEAD = 8, 2.5
# A card's cosine to the topic is discounted by CROWDING times its crowding (`uncrowded`), measured for the
# CROWDING_POOL nearest cards.
CROWDING, CROWDING_POOL = 0.25, 64
# When only what a session said, discounted for crowding as its card is, makes it stand out, its card must
# lead by CROWDED_LEAD times the margin: 1 fired on 3 more never-discussed topics of the tuning sets, 1.5
# on none, 2 and more answered fewer cues (docs/loop.md, "At scale, tenth session").
CROWDED_LEAD = 1.5
CLAUSE_CHARS = 200
# `near_passage`: the session a block names first must hold a passage (a clause of its questions and
# answers) whose cosine to the topic reaches PASSAGE_FLOOR, lowered across the language gap as a session's
# floor is (GAP_FLOOR). A card speaks for a whole session: a topic never discussed lies near the card of the
# neighbouring subject ("rounding for multi-currency invoices" near the invoice mail queue's), not near
# anything it said. On the ten tuning sets it silenced one such topic in each world and cost no cue
# (docs/loop.md, "At scale, twelfth session"). Of its first PASSAGE_CHUNKS chunks, every chunk's opening
# clause first, then the others in order, PASSAGE_BATCH at a time and at most PASSAGE_CLAUSES: the card
# encoder costs a few ms a clause on the message's path, so a session that said nothing near costs at most
# ~16 of them (16 and 64 decide alike on the tuning sets; the first batch mostly decides).
PASSAGE_FLOOR = MEANING_FLOOR
PASSAGE_CHUNKS, PASSAGE_CLAUSES, PASSAGE_BATCH = 64, 16, 4
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


def rescue(text: str, answered: list[Entry]) -> list[Entry]:
    """Without card vectors: one of the best few sessions that answered (best words first) whose card
    means the same as the message, when words alone did not decide (each covers less than MIN_COVERAGE
    of the message, or the message's Chinese was set aside: `Entry.one_script`). Meaning alone would fire
    on any nearby topic, so the session must still hold some of the message's words (RESCUE_COVERAGE).
    "The same": the first at RESCUE_MEANING by the static model that ships in the package, against the
    card's title, first question, decisions and outcome (its English-Chinese alignment is weak, about 0.3)."""
    from recollect.history import static_similarity

    query = strip_cues(text)
    for entry in answered[:RESCUE_TRIES]:
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


def uncrowded(conn: sqlite3.Connection, model: Any, cosine: dict[int, float], scope: list[int]) -> dict[int, float]:
    """Each session's card cosine to the topic (`cosine`) less CROWDING times how crowded its card is among
    the scope's (`history.card_crowding`): of a hundred templated sessions near any question on their
    topic, none says more than the others; a card that stands alone does. Measured for the CROWDING_POOL
    nearest; the rest count as crowded as the most crowded of them."""
    from recollect.history import card_crowding

    pool = sorted(cosine, key=lambda sid: -cosine[sid])[:CROWDING_POOL]
    # Only the index's own errors fall back to the cosines as they are; a bug here is not hidden as a
    # silent change of decision: HookService.on_message logs it and the message gets no block.
    try:
        crowd = card_crowding(conn, model.model_id, pool, scope)
    except sqlite3.Error:
        crowd = {}
    if not crowd:
        return cosine
    most = max(crowd.values())
    return {sid: c - CROWDING * crowd.get(sid, most) for sid, c in cosine.items()}


def clauses(text: str) -> list[str]:
    """The clauses of `text`, in order (longer than 3 characters), each cut to CLAUSE_CHARS."""
    out = (" ".join(clause.split()) for clause in _CLAUSE_END.split(text))
    return [clause[:CLAUSE_CHARS] for clause in out if len(clause) > 3]


def said_meaning(model: Any, topic: str, said: dict[int, list[str]]) -> dict[int, float] | None:
    """Per sid, the cosine of `topic` to the nearest opening clause of the session's texts (`said`: its
    first question and first answer) by `model`; None when there is nothing to compare or the model
    fails. Only the first clause of each text: the card encoder costs ~5 ms of CPU per clause on the
    message's path."""
    owners: list[int] = []
    pieces: list[str] = []
    for sid, texts in said.items():
        for piece in texts:
            first = clauses(piece)[:1]
            owners.extend(sid for _ in first)
            pieces.extend(first)
    scores = cosines(model, topic, pieces) if pieces and topic.strip() else None
    if scores is None:
        return None  # a second signal: a failing model leaves the words' answer (silence)
    out: dict[int, float] = {}
    for sid, score in zip(owners, scores, strict=True):
        out[sid] = max(out.get(sid, -1.0), score)
    return out


def stands_out(
    by_card: dict[int, float],
    by_said: dict[int, float],
    margin: float = MEANING_MARGIN,
    floor: dict[int, float] | None = None,
    card_margin: float | None = None,
    floors: dict[int, float] | None = None,
) -> tuple[int, float] | None:
    """(sid, mean cosine) of the session that answers by meaning, among the few nearest that answered
    (`by_card`: their cards' cosines to the topic; `by_said`: their opening clauses'): the nearest by
    its card must be the nearest by what it said too, lead the next one by MEANING_MARGIN in both, and
    its two cosines must average MEANING_FLOOR (alone, it must lead MEANING_ALONE). `margin`: the lead
    asked for (MEANING_MARGIN, or less against a crowd: autorecall.propose). `floor`: per session, the mean
    of its two cosines when the views hold scores discounted for crowding (autorecall.uncrowded): the
    floor is of cosines. `card_margin`: the lead asked of the card, when it is not `margin`. `floors`: per
    session, the floor asked of it when it is not MEANING_FLOOR (across the language gap: `gap_floors`).
    None otherwise: two views that disagree, or a session only a little nearer than the rest, is how a
    topic never discussed looks."""
    if not by_card:
        return None
    first = max(by_card, key=lambda sid: by_card[sid])
    if first not in by_said or max(by_said, key=lambda sid: by_said[sid]) != first:
        return None
    card_lead = by_card[first] - max((v for sid, v in by_card.items() if sid != first), default=MEANING_ALONE)
    said_lead = by_said[first] - max((v for sid, v in by_said.items() if sid != first), default=MEANING_ALONE)
    leads = card_lead >= (margin if card_margin is None else card_margin) and said_lead >= margin
    mean = floor[first] if floor and first in floor else (by_card[first] + by_said[first]) / 2
    asked = floors.get(first, MEANING_FLOOR) if floors else MEANING_FLOOR
    return (first, mean) if leads and mean >= asked else None


def gap_floors(topic: str, texts: dict[int, str]) -> dict[int, float]:
    """Per session, the floor `stands_out` asks of it: MEANING_FLOOR, lowered by GAP_FLOOR of itself times how
    far apart the scripts of `topic` and of the session's `texts` (its title and first question) are."""
    from recollect.history import script_gap

    return {sid: MEANING_FLOOR * (1 - GAP_FLOOR * script_gap(topic, text)) for sid, text in texts.items()}


def stands_out_crowded(
    by_card: dict[int, float],
    cosines: dict[int, float],
    by_said: dict[int, float],
    margin: float,
    floors: dict[int, float] | None = None,
) -> tuple[int, float] | None:
    """`stands_out` on cards' scores discounted for crowding (`by_card`; `cosines`: their cosines) and
    what the sessions said (`by_said`). A templated session's first question is as crowded as its card:
    when what it said does not show one standing out, what it said discounted alike may; then its card
    must lead by CROWDED_LEAD times the margin. The floor is of cosines in both cases; `floors`: the floor
    asked of each session (`gap_floors`), MEANING_FLOOR when None."""
    discount = {sid: cosines.get(sid, v) - v for sid, v in by_card.items()}
    floor = {sid: (cosines.get(sid, v) + by_said.get(sid, -1.0)) / 2 for sid, v in by_card.items()}
    best = stands_out(by_card, by_said, margin, floor, floors=floors)
    if best is None:
        uncrowded_said = {sid: v - discount.get(sid, 0.0) for sid, v in by_said.items()}
        best = stands_out(by_card, uncrowded_said, margin, floor, CROWDED_LEAD * margin, floors)
    return best


def card_leads(by_card: dict[int, float], margin: float = MEANING_MARGIN) -> bool:
    """Whether the nearest session by its card leads the next one by `margin` (alone: MEANING_ALONE), or by
    CROWDED_LEAD times it if that is less, as `stands_out_crowded` asks of it whatever the sessions said:
    when it does not, what they said need not be embedded (the card encoder's few ms a clause, on the
    message's path)."""
    return bool(by_card) and _lead(by_card, max(by_card, key=lambda sid: by_card[sid])) >= min(
        margin, CROWDED_LEAD * margin
    )


def _lead(cosines: dict[int, float], first: int) -> float:
    return cosines[first] - max((v for sid, v in cosines.items() if sid != first), default=MEANING_ALONE)


def near_passage(conn: sqlite3.Connection, model: Any, topic: str, sid: int, classes: Sequence[str]) -> bool:
    """Whether session `sid` holds a clause of its chunks of `classes` (its questions and answers; which
    are read: PASSAGE_CHUNKS, PASSAGE_CLAUSES) whose cosine to `topic` by the card encoder `model` reaches
    PASSAGE_FLOOR, lowered by GAP_FLOOR of itself times the script gap between the topic and the clause.
    True when there is nothing to compare (no model, no topic, no clause) or the model fails: a second
    look, it silences only what it has read."""
    from recollect.history import script_gap

    if model is None or not topic.strip():
        return True
    marks = ",".join("?" * len(classes))
    rows = conn.execute(
        f"SELECT text FROM chunk WHERE sid = ? AND class IN ({marks}) ORDER BY id LIMIT ?",
        [sid, *classes, PASSAGE_CHUNKS],
    )
    read = [clauses(text) for (text,) in rows]
    # each chunk's opening clause first (what was said, `said_meaning`, has mostly been embedded already)
    pieces = [c[0] for c in read if c] + [clause for c in read for clause in c[1:]]
    pieces = pieces[:PASSAGE_CLAUSES]
    if not pieces:
        return True
    for start in range(0, len(pieces), PASSAGE_BATCH):
        batch = pieces[start : start + PASSAGE_BATCH]
        scores = cosines(model, topic, batch)
        if scores is None:
            return True
        floors = (PASSAGE_FLOOR * (1 - GAP_FLOOR * script_gap(topic, clause)) for clause in batch)
        if any(score >= floor for score, floor in zip(scores, floors, strict=True)):
            return True
    return False


def cosines(model: Any, topic: str, texts: list[str]) -> list[float] | None:
    """The cosine of `topic` to each of `texts` by `model`; None when the model fails."""
    import numpy as np

    try:
        vectors = np.asarray(model.embed([topic, *texts]), dtype=np.float32)
    except Exception:  # a second signal: a failing model changes no decision
        return None
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    vectors /= norms[:, None]
    return [float(score) for score in (vectors[1:] @ vectors[0]).tolist()]
