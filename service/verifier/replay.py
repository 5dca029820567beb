"""The one check of `meow verify` that uses the service's own code: the rules engine's replay.
Only check.verify imports it, and only when asked to replay (`meow verify --independent` skips it)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.verifier.check import Result


def check_replay(events: list[dict], out: Result) -> None:
    """Replay with the rules engine: every recorded command re-decided must give the recorded events."""
    from service.app import audit
    from service.games import engine

    report = audit.Report(events=len(events))
    state = audit.check_replay(events, report)
    for p in report.problems:
        out.bad(p.seq, "replay", p.detail)
    if state is not None and not report.problems:
        view = engine.public_view(state, 0)
        out.final = {"standings": view.get("standings"), "totals": (view.get("scores") or [{}])[-1].get("totals")}
