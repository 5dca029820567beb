"""evolve(state, event) for Sakapuss: a fold that never validates (DESIGN rule 1).

Sealed passes and dealt hands are read from the events' private parts (``to_seat``), the
chance-deck order from ``secret``: the server folds the full events; views redact.
"""
from __future__ import annotations

from service.games.kernel.absence import present
from service.games.kernel.fold import Fold, new_table, seat_left, seeds_with, table_handlers
from service.games.kernel.model import Event
from service.games.kernel.state import frozen_map as fz, rep_event as _rnd
from service.games.sakapuss.state import PASSING, SCORING, SLAP_RACE, Race, SakapussMatch, SRound, rep, round_of

FOLD = Fold()
HANDLERS = FOLD.handlers
on = FOLD.on
table_handlers(FOLD)  # SeatJoined, TimedOut, RoundScored, MatchEnded, SeedsRevealed: as every game folds them
evolve = FOLD.evolve  # apply one event; a type this game does not fold only bumps the version
replay = FOLD.replay


@on("MatchCreated")
def _created(_m: None, e: Event) -> SakapussMatch:
    return new_table(SakapussMatch, e, kinds=(), chance_deck=(), parasites=fz({}))


on("SeatLeft")(seat_left)  # replaced by a bot once the match runs


@on("RoundStarted")
def _round_started(m: SakapussMatch, e: Event) -> SakapussMatch:
    d = e.data
    seats = tuple(d["active_seats"])
    rnd = SRound(seats=seats, hands=fz({}), prev_hands=None, resolved=0, passes=fz({}),
                 auto=frozenset(), step_deadline=None, step_opened_seq=e.seq, step_opened_at=e.at,
                 step_openings=0, race=None, races=0, voided=0, phase="deal", phase_seq=e.seq,
                 phase_at=e.at)
    parasites = m.parasites if m.parasites else fz(dict.fromkeys(seats, ()))
    return rep(m, version=e.seq, status="running", round_no=d["round"], dealer=d["dealer"],
               kinds=tuple(d["kinds"]), rnd=rnd, parasites=parasites, intermission_deadline=None)


@on("ShuffleCommitted")
def _shuffled(m: SakapussMatch, e: Event) -> SakapussMatch:
    seeds = seeds_with(m, e)
    if e.data.get("what") == "chance_deck":
        return rep(m, version=e.seq, shuffle_seeds=seeds, chance_deck=tuple(e.secret["order"]))
    return rep(m, version=e.seq, shuffle_seeds=seeds)


@on("CardsDealt")
def _dealt(m: SakapussMatch, e: Event) -> SakapussMatch:
    hands = {int(s): tuple(sorted(c.split(":", 1)[1] for c in p["cards"])) for s, p in e.to_seat.items()}
    return _rnd(m, e, hands=fz(hands), phase=PASSING, phase_seq=e.seq, phase_at=e.at,
                step_deadline=e.data["deadline"], step_opened_seq=e.seq, step_opened_at=e.at)


@on("PassSubmitted")
def _pass(m: SakapussMatch, e: Event) -> SakapussMatch:
    m = present(m, e)
    s = e.data["seat"]
    kind = e.to_seat[s]["kind"]
    rnd = round_of(m)
    auto = rnd.auto | {s} if e.data.get("auto") else rnd.auto
    return _rnd(m, e, passes=fz({**rnd.passes, s: kind}), auto=auto)


def _remove_one(hand: tuple[str, ...], kind: str) -> list[str]:
    out = list(hand)
    out.remove(kind)
    return out


@on("PassesResolved")
def _resolved(m: SakapussMatch, e: Event) -> SakapussMatch:
    rnd = round_of(m)
    hands = {s: _remove_one(h, rnd.passes[s]) for s, h in rnd.hands.items()}
    log = dict(rnd.log)
    for giver, target in e.data["targets"].items():
        given = rnd.passes[int(giver)]
        hands[target].append(given)
        log[target] = log.get(target, ()) + ((rnd.passes[target], given),)
    new = {s: tuple(sorted(h)) for s, h in hands.items()}
    return _rnd(m, e, prev_hands=rnd.hands, hands=fz(new), resolved=rnd.resolved + 1, log=fz(log),
                passes=fz({}), auto=frozenset(), step_deadline=e.data["deadline"],
                step_opened_seq=e.seq, step_opened_at=e.at, step_openings=0,
                phase_seq=e.seq, phase_at=e.at)


@on("SlapMade")
def _slap(m: SakapussMatch, e: Event) -> SakapussMatch:
    m = present(m, e)
    d = e.data
    rnd = round_of(m)
    if rnd.race is None or rnd.phase != SLAP_RACE:
        race = Race(id=d["race_id"], slaps=(d["seat"],), first_seen_step=d["seen_step"],
                    deadline=d["window_deadline"], opened_seq=e.seq, opened_at=e.at,
                    discarded_step=d["discarded_step"])
        return _rnd(m, e, race=race, races=rnd.races + 1, passes=fz({}), auto=frozenset(),
                    phase=SLAP_RACE, phase_seq=e.seq, phase_at=e.at)
    return _rnd(m, e, race=rep(rnd.race, slaps=rnd.race.slaps + (d["seat"],)))


@on("RaceResolved")
def _race_resolved(m: SakapussMatch, e: Event) -> SakapussMatch:
    d = e.data
    rnd = round_of(m)
    voided = rnd.voided + (0 if d["valid"] else 1)
    if d.get("reopened_step") is not None:
        return _rnd(m, e, voided=voided, phase=PASSING, phase_seq=e.seq, phase_at=e.at,
                    step_deadline=d["deadline"], step_opened_seq=e.seq, step_opened_at=e.at,
                    step_openings=rnd.step_openings + 1)
    return _rnd(m, e, voided=voided, phase="resolve", phase_seq=e.seq, phase_at=e.at)


@on("ChanceCardDrawn")
def _chance(m: SakapussMatch, e: Event) -> SakapussMatch:
    d = e.data
    seat = d["seat"]
    mine = m.parasites.get(seat, ())
    removed = tuple(d.get("removed", ()))
    if d["effect"] == "parasite":
        mine = mine + (d["card"],)
        bottom: tuple[str, ...] = ()
    else:
        mine = tuple(c for c in mine if c not in removed)
        bottom = removed + (d["card"],)
    deck = m.chance_deck[1:] + bottom
    return rep(m, version=e.seq, chance_deck=deck, parasites=fz({**m.parasites, seat: mine}))


@on("RoundEnded")
def _round_ended(m: SakapussMatch, e: Event) -> SakapussMatch:
    return _rnd(m, e, phase=SCORING, phase_seq=e.seq, phase_at=e.at, race=None, passes=fz({}),
                end_reason=e.data["reason"], winner=e.data.get("winner"), step_deadline=None)

