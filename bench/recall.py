"""Section 7: does what the person said in earlier sessions reach the request of a new session?

A LoCoMo-format conversation (one file holds a list of samples, or one sample) is replayed
through the real turn path: the services convmem/composition.py builds for the API, fold,
facts and profile functions, on in-process moto (mock_aws) with the template's resources and
the local model. ``speaker_a`` is the visitor; the other party's recorded words are the agent's
reply (a scripted model returns them; extraction, folding and the profile are the local
model's own). How utterances become turns:

- consecutive utterances of one speaker are one message (joined by a new line), so a turn is
  a run of the visitor's utterances and the run of the other party's that follows;
- a session that opens with the other party: the visitor's row of that first turn is the
  placeholder ``(…)`` (no words: nothing of it is learnt or counted as a topic); a visitor run nobody answered gets the reply
  ``(no reply recorded)``;
- a shared photo is part of the utterance as ``[shares a photo: <caption>]`` (for every system).

A fake clock stands at each session's ``date_time`` (plus a minute a turn), so rows and facts
carry when things were said. After every turn the facts job and the fold job the turn path would
have queued run on the real consumer services; after every session the scheduled profile
refresh runs. Then each question whose evidence turns are all the visitor's (categories 1
multi-hop, 2 temporal, 3 open-domain, 4 single-hop; 5 adversarial and questions with the other
party's evidence are skipped) is asked as the first turn of a new session, a day after the last
session, and the model request is captured. Only the request's context counts: its blocks
(profile, facts, summary, ...) and history, not the system prompt nor the question itself.

Baselines, searched with the same matcher (bench/recall_match.py):
- window: the last 12 messages (stored rows) of the last session;
- bm25@N: every earlier raw utterance ('Speaker: text', no dates: a raw store keeps what was
  said), ranked by convmem's own BM25 (domain/relevance.py) against the question, taken in
  rank order while they fit N tokens; bm25@memory uses, question by question, the tokens
  convmem's memory used;
- stored: everything convmem keeps of the person (every stored fact and the profile, no budget):
  the ceiling of any recall over its memory. A question convmem misses that ``stored`` holds is
  lost to ranking or the budget; one ``stored`` misses too, to extraction (or the answer is an
  inference no stored words hold);
- whole: the whole history, every session under its date.

Temporal questions (category 2) also report ``resolved``: the request names a date inside the
range the answer denotes (rule 4 of the matcher).

Attribution: a conversation of the project's set lists ``other_party_terms`` (an extension
field LoCoMo readers ignore): the other party's own things (their pet's name, their job...).
A stored fact containing one attributes the other party's things to the visitor, unless it only
turns them down by name ("They'll pass on Headspace": the visitor's own preference, reported
apart as ``other_party_declined``).

    .venv/bin/python -m bench.recall                          # the project's set (+ LoCoMo if present)
    .venv/bin/python -m bench.recall --conversations FILE ... --budget 300 1000
    .venv/bin/python -m bench.recall --quick                  # two sessions of a few project conversations
    .venv/bin/python -m bench.recall --via http               # the same replay over HTTP on a local stack:
                                                              # exchanges and context (HttpStack)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.common import emit, fig
from bench.recall_match import Request

ROOT = Path(__file__).resolve().parent.parent

PROJECT_SET = ROOT / "bench" / "conversations"
LOCOMO_DEFAULT = ROOT.parent / "shared" / "data" / "locomo" / "locomo-dev.json"
LOCOMO_ATTRIBUTION = ("LoCoMo: Maharana et al., 'Evaluating Very Long-Term Conversational Memory of LLM Agents', "
                      "ACL 2024; CC BY-NC 4.0; read from its path, never copied into this repository")
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
OPENING_PLACEHOLDER = "(…)"
NO_REPLY = "(no reply recorded)"
QUESTION_REPLY = "(benchmark question: the reply is not measured)"
WINDOW = 12
QUICK_PER_LANGUAGE = 4  # project files of each language the smoke run replays
DEFAULT_BUDGETS = (300, 1000)
GOAL_PRESENT, GOAL_MEMORY_TOKENS, GOAL_TEMPORAL = 0.75, 1000, 0.50


# --- the conversation file ---------------------------------------------------------------------
@dataclass(frozen=True)
class Utterance:
    dia_id: str
    speaker: str
    text: str
    session: int


@dataclass(frozen=True)
class Turn:
    visitor: str
    reply: str
    dia_ids: tuple[str, ...]


@dataclass
class Session:
    number: int
    at: datetime
    utterances: list[Utterance]
    turns: list[Turn] = field(default_factory=list)


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    category: int
    evidence: tuple[str, ...]


@dataclass
class Conversation:
    name: str
    source: str
    speaker_a: str
    speaker_b: str
    sessions: list[Session]
    questions: list[Question]
    language: str = "en"
    other_party_terms: list[str] = field(default_factory=list)


_DATE_TIME = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})", re.I)


def parse_date_time(value: str) -> datetime:
    """LoCoMo's session time, '1:56 pm on 8 May, 2023', as an aware UTC datetime."""
    m = _DATE_TIME.search(value)
    if not m:
        raise ValueError(f"unrecognised session date_time {value!r}")
    hour = int(m[1]) % 12 + (12 if m[3].lower() == "pm" else 0)
    day = datetime.strptime(f"{m[4]} {m[5][:3]} {m[6]}", "%d %b %Y")
    return day.replace(hour=hour, minute=int(m[2]), tzinfo=UTC)


def utterance_text(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", "")).strip()
    caption = turn.get("blip_caption")
    return f"{text} [shares a photo: {caption}]" if caption else text


def pair_turns(utterances: list[Utterance], visitor: str) -> list[Turn]:
    """Runs of one speaker become one message; a visitor run and the other party's run after it
    are one turn (see the module docstring for the two edge cases)."""
    runs: list[tuple[str, list[Utterance]]] = []
    for u in utterances:
        if runs and runs[-1][0] == u.speaker:
            runs[-1][1].append(u)
        else:
            runs.append((u.speaker, [u]))
    turns, i = [], 0
    while i < len(runs):
        speaker, run = runs[i]
        if speaker == visitor:
            reply = runs[i + 1][1] if i + 1 < len(runs) else []
            i += 2 if reply else 1
            visitor_text = "\n".join(u.text for u in run)
        else:
            reply, run, i = run, [], i + 1
            visitor_text = OPENING_PLACEHOLDER
        turns.append(Turn(visitor_text, "\n".join(u.text for u in reply) or NO_REPLY,
                          tuple(u.dia_id for u in (*run, *reply))))
    return turns


def load_conversations(path: Path, source: str) -> list[Conversation]:
    """Every sample of a LoCoMo-format file (a list of samples, or one)."""
    import json

    data = json.loads(path.read_text())
    samples = data if isinstance(data, list) else [data]
    out = []
    for n, sample in enumerate(samples):
        conv = sample["conversation"]
        a, b = conv["speaker_a"], conv["speaker_b"]
        numbers = sorted(int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k) and conv[k])
        sessions = []
        for s in numbers:
            utterances = [Utterance(str(t["dia_id"]), t["speaker"], utterance_text(t), s) for t in conv[f"session_{s}"]]
            session = Session(s, parse_date_time(conv[f"session_{s}_date_time"]), utterances)
            session.turns = pair_turns(utterances, a)
            sessions.append(session)
        questions = [
            Question(str(q["question"]), str(q.get("answer", q.get("adversarial_answer", ""))), int(q["category"]),
                     tuple(e.strip() for ev in q.get("evidence", []) for e in re.split(r"[;,]", str(ev)) if e.strip()))
            for q in sample.get("qa", [])
        ]
        name = sample.get("sample_id") or f"{path.stem}-{n}"
        out.append(Conversation(str(name), source, a, b, sessions, questions, sample.get("language", "en"),
                                list(sample.get("other_party_terms", []))))
    return out


def selected(conv: Conversation, max_sessions: int | None = None) -> tuple[list[Question], dict[str, int]]:
    """The questions asked (evidence all the visitor's, in the replayed sessions) and why others were not."""
    said = {u.dia_id: u for s in conv.sessions[:max_sessions] for u in s.utterances}
    every = {u.dia_id for s in conv.sessions for u in s.utterances}
    asked, skipped = [], {"adversarial": 0, "other_party_evidence": 0, "no_evidence": 0, "not_replayed": 0}
    for q in conv.questions:
        if q.category not in CATEGORIES:
            skipped["adversarial"] += 1
        elif not q.evidence or any(e not in every for e in q.evidence):
            skipped["no_evidence"] += 1
        elif any(e not in said for e in q.evidence):
            skipped["not_replayed"] += 1
        elif any(said[e].speaker != conv.speaker_a for e in q.evidence):
            skipped["other_party_evidence"] += 1
        else:
            asked.append(q)
    return asked, skipped


# --- the stack ---------------------------------------------------------------------------------
class ReplayClock:
    """The services' clock, set to when each recorded turn was said."""

    def __init__(self) -> None:
        self.at = datetime(2000, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


class ScriptedModel:
    """The model port: the reply is the other party's recorded words (and the request it was
    asked with is kept); fold, extraction, profile and embeddings are the configured model's."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.next_reply = NO_REPLY
        self.last_request: Any = None

    def reply(self, request: Any) -> Any:
        from convmem.domain.models import ModelReply

        self.last_request = request
        return ModelReply(text=self.next_reply)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@dataclass
class Stack:
    api: Any
    fold: Any
    facts: Any
    profile: Any
    model: ScriptedModel
    clock: ReplayClock
    window: int
    via = "in-process"

    def replay(self, conv: Conversation, user: str, max_sessions: int | None) -> dict[str, Any]:
        return replay(self, conv, user, max_sessions)

    def ask(self, user: str, session_id: str, question: str, at: datetime) -> Any:
        """The model request of ``question`` as the first turn of a new session at ``at``."""
        from convmem.service.turn import TurnInput

        self.clock.at = at
        self.model.next_reply = QUESTION_REPLY
        self.api.turns.take_turn(user, session_id, TurnInput(message=question))
        return self.model.last_request

    def stored_facts(self, user: str) -> list[tuple[str, str, str]]:
        """(statement, what else names it, key) of every stored fact."""
        return [(f.statement, f.value, f.key) for f in self.api.facts.list_facts(user)]

    def profile_text(self, user: str) -> str | None:
        return self.api.profile.get_profile(user)[0]


def build_stack() -> Stack:
    """The four functions' services as the composition root builds them, on the template's
    resources in in-process moto, sharing one clock and one scripted model."""
    from convmem.composition import build_api, build_facts, build_fold, build_model, build_profile
    from convmem.settings import Settings

    from local.aws import create_resources
    from local.template import function_environment, load_template

    template = load_template()
    resolver = create_resources(template, {"ApiKeySecret": "bench"})
    resolver.overrides["ModelProvider"] = "local"
    resolver.overrides.update({"TurnLimit": "0"})  # replays conversations far faster than they were held

    def settings(function: str) -> Settings:
        # No queues: the bench runs each job itself, right after its turn, on the consumer's service.
        env = {**function_environment(template, function, resolver), "FOLD_QUEUE_URL": "", "FACTS_QUEUE_URL": ""}
        os.environ.update(env)
        return Settings.from_env(env)

    api_settings = settings("ApiFunction")
    clock, model = ReplayClock(), ScriptedModel(build_model(api_settings))
    return Stack(
        api=build_api(api_settings, clock=clock, model=model),
        fold=build_fold(settings("FoldFunction"), model=model, clock=clock),
        facts=build_facts(settings("FactsFunction"), model=model, clock=clock),
        profile=build_profile(settings("ProfileFunction"), model=model, clock=clock),
        model=model, clock=clock, window=api_settings.window_messages,
    )


class HttpStack:
    """The same replay through the HTTP API of a local stack (``python -m local.run`` on free
    ports, as ``make run`` starts it), as a caller that runs its own model would do it: each
    recorded turn is ``POST .../exchanges`` with its real time as ``at`` (the visitor's words and
    the other party's as the agent's), each question ``POST .../context`` in a new session (nothing
    written). The stack's own pollers run the fold and facts jobs; the replay waits for the queues
    to be empty after each exchange, so each job sees what the in-process replay's sees. After each
    session the profile tick runs as ``make invoke FUNCTION=profile`` runs it on a running stack, and
    the stack's refresh function refreshes. Facts and the profile are read back over HTTP."""

    via = "http"
    DRAIN_TIMEOUT_S = 60.0

    def __init__(self) -> None:
        import boto3
        import requests

        from bench.load import start_stack

        # No per-user limit (a replay is far faster than people), and no profile tick of its own.
        self.local = start_stack("local.run", {"CONVMEM_TURN_LIMIT": "0", "CONVMEM_PROFILE_INTERVAL_S": "86400"})
        self.http = requests.Session()
        self.sqs = boto3.client("sqs", endpoint_url=self.local.aws_url, region_name="us-east-1",
                                aws_access_key_id="local", aws_secret_access_key="local")
        self.queues = [u for u in self.sqs.list_queues().get("QueueUrls", []) if "DeadLetter" not in u]

    def close(self) -> None:
        from bench.load import stop_stack

        stop_stack(self.local)

    def _call(self, method: str, user: str, path: str, body: Any = None, expect: int = 200) -> Any:
        import json

        r = self.http.request(method, f"{self.local.url}{path}", headers=self.local.headers(user),
                              data=None if body is None else json.dumps(body), timeout=60)
        if r.status_code != expect:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    def _drain(self) -> None:
        """Until every queue (fold, facts, profile) is empty and nothing is in flight."""
        deadline = time.monotonic() + self.DRAIN_TIMEOUT_S
        names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"]
        while any(int(v) for url in self.queues
                  for v in self.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=names)["Attributes"].values()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the local stack's queues were not empty after {self.DRAIN_TIMEOUT_S} s")
            time.sleep(0.02)

    def _profile_tick(self) -> None:
        import subprocess

        # The stack's AWS and the template's environment only: nothing of this process's own.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "CONVMEM_", "POWERTOOLS_"))}
        env["CONVMEM_AWS_PORT"] = self.local.aws_url.rsplit(":", 1)[1]
        done = subprocess.run([sys.executable, "-m", "local.invoke", "ProfileFunction", "events/profile_schedule.json"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"profile tick failed: {done.stderr[-1000:]}")
        self._drain()

    def replay(self, conv: Conversation, user: str, max_sessions: int | None) -> dict[str, Any]:
        turns = 0
        for session in conv.sessions[:max_sessions]:
            sid = f"{user}-s{session.number}"
            for i, turn in enumerate(session.turns):
                at = (session.at + timedelta(minutes=i)).isoformat().replace("+00:00", "Z")
                self._call("POST", user, f"/v1/sessions/{sid}/exchanges", {"visitor": turn.visitor, "agent": turn.reply,
                                                                          "at": at}, expect=201)
                self._drain()
                turns += 1
            self._profile_tick()
        return {"turns": turns, "facts_job_ms_median": None}  # the stack's pollers ran the jobs: not timed here

    def ask(self, user: str, session_id: str, question: str, at: datetime) -> Any:
        """The request ``POST .../context`` returns for ``question`` in a new session (``at``: now)."""
        from convmem.domain.models import ContextMessage, KnowledgeSnippet, ModelRequest

        c = self._call("POST", user, f"/v1/sessions/{session_id}/context", {"message": question})
        return ModelRequest(
            system=c["system"], profile=c["profile"], facts=[f["text"] for f in c["facts"]], summary=c["summary"],
            knowledge=[KnowledgeSnippet(**k) for k in c["knowledge"]], overflow=c["overflow"],
            history=[ContextMessage(**m) for m in c["history"]], current=c["current"],
        )

    def stored_facts(self, user: str) -> list[tuple[str, str, str]]:
        """(text, key, key) of every fact: the API shows no value; the key names what it is about."""
        return [(f["text"], f["key"], f["key"]) for f in self._call("GET", user, "/v1/me/facts")["facts"]]

    def profile_text(self, user: str) -> str | None:
        return self._call("GET", user, "/v1/me/profile")["profile"]


# --- replay and questions ------------------------------------------------------------------------
def replay(stack: Stack, conv: Conversation, user: str, max_sessions: int | None) -> dict[str, Any]:
    """Every turn through the turn path, its facts and fold jobs after it, the profile after each session."""
    from convmem.domain.summary_fold import fold_target
    from convmem.ports import FactsJob
    from convmem.service.turn import TurnInput

    api = stack.api
    facts_ms: list[float] = []
    turns = 0
    for session in conv.sessions[:max_sessions]:
        sid = f"{user}-s{session.number}"
        for i, turn in enumerate(session.turns):
            stack.clock.at = session.at + timedelta(minutes=i)
            stack.model.next_reply = turn.reply
            result = api.turns.take_turn(user, sid, TurnInput(message=turn.visitor))
            start = time.perf_counter()
            stack.facts.process(FactsJob(user_id=user, session_id=sid, visitor_seq=result.visitor_seq))
            facts_ms.append((time.perf_counter() - start) * 1000)
            state, _ = stack.fold._store.get_state(user, sid)  # noqa: SLF001 - the cursor the turn path computed its job from
            through = fold_target(result.agent_seq, state.summarized_through, stack.window)
            if through is not None:
                stack.fold.fold(sid, user, through)
            turns += 1
        stack.profile.refresh_all_due()
    return {"turns": turns, "facts_job_ms_median": round(statistics.median(facts_ms), 2) if facts_ms else None}


def request_context(request: Any) -> tuple[str, int]:
    """The request's context (blocks and history, not the system prompt nor the question) and
    the tokens of its memory: the facts and profile blocks."""
    from convmem.domain.context_assembly import FACTS_HEADER, PROFILE_HEADER, render_blocks
    from convmem.domain.tokens import count_tokens

    blocks = render_blocks(request)
    memory = sum(count_tokens(b) for b in blocks if b.startswith((FACTS_HEADER, PROFILE_HEADER)))
    return "\n".join([*blocks, *(m.text for m in request.history)]), memory


def bm25_context(question: str, documents: list[str], doc_tokens: list[int], budget: int) -> tuple[str, int]:
    """Earlier utterances most relevant to the question first, while they fit ``budget`` tokens."""
    from convmem.domain.relevance import bm25_scores

    scores = bm25_scores(question, documents)
    chosen, used = [], 0
    for i in sorted(range(len(documents)), key=lambda i: (-scores[i], i)):
        if scores[i] <= 0:
            break
        if used + doc_tokens[i] <= budget:
            chosen.append(i)
            used += doc_tokens[i]
    return "\n".join(documents[i] for i in sorted(chosen)), used


def measure(conv: Conversation, stack: Stack, budgets: tuple[int, ...], max_sessions: int | None) -> dict[str, Any]:
    from convmem.domain.fact_merge import AGENT_NAME
    from convmem.domain.tokens import count_tokens

    user = "recall-" + re.sub(r"[^A-Za-z0-9._-]", "-", conv.name)[:60]
    questions, skipped = selected(conv, max_sessions)
    start = time.perf_counter()
    replayed = stack.replay(conv, user, max_sessions)
    replay_s = time.perf_counter() - start
    sessions = conv.sessions[:max_sessions]

    # The baselines' texts.
    utterances = [u for s in sessions for u in s.utterances]
    documents = [f"{u.speaker}: {u.text}" for u in utterances]
    doc_tokens = [count_tokens(d) + 1 for d in documents]
    last = sessions[-1]
    rows = [text for t in last.turns for text in (t.visitor, t.reply)][-WINDOW:]
    window_text = "\n".join(rows)
    whole_text = "\n".join(f"Session {s.number}, {s.at:%-d %B %Y}:\n" + "\n".join(
        f"{u.speaker}: {u.text}" for u in s.utterances) for s in sessions)
    # Everything convmem keeps of the person (every fact and the profile, no budget): the ceiling of
    # any recall over them. Below it a miss is recall's (ranking, budget); above it, extraction's.
    facts = stack.stored_facts(user)
    profile_text = stack.profile_text(user)
    stored_text = "\n".join([*(statement for statement, *_ in facts), profile_text or ""])
    fixed = {"window": (Request(window_text), count_tokens(window_text)),
             "stored": (Request(stored_text), count_tokens(stored_text)),
             "whole": (Request(whole_text), count_tokens(whole_text))}

    per_q = []
    for n, q in enumerate(questions):
        req = stack.ask(user, f"{user}-q{n}", q.question, last.at + timedelta(days=1))
        context, memory_tokens = request_context(req)
        texts: dict[str, tuple[Request, int]] = {"convmem": (Request(context), memory_tokens), **fixed}
        for b in budgets:
            texts[f"bm25@{b}"] = _bm25(q.question, documents, doc_tokens, b)
        texts["bm25@memory"] = _bm25(q.question, documents, doc_tokens, memory_tokens)
        row: dict[str, Any] = {"category": q.category, "convmem_total_tokens": _request_tokens(req)}
        if conv.source != "locomo":  # LoCoMo's text stays in its file, never in results.json
            row.update(question=q.question, answer=q.answer)
        for name in systems(budgets):
            found, tokens = texts[name]
            resolved = q.category == 2 and found.has_resolved_date(q.answer)
            row[name] = {"present": resolved or found.has_answer(q.answer), "resolved": resolved, "tokens": tokens}
        per_q.append(row)

    # (What they call the agent, "Calls you Morag", names the other party by design: no attribution.)
    wrong, declined = mentions_of_terms([(t, also) for t, also, key in facts if key != AGENT_NAME], conv.other_party_terms)
    return {
        "name": conv.name, "source": conv.source, "language": conv.language,
        "sessions": len(sessions), "utterances": len(utterances), "turns": replayed["turns"],
        "questions_asked": len(questions), "questions_skipped": skipped,
        "replay_seconds": round(replay_s, 1), "facts_job_ms_median": replayed["facts_job_ms_median"],
        "facts_stored": len(facts), "profile_tokens": count_tokens(profile_text or ""),
        "other_party_facts": fig(len(wrong) if conv.other_party_terms else None, "facts",
                                 "stored facts naming one of the file's other_party_terms (None: the file lists none)",
                                 examples=wrong[:10], goal=0, met=(not wrong) if conv.other_party_terms else None),
        "other_party_declined": fig(len(declined) if conv.other_party_terms else None, "facts",
                                    "stored facts that only turn one of the file's other_party_terms down by name "
                                    "(\"They'll pass on Headspace\"): the visitor's own, not counted above", examples=declined[:10]),
        "by_category": aggregate(per_q, systems(budgets)),
        "per_question": per_q,
    }


def systems(budgets: tuple[int, ...]) -> list[str]:
    """What each question's request is compared with, convmem first."""
    return ["convmem", "window", *(f"bm25@{b}" for b in budgets), "bm25@memory", "stored", "whole"]


def _bm25(question: str, documents: list[str], doc_tokens: list[int], budget: int) -> tuple[Request, int]:
    text, used = bm25_context(question, documents, doc_tokens, budget)
    return Request(text), used


def _request_tokens(request: Any) -> int:
    from convmem.domain.context_assembly import request_tokens

    return request_tokens(request)


# Turning a thing down by name ("They'll pass on Atomic Habits", "no Cozi", "the shakshuka is out",
# "런데이 같은 것은 저와 맞지 않습니다") owns nothing of the other party's: a refusal before the
# term in its clause in English (at most four words before it, and not "don't tell"), after it in
# Korean (the verb ends the clause), or "is out" after it.
_REFUSES_BEFORE = re.compile(r"\b(?:no|not|never|nor|without|pass(?:ed|ing)? on|instead of|rather than|skip(?:ped|ping)?|declin\w*"
                             r"|turn(?:ed|ing)? down|(?:do|does|did|wo|ca|ai|is|are|was|were|have|has|would|could|should)nt)"
                             r"(?! (?:tell|talk|ask|say|mention)\b)(?: \S+){0,4} $")
_REFUSES_AFTER = re.compile(r"^\s*(?:is|s|was) out\b|(?<![가-힣])(?:말고|대신|빼고|안|않|싫|별로|패스)|(?:않|싫|말고|대신)")
_CLAUSE_END = re.compile(r"[.,;:!?()]|\s(?:and|but|so)\s|\s[-\u2013\u2014]\s")


def mentions_of_terms(facts: list[tuple[str, str]], terms: list[str]) -> tuple[list[str], list[str]]:
    """Statements of stored facts (statement, what else names it) that name one of the other party's
    things: those that own or tell of one (attributed), and those that only turn one down by name
    (declined), a clause at a time."""
    from bench.recall_match import normalise

    patterns = [re.compile(rf"(?<!\w){re.escape(normalise(t))}(?!\w)") for t in terms]
    attributed, declined = [], []
    for statement, also in facts:
        if not any(p.search(Request(f"{statement} {also}").text) for p in patterns):
            continue
        clauses = [normalise(c) for c in _CLAUSE_END.split(statement)]
        named = [(c, m) for c in clauses for p in patterns for m in p.finditer(c)]
        refused = named and all(_REFUSES_BEFORE.search(c[: m.start()]) or _REFUSES_AFTER.search(c[m.end():]) for c, m in named)
        (declined if refused else attributed).append(statement)
    return attributed, declined


def aggregate(rows: list[dict[str, Any]], systems: list[str]) -> dict[str, Any]:
    """Per category and over all: how often each system held the answer, and its tokens."""
    out: dict[str, Any] = {}
    groups = {str(c): [r for r in rows if r["category"] == c] for c in CATEGORIES}
    groups["all"] = rows
    for key, group in groups.items():
        if not group:
            continue
        entry: dict[str, Any] = {"n": len(group), "label": CATEGORIES.get(int(key), key) if key != "all" else "all"}
        for name in systems:
            present = sum(r[name]["present"] for r in group)
            entry[name] = {"present": present, "rate": round(present / len(group), 3),
                           "tokens_median": statistics.median(r[name]["tokens"] for r in group)}
            if key == "2":
                entry[name]["resolved_rate"] = round(sum(r[name]["resolved"] for r in group) / len(group), 3)
        entry["convmem_total_tokens_median"] = statistics.median(r["convmem_total_tokens"] for r in group)
        out[key] = entry
    return out


# --- the run -------------------------------------------------------------------------------------
def default_files() -> list[tuple[Path, str]]:
    files = [(p, "project") for p in sorted(PROJECT_SET.glob("*.json"))]
    locomo = Path(os.environ.get("CONVMEM_LOCOMO", str(LOCOMO_DEFAULT)))
    if locomo.exists():
        files.append((locomo, "locomo"))
    return files


def run(conversations: tuple[str, ...] | list[str] = (), budgets: tuple[int, ...] | list[int] = DEFAULT_BUDGETS,
        quick: bool = False, per_question: bool = False, via: str = "in-process") -> dict[str, Any]:
    """Replay every conversation, ask its questions, and measure. ``quick``: the project's set
    only, two sessions of the first ``QUICK_PER_LANGUAGE`` files of each language (the smoke run: it
    checks the section end to end; the set grows every round); ``per_question``: keep every question's row
    (what each system found; the standalone run's --out), not only the aggregates. ``via``:
    ``in-process`` (the services on in-process moto, turns) or ``http`` (a local stack, exchanges
    and context over HTTP: HttpStack)."""
    os.environ.update({"AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_DEFAULT_REGION": "us-east-1"})
    os.environ.pop("AWS_ENDPOINT_URL", None)
    os.environ["POWERTOOLS_LOG_LEVEL"] = "WARNING"  # per-turn log lines are not the result
    files = [(Path(c), "locomo" if "locomo" in Path(c).name.lower() else "file") for c in conversations] or default_files()
    if quick:
        files = [(p, s) for p, s in files if s == "project"]
        files = [f for lang in ("en_", "ko_") for f in [g for g in files if g[0].name.startswith(lang)][:QUICK_PER_LANGUAGE]]
    budgets = tuple(int(b) for b in budgets)
    max_sessions = 2 if quick else None
    from moto import mock_aws

    from local.moto_patches import patch_moto

    patch_moto()  # as the local stack: a Query costs its partition, not the whole table
    start = time.perf_counter()
    results = []
    http = HttpStack() if via == "http" else None  # one stack: each conversation is its own user
    try:
        for path, source in files:
            if source == "locomo":
                print(f"[recall] {LOCOMO_ATTRIBUTION}", file=sys.stderr)
            for conv in load_conversations(path, source):
                print(f"[recall] {conv.name} ({path.name}): {len(conv.sessions)} sessions via {via} ...",
                      file=sys.stderr, flush=True)
                if http is not None:
                    results.append(measure(conv, http, budgets, max_sessions))
                    continue
                with mock_aws():  # a fresh account each: no conversation pays for another's items
                    results.append(measure(conv, build_stack(), budgets, max_sessions))
    finally:
        if http is not None:
            http.close()
    sets = {}
    for label, chosen in (("project, English", [r for r in results if r["source"] == "project" and r["language"] == "en"]),
                          ("project, Korean", [r for r in results if r["source"] == "project" and r["language"] == "ko"]),
                          ("LoCoMo", [r for r in results if r["source"] == "locomo"]),
                          ("other files", [r for r in results if r["source"] == "file"])):
        if chosen:
            rows = [q for r in chosen for q in r["per_question"]]
            sets[label] = {"conversations": [r["name"] for r in chosen], "by_category": aggregate(rows, systems(budgets)),
                           "other_party_facts": sum(r["other_party_facts"]["value"] or 0 for r in chosen),
                           "other_party_declined": sum(r["other_party_declined"]["value"] or 0 for r in chosen)}
    if not per_question:
        for r in results:
            del r["per_question"]
    how = ("LoCoMo-format conversations replayed through the services of convmem/composition.py on in-process "
           "moto with the local model (turns); questions asked in new sessions"
           if via != "http" else
           "LoCoMo-format conversations replayed over HTTP on a local stack (python -m local.run): each recorded turn "
           "POST .../exchanges with its time as at, the stack's pollers running the jobs (queues drained after each), "
           "the profile tick after each session; each question POST .../context in a new session")
    return {
        "how": f"bench/recall.py: {how}; judge-free matcher (bench/recall_match.py)",
        "via": via,
        "budgets": list(budgets), "quick": quick,
        "attribution": LOCOMO_ATTRIBUTION if any(s == "locomo" for _, s in files) else None,
        "seconds": round(time.perf_counter() - start, 1),
        "conversations": results, "sets": sets, "goals": goals(sets),
    }


def goals(sets: dict[str, Any]) -> list[dict[str, Any]]:
    """The issue's goals, per set of conversations."""
    out = []
    for label, s in sets.items():
        everything, temporal = s["by_category"].get("all"), s["by_category"].get("2")
        if everything:
            c = everything["convmem"]
            memory = c["tokens_median"]
            bm25 = everything.get("bm25@memory", {}).get("rate", 0)
            out.append({"goal": f"7. answer present, convmem, {label}", "target": f">= {GOAL_PRESENT:.0%}, memory <= "
                        f"{GOAL_MEMORY_TOKENS} tokens, >= BM25 at the same tokens ({bm25:.0%})",
                        "value": f"{c['rate']:.1%} with {memory} memory tokens (median)",
                        "met": c["rate"] >= GOAL_PRESENT and memory <= GOAL_MEMORY_TOKENS and c["rate"] >= bm25})
        if temporal:
            r = temporal["convmem"]["resolved_rate"]
            out.append({"goal": f"7. temporal answered with the resolved date, convmem, {label}",
                        "target": f">= {GOAL_TEMPORAL:.0%}", "value": f"{r:.1%}", "met": r >= GOAL_TEMPORAL})
        if label.startswith("project"):
            out.append({"goal": f"7. facts attributing the other party's things to the visitor, {label}",
                        "target": "0", "value": s["other_party_facts"], "met": s["other_party_facts"] == 0})
    return out


def table(r: dict[str, Any]) -> list[str]:
    """Section 7 of the bench table."""
    lines = [f"\n7. Recall in a new session (answer in the request, judge-free; {r.get('via', 'in-process')}; {r['seconds']} s)"]
    if r.get("attribution"):
        lines.append(f"  {r['attribution']}")
    for label, s in r["sets"].items():
        lines.append(f"  {label}: {', '.join(s['conversations'])}")
        lines += _category_rows(s["by_category"], indent="    ")
    lines.append("  per conversation (all categories): convmem / window / " + " / ".join(
        f"bm25@{b}" for b in r["budgets"]) + " / bm25@memory / stored / whole; facts stored; other-party facts (+ turned down by name); replay s; facts job")
    for c in r["conversations"]:
        a = c["by_category"].get("all")
        if not a:
            continue
        rates = " / ".join(f"{a[k]['rate']:.0%}" for k in a if isinstance(a[k], dict))
        lines.append(f"    {c['name']} ({c['source']}, {c['language']}, {c['sessions']} sessions, {c['questions_asked']} q): "
                     f"{rates}; {c['facts_stored']} facts; {c['other_party_facts']['value']}{_turned_down(c)}; {c['replay_seconds']} s; "
                     f"facts job median {c['facts_job_ms_median']} ms")
    return lines


def _turned_down(c: dict[str, Any]) -> str:
    declined = c.get("other_party_declined", {}).get("value")
    return f" (+{declined} turned down)" if declined else ""


def _category_rows(by: dict[str, Any], indent: str) -> list[str]:
    if not by:
        return [indent + "(no questions)"]
    systems = [k for k in by["all"] if isinstance(by["all"][k], dict)]
    header = ["category", "n", *systems]
    rows = [header]
    for key, e in by.items():
        rows.append([f"{key} {e['label']}" if key != "all" else "all", e["n"],
                     *(f"{e[s]['rate']:.0%}" + (f" (date {e[s]['resolved_rate']:.0%})" if "resolved_rate" in e[s] else "")
                       for s in systems)])
    rows.append(["tokens (median, all)", "", *(by["all"][s]["tokens_median"] for s in systems)])
    rows.append(["convmem request tokens (median, all)", "", by["all"]["convmem_total_tokens_median"]])
    widths = [max(len(str(row[i])) for row in rows if i < len(row)) for i in range(len(header))]
    return [indent + "  ".join(str(v).ljust(widths[i]) for i, v in enumerate(row)) for row in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="convmem recall benchmark (section 7 of make bench)")
    parser.add_argument("--conversations", nargs="+", default=[], metavar="PATH",
                        help="LoCoMo-format files (default: bench/conversations/*.json, plus $CONVMEM_LOCOMO "
                             f"or {LOCOMO_DEFAULT} when it exists)")
    parser.add_argument("--budget", nargs="+", type=int, default=list(DEFAULT_BUDGETS), metavar="N",
                        help="token budgets of the BM25 baseline (default 300 1000)")
    parser.add_argument("--quick", action="store_true", help="two sessions of a few project conversations of each language")
    parser.add_argument("--out", help="write the result as JSON, with every question's row")
    parser.add_argument("--via", choices=("in-process", "http"), default="in-process",
                        help="in-process: the services on in-process moto (turns); http: a local stack over HTTP "
                             "(exchanges with their recorded times, then context for each question)")
    args = parser.parse_args(argv)
    result = run(args.conversations, tuple(args.budget), args.quick, per_question=bool(args.out), via=args.via)
    if args.out:
        emit(result, args.out)
    print("\n".join(table(result)))
    for g in result["goals"]:
        print(f"  {g['goal']}: {g['value']} (goal {g['target']}: {'met' if g['met'] else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
