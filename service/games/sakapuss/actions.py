"""§6.4: the actions a seat may take now in Sakapuss (its views list them; refusals attach them)."""
from __future__ import annotations

from typing import Any

from service.games.sakapuss.commands import cat_id
from service.games.sakapuss.state import LIVE, SLAP_RACE, SakapussMatch, race_of


def legal_actions(m: SakapussMatch | None, seat: int, now: int) -> list[dict[str, Any]]:
    """Every action the seat may POST now: its sealed pass (one per kind held, naming the hand card
    ``cat:<kind>`` as ``card``: equal ids in a hand are one card, docs/clients.md) and a slap."""
    if m is None or m.status != "running":
        return []
    rnd = m.rnd
    if rnd is None or rnd.phase not in LIVE or seat not in rnd.seats or m.seats[seat].state != "active":
        return []
    r = rnd.resolved
    if rnd.phase == SLAP_RACE:
        race = race_of(rnd)
        return [] if seat in race.slaps or now > race.deadline else [{"type": "slap", "seen_step": r}]
    out: list[dict[str, Any]] = []
    if seat not in rnd.passes:
        step = rnd.step
        out = [{"type": "pass_card", "kind": k, "step": step, "card": cat_id(k)} for k in sorted(set(rnd.hands[seat]))]
    slap = {"type": "slap", "seen_step": r}
    if r > 0 or m.options["allow_slap_before_first_pass"]:
        out.append(slap)
    return out
