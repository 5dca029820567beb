"""evolve for high card: a fold that never validates (DESIGN rule 1)."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any

from service.games.kernel.absence import present
from service.games.kernel.fold import Fold, seat_left, table_handlers
from service.games.kernel.model import Event
from service.games.kernel.state import ScoreEntry, rep, rep_round

from .state import INTERMISSION, OVER, PLAY, SCORING, Round, ToyMatch

FOLD = Fold()
on = FOLD.on
table_handlers(FOLD)
on("SeatLeft")(seat_left)
evolve = FOLD.evolve


def _rnd(m: ToyMatch, e: Event, **kw: Any) -> ToyMatch:
    return rep_round(m, e.seq, kw)


@on("MatchCreated")
def _created(_m: None, e: Event) -> ToyMatch:
    d = e.data
    return ToyMatch(id=d["game_id"], variant=d["variant"], name=d.get("name"),
                    options=MappingProxyType(dict(d["options"])), max_players=d["max_players"], status="open",
                    version=e.seq, seats=(), round_no=0, dealer=None, rnd=None, scores=(), standings=(),
                    match_seed=e.secret.get("match_seed", ""), match_seed_commitment=d["match_seed_commitment"],
                    shuffle_seeds=(), created_at=e.at)


@on("RoundStarted")
def _started(m: ToyMatch, e: Event) -> ToyMatch:
    d = e.data
    seats = tuple(d["active_seats"])
    rnd = Round(seats=seats, stock=(), hands=MappingProxyType({}), trick=(), won=MappingProxyType(dict.fromkeys(seats, ())),
                current=d["dealer"], turn_id=0, turn_seq=e.seq, turn_at=e.at, deadline=None,
                phase="deal", phase_seq=e.seq, phase_at=e.at)
    return rep(m, version=e.seq, status="running", round_no=d["round"], dealer=d["dealer"], rnd=rnd,
               intermission_deadline=None)


@on("ShuffleCommitted")
def _shuffled(m: ToyMatch, e: Event) -> ToyMatch:
    m = rep(m, shuffle_seeds=m.shuffle_seeds + ((e.seq, e.secret["seed"]),))
    return _rnd(m, e, stock=tuple(e.secret["order"]))


@on("CardsDealt")
def _dealt(m: ToyMatch, e: Event) -> ToyMatch:
    assert m.rnd is not None
    hands = {int(s): tuple(p["cards"]) for s, p in e.to_seat.items()}
    return _rnd(m, e, hands=MappingProxyType(hands), stock=m.rnd.stock[sum(map(len, hands.values())):])


@on("TurnStarted")
def _turn(m: ToyMatch, e: Event) -> ToyMatch:
    d = e.data
    return _rnd(m, e, current=d["seat"], turn_id=d["turn_id"], turn_seq=e.seq, turn_at=e.at,
                deadline=d["deadline"], phase=PLAY, phase_seq=e.seq, phase_at=e.at)


@on("CardLaid")
def _laid(m: ToyMatch, e: Event) -> ToyMatch:
    m = present(m, e)
    assert m.rnd is not None
    seat, card = e.data["seat"], e.data["card"]
    hand = tuple(c for c in m.rnd.hands[seat] if c != card)
    return _rnd(m, e, hands=MappingProxyType({**m.rnd.hands, seat: hand}), trick=(*m.rnd.trick, (seat, card)))


@on("TrickWon")
def _won(m: ToyMatch, e: Event) -> ToyMatch:
    assert m.rnd is not None
    seat = e.data["seat"]
    won = {**m.rnd.won, seat: m.rnd.won[seat] + tuple(c for _, c in m.rnd.trick)}
    return _rnd(m, e, trick=(), won=MappingProxyType(won))


@on("RoundEnded")
def _ended(m: ToyMatch, e: Event) -> ToyMatch:
    return _rnd(m, e, phase=SCORING, phase_seq=e.seq, phase_at=e.at, deadline=None)


@on("RoundScored")
def _scored(m: ToyMatch, e: Event) -> ToyMatch:
    d = e.data
    totals = {int(k): v for k, v in d["totals"].items()}
    seats = tuple(rep(s, total=totals[s.seat]) if s.seat in totals else s for s in m.seats)
    entry = ScoreEntry(d["round"], tuple((int(k), v) for k, v in d["points"].items()), tuple(sorted(totals.items())))
    at = d["intermission_deadline"]
    rnd = rep(m.rnd, phase=OVER if at is None else INTERMISSION, phase_seq=e.seq, phase_at=e.at)
    return rep(m, version=e.seq, seats=seats, scores=(*m.scores, entry), rnd=rnd, intermission_deadline=at)


__all__ = ["FOLD", "PLAY", "evolve"]
