"""Service tier: the use cases on in-memory fakes of every port (tests/fakes.py), so races,
idempotency, erasure and merges run in milliseconds. The fakes keep the store's promises: the
contract suite (tests/contract) runs the same assertions on them and on DynamoDB."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import pytest
from convmem.adapters.local_model import LocalModel
from convmem.composition import ApiServices, wire_api
from convmem.ports import erasure_blocks
from convmem.service.facts import FactsService
from convmem.service.fold import FoldService
from convmem.service.turn import TurnInput
from convmem.settings import Settings

from tests.fakes import FakeCipher, InMemoryStore, ManualClock, RecordingJobs


class NoSecrets:
    def get(self, secret_id: str) -> str:
        return "service-tier-secret"


@dataclass
class Memory:
    """Every port as a fake, and the services wired on them as the API wires them."""

    store: InMemoryStore
    cipher: FakeCipher
    jobs: RecordingJobs
    clock: ManualClock
    settings: Settings
    api: ApiServices

    def say(self, text: str, session: str = "s1", user: str = "alice", **kw):
        self.clock.at += timedelta(seconds=1)
        return self.api.turns.take_turn(user, session, TurnInput(message=text, **kw))

    def fold_service(self, model=None) -> FoldService:
        return FoldService(store=self.store, cipher=self.cipher, model=model or LocalModel(), clock=self.clock,
                           settings=self.settings)

    def facts_service(self, model=None) -> FactsService:
        return FactsService(store=self.store, cipher=self.cipher, model=model or LocalModel(), clock=self.clock,
                            settings=self.settings)

    def run_jobs(self) -> None:
        """What the queue consumers would do with every job sent so far."""
        folds, facts = self.fold_service(), self.facts_service()
        while self.jobs.folds or self.jobs.facts:
            for job in self.jobs.folds[:]:
                self.jobs.folds.remove(job)
                folds.fold(job.session_id, job.user_id, job.through_seq)
            for job in self.jobs.facts[:]:
                self.jobs.facts.remove(job)
                facts.process(job)


def make_memory(settings: Settings) -> Memory:
    store = InMemoryStore(window=settings.window_messages, facts_shards=settings.facts_shards)
    clock = ManualClock()
    cipher = FakeCipher(may_create_key=lambda user: not erasure_blocks(*store.get_erasure(user), clock.now()))
    jobs = RecordingJobs()
    api = wire_api(settings, store=store, cipher=cipher, model=LocalModel(), clock=clock, jobs=jobs, secrets=NoSecrets())
    return Memory(store, cipher, jobs, clock, settings, api)


@pytest.fixture()
def memory() -> Memory:
    return make_memory(Settings.from_env({}))
