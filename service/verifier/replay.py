"""The one check of `meow verify` that uses the service's own code: the rules engine's replay.
Only check.verify imports it, and only when asked to replay (`meow verify --independent` skips it).

A recorded event that differs from the replay is named with the path of its first differing field
and both values: the one the history holds and the one the rules derive from the history's own
commands and revealed seeds (nothing else goes in, so nothing else can come out)."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from service.verifier.diff import Absent, first_difference

if TYPE_CHECKING:
    from service.verifier.check import Result


def check_replay(events: list[dict], out: Result) -> None:
    """Replay with the rules engine: every recorded command re-decided must give the recorded events."""
    from service.app import audit
    from service.games import engine

    report = audit.Report(events=len(events))
    state = audit.check_replay(events, report)
    for p in report.problems:
        where = _difference(events, state, p.seq)
        if where is None:
            out.bad(p.seq, "replay", p.detail)
        else:
            out.bad(where.pop("seq"), "replay", where.pop("detail"), **where)
    if state is not None and not report.problems:
        view = engine.public_view(state, 0)
        standings = view.get("standings") or []
        totals = ({str(s["seat"]): s["total"] for s in standings} if all("total" in s for s in standings) else
                  (view.get("scores") or [{}])[-1].get("totals"))
        out.final = {"standings": standings, "totals": totals}


def _difference(events: list[dict], state: Any, seq: int) -> dict[str, Any] | None:
    """The first field of the failing command's events that differs from the rules' replay (the
    state is the one before that command), or None when the command cannot be re-decided."""
    from service.app import audit, commands
    from service.games import registry

    at = min(seq, len(events)) - 1
    i = next((k for k in range(at, -1, -1) if "command" in events[k]), None)
    if i is None:
        return None
    j = next((k for k in range(i + 1, len(events)) if "command" in events[k]), len(events))
    batch = events[i:j]
    match_seed, seeds = audit.revealed_seeds(events)
    try:
        cmd = commands.from_record(batch[0]["command"], registry.of(state).name if state is not None else None)
        produced = [audit.comparable(e) for e in audit.decide_batch(state, cmd, batch, match_seed, seeds)]
    except Exception:  # noqa: BLE001 - audit.check_replay already named why it cannot be re-decided
        return None
    for k in range(max(len(batch), len(produced))):
        if k >= len(batch):
            return {"seq": batch[-1]["seq"] + 1, "detail": f"the rules produce one more event here "
                    f"({produced[k].get('type')}) that the history does not hold", "field": "type",
                    "expected": produced[k].get("type"), "found": None}
        if k >= len(produced):
            return {"seq": batch[k]["seq"], "detail": f"the history holds an event ({batch[k].get('type')}) the "
                    f"rules do not produce here", "field": "type", "expected": None, "found": batch[k].get("type")}
        got = first_difference(produced[k], audit.recorded(batch[k]))
        if got is not None:
            path, expected, found = got
            return {"seq": batch[k]["seq"], "field": path, "expected": _value(expected), "found": _value(found),
                    "detail": f"{batch[k].get('type')}: {path} differs from the replay: the history has "
                              f"{_short(found)}, the rules give {_short(expected)}"}
    return None


def _short(value: Any, limit: int = 120) -> str:
    text = "absent" if isinstance(value, Absent) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _value(value: Any) -> Any:
    return None if isinstance(value, Absent) else value
