"""The public record of a round (``record.played``, ``record.moves`` with ``include=record``):
derivable from what every viewer sees, compact (each ``before`` holds only what changed since the
previous decision) and it shows no card that was not played.

The reference below rebuilds the record from each event's public fields (never ``to_seat``) and
the public view just before the event.
"""
import random
import re

import pytest

from service.games.engine import decide, public_view, seat_view
from service.games.shedding.bots import easy, medium
from service.games.shedding.state import TURN_PHASES, record_items, record_len
from service.games.shedding.views import full_moves
from tests.unit.rules.helpers import Game, apply, to_command

CARD = re.compile(r"(?:10|[2-9JQKA])[CDHS]:[0-9]")
DECISIONS = {"CardPlayed": "play", "PenaltyTaken": "take_penalty", "SkipAccepted": "accept_skip",
             "TurnPassed": "pass"}


def _before(pub):
    t = pub["table"]
    return {"phase": pub["phase"], "top_card": t["top_card"], "called_suit": t["called_suit"],
            "pending_draw": t["pending_draw"], "pending_skip": t["pending_skip"],
            "direction": t["direction"], "hand_counts": [s["hand_count"] for s in pub["seats"]],
            "discard_count": t["discard_count"], "played_count": len(pub["record"]["played"]),
            "drew_on": t["drew_on"]}


def _reference(events, views_before):
    played, moves = [], []
    for e, pub in zip(events, views_before):
        d = e.data
        if e.type == "RoundStarted":
            played, moves = [], []
        elif e.type in ("StarterTurned", "StarterCovered"):
            played.append(d["card"])
        elif e.type == "StockReshuffled":
            moves.append({"seat": None, "move": "reshuffle", "count": d["count"]})
        elif e.type == "SuitCalled":
            moves[-1]["called_suit"] = d["suit"]
        elif e.type in DECISIONS or (e.type == "CardDrawn" and d["reason"] == "turn"):
            mv = {"seat": e.seat, "move": DECISIONS.get(e.type, "draw")}
            if e.type == "CardPlayed":
                mv["card"] = d["card"]
                played.append(d["card"])
            count = d["count"] if e.type == "CardDrawn" else pub["table"]["pending_draw"] if e.type == "PenaltyTaken" else 0
            if count:
                mv["count"] = count
            if d.get("auto"):
                mv["auto"] = True
            mv["before"] = _before(pub)
            moves.append(mv)
        elif e.type == "CardDrawn":
            moves.append({"seat": e.seat, "move": "gain", "count": d["count"]})
    return played, moves


def _strip_live(moves):
    """``top_live`` is not in the public view: checked separately."""
    out = []
    for mv in moves:
        mv = dict(mv)
        if "before" in mv:
            mv["before"] = {k: v for k, v in mv["before"].items() if k != "top_live"}
        out.append(mv)
    return out


@pytest.mark.parametrize("variant", ["prsi", "mau-mau-classic-full", "prsi-traditional"])
def test_the_record_is_derived_from_public_events_only(variant):
    checked = 0
    for i in range(6):
        g = Game(2 + i % 3, seed=f"rec{variant}{i}", variant=variant)
        g.start()
        rng = random.Random(i)
        events, before = list(g.events), [public_view(g.m, g.now, True)] * len(g.events)
        for _ in range(150):
            if g.m.rnd.phase not in TURN_PHASES:
                break
            seat = g.m.rnd.current
            pol = medium.choose if seat % 2 else easy.choose
            evs = decide(g.m, to_command(seat, pol(seat_view(g.m, seat, g.now), rng)), g.ctx())
            for e in evs:
                events.append(e)
                before.append(public_view(g.state, g.now, True))
                g.state = apply(g.state, [e])
            g.now += 2000
            view = public_view(g.m, g.now, True)
            table, record = view["table"], view["record"]
            assert public_view(g.m, g.now)["record"] is None  # only on request
            start = max(j for j, e in enumerate(events) if e.type == "RoundStarted")
            played, moves = _reference(events[start:], before[start:])
            assert record["played"] == played
            assert _strip_live(full_moves(record["moves"])) == moves
            # compact: after the round's first decision, a before lists only what changed
            befores = [mv["before"] for mv in record["moves"] if "before" in mv]
            full = [mv["before"] for mv in full_moves(record["moves"]) if "before" in mv]
            for prev, cur, b in zip(full, full[1:], befores[1:]):
                assert b == {k: v for k, v in cur.items() if prev[k] != v}
            # the discard is always the newest cards of the record
            assert record["discard"] == played[len(played) - table["discard_count"]:]
            # no card id in the record that was not played (drawn cards stay private)
            assert set(CARD.findall(repr(record["moves"]))) <= set(played)
            checked += len(moves)
    assert checked > 300


def test_top_live_is_the_state_before_each_decision():
    g = Game(3, seed="live")
    g.start()
    rng = random.Random(5)
    for _ in range(120):
        if g.m.rnd.phase not in TURN_PHASES:
            break
        seat = g.m.rnd.current
        live = g.m.rnd.top_live
        n = record_len(g.m.rnd.moves)
        g.do(to_command(seat, medium.choose(seat_view(g.m, seat, g.now), rng)))
        g.now += 2000
        decided = [mv for mv in record_items(g.m.rnd.moves)[n:] if mv.before is not None]
        assert decided and decided[0].seat == seat and decided[0].before.top_live == live
