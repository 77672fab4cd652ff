"""Long-session chat haystacks, like a multi-session chat benchmark's (issue 16), beside plain BM25.

A held-out benchmark of that kind gives each question its own haystack of about 40 chat sessions, each
a long conversation, most of them about something else; the answer is a fact stated once in passing,
sometimes spread over several sessions. The main eval's conversations are short (4-10 turns), so the
stages that only bite on long sessions (the candidate cap, coverage over a session's best chunks, the
turn pick) never did there. This run builds such haystacks from `longchat_world.py` with a fixed seed:

* `HAYSTACKS` haystacks of `SESSIONS` sessions, each session 15-40 turns drawn from two to four
  everyday topics (each sentence at most once a session, its slots filled per sentence);
* each haystack holds the gold sessions of about five stories (a story's turns inserted at a random
  place in a session about other things) and the stories' lures scattered into its other sessions;
* each haystack is its own OpenCode store, indexed alone by the real sync (so its statistics are a
  40-session haystack's), and every question runs through `recollect.history.search`, beside the
  engine with semantic search off, our own BM25 over chunks with every ranking stage off (`chunk_bm25`)
  and plain FTS5 (bm25 over the same parts), in the same run.

Categories: `lc_user` (a fact the person stated), `lc_assistant` (something the assistant said),
`lc_preference`, `lc_multi` (several sessions, also scored by all@5) and `lc_update` (a fact that
changed: both sessions are gold). Gold turns are the turns marked `*` in the stories.

    .venv/bin/python -m bench.eval.longchat            # the table, per category, beside FTS5
    .venv/bin/python -m bench.eval.longchat --ablate   # also every ranking stage off in turn
    .venv/bin/python -m bench.eval.longchat --heldout2 # the second held-out set (longchat_heldout2.py)
    .venv/bin/python -m bench.eval.longchat --heldout3 # the third held-out set (longchat_heldout3.py)
    .venv/bin/python -m bench.eval.longchat --heldout4 --final # the fourth, closed until the final run
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from bench.eval import longchat_world
from bench.eval.conversations import HOME, Conversation
from bench.eval.evaluate import Corpus, EvalQuery, EvalReport, QueryResult, run_corpus, run_queries
from bench.eval.longchat_world import Story, Topic
from recollect.redact import redact
from recollect.search.stages import STAGES
from recollect.search.stages import disabled as stages_disabled

HAYSTACKS = 10
SESSIONS = 40
SEED = 20261201
TURNS = (15, 40)
_SLOT = re.compile(r"\{(\w+)\}")
REAL_DATA = "shared/data/claude-code"  # real Claude Code transcripts (CC0), beside the repository
REAL_TOPIC = "real"  # the topic made of their text turns: people asking an agent for help with their machines
REAL_SHARE = 0.35  # of sessions that talk about it among their topics
FOLLOW_UPS = [
    "Wait, what do you mean by '{}'?",
    "You said '{}'. Why is that?",
    "Can you say more about the part with '{}'?",
    "I'm not sure about '{}'. Does that apply to me too?",
    "Is '{}' really true? I heard the opposite.",
    "How would '{}' work in practice?",
    "Sorry, '{}', can you explain that one again?",
    "Okay, '{}'. And what if that doesn't work?",
]
LIFE_UPDATE = 0.12  # of a person's turns that mention someone else's news in passing
# --heldout N: the material, the haystacks' name prefix
HELD_OUT = {
    1: ("longchat_heldout", "lh"),
    2: ("longchat_heldout2", "lh2-"),
    3: ("longchat_heldout3", "lh3-"),
    4: ("longchat_heldout4", "lh4-"),
}


@dataclass
class Haystack:
    name: str
    conversations: list[Conversation]
    questions: list[EvalQuery] = field(default_factory=list)


def _fill(text: str, rng: random.Random, slots: dict[str, list[str]]) -> str:
    return _SLOT.sub(lambda m: rng.choice(slots[m.group(1)]), text)


def find_real_data(start: Path | None = None) -> Path | None:
    """The shared real transcripts: `shared/data/claude-code` in the repository's directory or a parent."""
    here = (start or Path(__file__)).resolve()
    for base in here.parents:
        if (base / REAL_DATA).is_dir():
            return base / REAL_DATA
    return None


def real_topic(directory: Path) -> Topic:
    """What people typed to their agent and the paragraphs it answered with, from real transcripts
    (redacted as the index would; command wrappers, errors and code blocks left out)."""
    user: list[str] = []
    said: list[str] = []
    for path in sorted(directory.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            content = (record.get("message") or {}).get("content") if isinstance(record, dict) else None
            texts = [content] if isinstance(content, str) else [
                p.get("text", "") for p in content or [] if isinstance(p, dict) and p.get("type") == "text"
            ]  # fmt: skip
            for text in texts:
                if record.get("type") == "user" and 15 <= len(text) <= 600 and not text.lstrip().startswith("<"):
                    user.append(redact(" ".join(text.split())).replace("{", "(").replace("}", ")"))
                elif record.get("type") == "assistant":
                    for para in re.split(r"\n\s*\n", text):
                        flat = " ".join(para.split())
                        if 40 <= len(flat) <= 900 and not flat.startswith(("`", "|", "#", "API Error")):
                            said.append(redact(flat).replace("{", "(").replace("}", ")"))
    return Topic(user=sorted(set(user)), assistant=sorted(set(said)))


class _Talk:
    """One session's supply of things to say: its topics in turn, every sentence at most once."""

    def __init__(self, rng: random.Random, topics: dict[str, Topic], world: ModuleType) -> None:
        self.rng = rng
        self.world = world
        written = sorted(t for t in topics if t != REAL_TOPIC)
        self.topics = rng.sample(written, rng.choice((2, 3, 3, 4)))
        if REAL_TOPIC in topics and rng.random() < REAL_SHARE:
            self.topics[rng.randrange(len(self.topics))] = REAL_TOPIC
        # Half of a topic's requests at most, so two sessions on one topic rarely ask all the same things.
        self.user = {t: rng.sample(topics[t].user, min((len(topics[t].user) + 1) // 2, 40)) for t in self.topics}
        self.said = {t: rng.sample(topics[t].assistant, min(len(topics[t].assistant), 120)) for t in self.topics}
        self.current = 0
        self.last = ""  # the assistant's last sentence, which a follow-up question may pick up

    def _topic(self, pool: dict[str, list[str]]) -> str | None:
        for step in range(len(self.topics)):
            topic = self.topics[(self.current + step) % len(self.topics)]
            if pool[topic]:
                self.current = (self.current + step) % len(self.topics)
                return topic
        return None

    def ask(self) -> str:
        if self.rng.random() < 0.2:
            self.current = (self.current + 1) % len(self.topics)  # the talk drifts to the next topic
        topic = self._topic(self.user)
        roll = self.rng.random()
        if self.last and (topic is None or roll < 0.35):
            said = self.rng.choice(getattr(self.world, "FOLLOW_UPS", FOLLOW_UPS)).format(self._clause(self.last))
        elif topic is None or roll < 0.4:
            said = self._fill(self.rng.choice(self.world.USER_ASIDES))
        else:
            said = self._fill(self.user[topic].pop())
        if self.rng.random() < LIFE_UPDATE:
            news = self._fill(f"{self.rng.choice(self.world.RELATIONS)} {{name}} {self.rng.choice(self.world.EVENTS)}.")
            said = f"{news} {said}" if self.rng.random() < 0.5 else f"{said} {news}"
        return said

    def _fill(self, text: str) -> str:
        return _fill(text, self.rng, self.world.SLOTS)

    def _clause(self, sentence: str) -> str:
        """A few words of a sentence, as a person quotes back what they were told."""
        words = re.sub(r"[^\w\s'-]", "", sentence).split()
        start = self.rng.randrange(0, max(1, len(words) - 6))
        return " ".join(words[start : start + self.rng.randint(3, 7)]).lower()

    def answer(self) -> str:
        asides = self.world.ASSISTANT_ASIDES
        parts = [self.rng.choice(asides)] if self.rng.random() < 0.15 else []
        for _ in range(self.rng.randint(2, 5)):
            topic = self._topic(self.said)
            if topic is None:
                break
            parts.append(self._fill(self.said[topic].pop()))
        self.last = parts[-1] if parts else ""
        return " ".join(parts) or self.rng.choice(asides)


def _session(
    rng: random.Random, topics: dict[str, Topic], evidence: list[str] | None, world: ModuleType
) -> tuple[list[str], list[int]]:
    """A session's turns (person first, alternating) and the turn numbers the evidence's gold turns got."""
    talk = _Talk(rng, topics, world)
    count = rng.randint(*TURNS)
    block = list(evidence or [])
    at = rng.randrange(0, count - len(block), 2) if block else -1
    turns: list[str] = []
    gold: list[int] = []
    while len(turns) < count:
        n = len(turns)
        if block and n >= at and n % 2 == (0 if block[0].lstrip("*").startswith("u:") else 1):
            raw = block.pop(0)
            starred, text = raw.startswith("*"), raw.lstrip("*")[2:]
            if raw.lstrip("*").startswith("u:") and not (block and block[0].lstrip("*").startswith("a:")):
                # A fact stated in passing, beside whatever the person wanted to talk about.
                aside = talk.ask()
                text = f"{text} {aside}" if rng.random() < 0.5 else f"{aside} {text}"
            turns.append(text)
            if starred:
                gold.append(n)
            continue
        turns.append(talk.ask() if n % 2 == 0 else talk.answer())
    return turns, gold


def _title(first: str) -> str:
    """A title like the one an agent gives a chat: the opening request, cut at a word."""
    words = first.split()
    title = ""
    for w in words:
        if len(title) + len(w) > 48:
            break
        title = f"{title} {w}".strip()
    return title.rstrip(",.?!:;")


def build_haystacks(
    seed: int = SEED,
    count: int = HAYSTACKS,
    sessions: int = SESSIONS,
    real: Path | None = None,
    world: ModuleType = longchat_world,
    prefix: str = "lc",
) -> list[Haystack]:
    """`count` haystacks of `sessions` sessions, the stories dealt among them; deterministic in `seed`
    (and in the real transcripts at `real`, whose text some sessions talk about; none if None). `world`
    is the material (`longchat_world`, the tuning set; `longchat_heldout`, `longchat_heldout2`, held out).
    A world's `WHEN` gives, for a question that says when ("last month"), the days-ago range of each of
    its gold sessions; the other gold sessions get a random age."""
    from bench.eval.build_corpus import _conv_id

    topics = dict(world.TOPICS)
    when: dict[str, list[tuple[float, float]]] = getattr(world, "WHEN", {})
    if real is not None:
        topics[REAL_TOPIC] = real_topic(real)
    rng = random.Random(seed)
    stories = rng.sample(world.STORIES, len(world.STORIES))
    dealt: list[list[Story]] = [stories[i::count] for i in range(count)]
    out: list[Haystack] = []
    for h, mine in enumerate(dealt):
        name = f"{prefix}{h:02d}"
        planned: list[tuple[Story | None, list[str] | None, float]] = []
        for story in mine:
            if story.id in when:  # the question says when; still one draw a session
                ages = [rng.uniform(low, high) for low, high in when[story.id]]
            else:
                ages = sorted((rng.uniform(2, 360) for _ in story.sessions), reverse=True)  # told in this order
            planned += [(story, turns, age) for turns, age in zip(story.sessions, ages, strict=True)]
        planned += [(None, None, rng.uniform(1, 360)) for _ in range(max(0, sessions - len(planned)))]
        rng.shuffle(planned)
        hay = Haystack(name, [])
        gold: dict[str, tuple[list[str], list[str]]] = {s.id: ([], []) for s in mine}
        owner: list[str | None] = []
        for i, (told, evidence, age) in enumerate(planned):
            slug = f"{name}-{i:02d}"
            turns, gold_turns = _session(rng, topics, evidence, world)
            hay.conversations.append(Conversation(slug, _title(turns[0]), round(age, 2), turns, HOME))
            owner.append(told.id if told else None)
            if told is not None:
                gold[told.id][0].append(_conv_id("ses", slug))
                gold[told.id][1].extend(_conv_id("msg", slug, n) for n in gold_turns)
        for story in mine:  # lures: the question's words, without its answer, in sessions that are not its own
            others = [c for c, o in zip(hay.conversations, owner, strict=True) if o != story.id]
            for lure in story.lures:
                conv = rng.choice(others)
                n = rng.randrange(1, len(conv.turns), 2)
                conv.turns[n] = f"{conv.turns[n]} {lure}"
        hay.questions = [
            EvalQuery(f"{name}-{s.id}", s.question, s.category, gold[s.id][0], gold[s.id][1], note=f"story {s.id}")
            for s in mine
        ]
        out.append(hay)
    return out


def evaluate_longchat(
    *,
    ablate: bool = False,
    count: int = HAYSTACKS,
    categories: Sequence[str] = (),
    seed: int = SEED,
    real: Path | None = None,
    heldout: int = 0,
) -> EvalReport:
    """Index every haystack alone and score its questions; one report over all of them. `heldout` 1, 2 or 3:
    the held-out haystacks of `longchat_heldout.py`, `longchat_heldout2.py` or `longchat_heldout3.py` (each
    with its own seed), written before they were first run."""
    from bench.eval.build_corpus import write_conversation_store

    started = time.perf_counter()
    ours: list[QueryResult] = []
    fts5: list[QueryResult] = []
    others: dict[str, list[QueryResult]] = {}
    queries: list[EvalQuery] = []
    sessions = 0
    index_seconds = 0.0
    with tempfile.TemporaryDirectory(prefix="recollect-longchat-") as tmp:
        if heldout:
            name, prefix = HELD_OUT[heldout]
            world = importlib.import_module(f"bench.eval.{name}")
            built = build_haystacks(world.SEED, count, real=real, world=world, prefix=prefix)
        else:
            built = build_haystacks(seed, count, real=real)
        for hay in built:
            questions = [q for q in hay.questions if not categories or q.category in categories]
            if not questions:
                continue
            store = Path(tmp) / hay.name
            store.mkdir()
            write_conversation_store(hay.conversations, store / "opencode.db", store / f"{hay.name}.db.gz")
            with Corpus(store, stores={f"{hay.name}.db.gz": f"longchat-{hay.name}"}) as corpus:
                corpus.check_gold(questions)
                report = run_corpus(corpus, questions, lexical=True, ablate=ablate)
                with stages_disabled(*STAGES):  # our own BM25 over chunks, every ranking stage off
                    report.others["chunk_bm25"] = run_queries(questions, corpus.search)
            queries += questions
            ours += report.ours
            fts5 += report.fts5 or []
            for key, results in report.others.items():
                others.setdefault(key, []).extend(results)
            sessions += report.corpus_sessions
            index_seconds += report.index_seconds
    return EvalReport(queries, ours, fts5, sessions, index_seconds, time.perf_counter() - started, others)


def main(argv: list[str] | None = None) -> int:
    from bench.eval.cli import _ablation_table, _print_failures, _table
    from recollect.cli.output import console, print_json, print_table

    ap = argparse.ArgumentParser(prog="python -m bench.eval.longchat", description=__doc__.split("\n\n")[0])
    ap.add_argument("--ablate", action="store_true", help="also every ranking stage off in turn")
    held = ap.add_mutually_exclusive_group()
    held.add_argument(
        "--heldout",
        action="store_const",
        const=1,
        default=0,
        help="the held-out haystacks (longchat_heldout.py) instead",
    )
    held.add_argument(
        "--heldout2",
        dest="heldout",
        action="store_const",
        const=2,
        help="the second held-out haystacks (longchat_heldout2.py) instead",
    )
    held.add_argument(
        "--heldout3",
        dest="heldout",
        action="store_const",
        const=3,
        help="the third held-out haystacks (longchat_heldout3.py) instead",
    )
    held.add_argument(
        "--heldout4",
        dest="heldout",
        action="store_const",
        const=4,
        help="the fourth held-out haystacks (longchat_heldout4.py; closed until the final run) instead",
    )
    ap.add_argument("--haystacks", type=int, default=HAYSTACKS, help=f"how many haystacks [{HAYSTACKS}]")
    ap.add_argument("--category", action="append", default=[], help="only this category (repeatable)")
    ap.add_argument("--failures", type=int, default=20, help="failing questions to list [20]")
    ap.add_argument("--json", action="store_true", help="the full report, per question, as JSON")
    ap.add_argument("--real", type=Path, help=f"real transcripts to draw from [{REAL_DATA} beside the repository]")
    ap.add_argument("--no-real", action="store_true", help="only the written topics")
    ap.add_argument("--final", action="store_true", help="the session's final run: the held-out set may be run")
    args = ap.parse_args(argv)
    if args.heldout:
        from bench.heldout import refuse_held_out

        refuse_held_out(HELD_OUT[args.heldout][0], "longchat", args.final)  # the closed set runs at the end only
    real = None if args.no_real else args.real or find_real_data()
    if real is None and not args.no_real:
        print(f"{REAL_DATA} not found beside the repository: pass --real DIR, or --no-real for the written topics only")
        return 2
    report = evaluate_longchat(
        ablate=args.ablate, count=args.haystacks, categories=args.category, real=real, heldout=args.heldout
    )
    if args.json:
        print_json(report.to_dict())
        return 0
    out = console()
    print_table(out, _table(report))
    chunk = report.summary().get("others", {}).get("chunk_bm25", {}).get("overall")
    if chunk:
        figures = " ".join(f"{k} {chunk[k]:.3f}" for k in ("mrr", "recall@5", "turn@5", "all@5") if k in chunk)
        print(f"our BM25 over chunks, every ranking stage off: {figures}")
    if args.ablate:
        for metric in ("mrr", "recall@5", "all@5", "turn@5"):
            print_table(out, _ablation_table(report, metric))
        print("* = better with that stage off")
    print(f"{report.seconds:.1f}s (indexing {report.index_seconds:.1f}s)")
    _print_failures(report, args.failures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
