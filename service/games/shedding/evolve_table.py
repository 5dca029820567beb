"""evolve handlers for scoring and match end (§2.8, §5.8)."""
from __future__ import annotations

from service.games.kernel.fold import Fold
from service.games.kernel.model import Event
from service.games.shedding.evolve import _seat
from service.games.shedding.state import INTERMISSION, Match, ScoreEntry, rep

SCORING_EVENTS = Fold()
on = SCORING_EVENTS.on

@on("HandsRevealed")
def _revealed(m: Match, e: Event) -> Match:
    return rep(m, version=e.seq)


@on("RoundScored")
def _scored(m: Match, e: Event) -> Match:
    d = e.data
    totals = {int(k): v for k, v in d["totals"].items()}
    seats = tuple(rep(s, total=totals[s.seat]) if s.seat in totals else s for s in m.seats)
    entry = ScoreEntry(d["round"], tuple((int(k), v) for k, v in d["points"].items()),
                       tuple(sorted(totals.items())))
    deadline = d.get("intermission_deadline")
    rnd = m.rnd
    if rnd is not None:
        rnd = rep(rnd, phase=INTERMISSION, phase_seq=e.seq, phase_at=e.at)
    return rep(m, version=e.seq, seats=seats, scores=m.scores + (entry,),
               intermission_deadline=deadline, rnd=rnd)


@on("SeatEliminated")
def _eliminated(m: Match, e: Event) -> Match:
    seats = _seat(m, e.data["seat"], state="eliminated", elim_round=e.round)
    return rep(m, version=e.seq, seats=seats)
