"""A follow-up job releases its lease only when its work is done; a failure leaves it to the watchdog."""
from __future__ import annotations

import pytest

from service.app.codes import AppCode
from service.app.errors import AppError
from service.eventstore.contract import FollowUp
from service.eventstore.memory import MemoryEventStore
from workers import tasks


class FakeService:
    def __init__(self, outcome: object) -> None:
        self.store = MemoryEventStore()
        self.due_queue = self.store  # the port run_due finishes the job through
        self.outcome = outcome

    def run_followup(self, payload: dict) -> str:
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return str(self.outcome)


@pytest.mark.parametrize("outcome, released", [
    ("moved", True), ("closed", True),
    (ConnectionError("redis went away"), False),
    (AppError(AppCode.VERSION_CONFLICT, "kept changing"), False),
    (AppError(AppCode.GAME_CORRUPTED, "event 3"), True),
])
def test_the_lease_is_released_only_when_done(monkeypatch: pytest.MonkeyPatch, outcome: object, released: bool) -> None:
    svc = FakeService(outcome)
    monkeypatch.setattr(tasks, "_service", lambda: svc)
    svc.store.schedule(FollowUp("bot-a000000000000000-1-5", 0, {"kind": "bot", "game": "a000000000000000"}))
    [claimed] = svc.store.claim_due("a", 10, lease_ms=1000)
    if isinstance(outcome, Exception) and not released:
        with pytest.raises(type(outcome)):
            tasks.run_due(dict(claimed.payload), "a", claimed.job_id)
    else:
        tasks.run_due(dict(claimed.payload), "a", claimed.job_id)
    recovered = svc.store.recover_expired("a", 5000)
    assert (recovered == []) is released
