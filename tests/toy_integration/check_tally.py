"""The tally, plugged in (run in the copy of the repository where it was added)."""
from __future__ import annotations

from service.app import jobs
from service.eventstore.contract import SHARDS
from service.eventstore.memory import MemoryEventStore
from service.integrations.tally import registration
from service.settings import Settings
from service.wiring import build_service


def test_a_new_table_is_tallied_by_its_own_job() -> None:
    svc = build_service(Settings(), MemoryEventStore())
    assert svc.integrations.names[-1] == "tally"
    out = svc.create("prsi-traditional", {}, None, "t", None)
    due = [c for s in SHARDS for c in svc.store.claim_due(s, out.state.created_at + 1, 60_000)]
    tally = [c for c in due if c.job_id == f"tally-{out.game_id}"]
    assert len(tally) == 1  # written by the create's append, with its events
    assert jobs.run_followup(svc, dict(tally[0].payload)) == "tallied"
    assert out.game_id in registration.COUNTED
