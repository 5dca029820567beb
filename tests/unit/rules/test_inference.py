"""§7.3 H4 public facts (``table.drew_on``): derivable from public events only, no hidden card.

The reference below re-derives ``drew_on`` from what every viewer sees: each event's public
fields (never ``to_seat``) and the public view just before it (top card, called suit, phase).
"""
import random
import re

from service.games.engine import decide, public_view, seat_view
from service.games.shedding.bots import easy, medium
from service.games.shedding.cards import RANK, SUIT
from tests.unit.rules.helpers import Game, apply, crafted, to_command

CARD = re.compile(r"(?:10|[2-9JQKA])[CDHS]:[0-9]")


from service.games.shedding.inference import CAP_MAX  # noqa: E402


def _reference(events, views_before, wild="J", seven="7"):
    caps: dict[tuple[int, str], int] = {}
    for e, pub in zip(events, views_before):
        d = e.data
        if e.type == "RoundStarted":
            caps = {}
        elif e.type == "CardPlayed":
            rank = RANK[d["card"]]
            suit = None if rank == wild else SUIT[d["card"]]
            for (s, k), c in caps.items():
                if s == e.seat and c > 0 and k in (rank, suit):
                    caps[(s, k)] = c - 1
        elif e.type == "PenaltyTaken":
            caps[(e.seat, seven)] = 0
        elif e.type == "CardDrawn":
            if d["reason"] == "turn" and pub["phase"] in ("play", "ace_followup"):
                top = pub["table"]["top_card"]
                for k in {pub["table"]["called_suit"] or SUIT[top], RANK[top], wild}:
                    caps[(e.seat, k)] = 0
            for (s, k), c in list(caps.items()):
                if s == e.seat:
                    caps[(s, k)] = c + d["count"]
                    if caps[(s, k)] > CAP_MAX:  # a bound this loose is forgotten
                        del caps[(s, k)]
    out: dict[str, dict[str, int]] = {}
    for (s, k), c in caps.items():
        out.setdefault(str(s), {})[k] = c
    return out


def test_drew_on_is_derived_from_public_events_only():
    checked = 0
    for i in range(12):
        g = Game(2 + i % 3, seed=f"inf{i}")
        g.start()
        rng = random.Random(i)
        events, before = list(g.events), [None] * len(g.events)
        for _ in range(120):
            if g.m.rnd.phase not in ("play", "respond_seven", "ace_followup"):
                break
            seat = g.m.rnd.current
            view = seat_view(g.m, seat, g.now)
            pol = medium.choose if seat % 2 else easy.choose
            pub = public_view(g.m, g.now)
            evs = decide(g.m, to_command(seat, pol(view, rng)), g.ctx())
            for e in evs:
                events.append(e)
                before.append(public_view(g.state, g.now))
                g.state = apply(g.state, [e])
            g.now += 2000
            table = public_view(g.m, g.now)["table"]
            start = max(j for j, e in enumerate(events) if e.type == "RoundStarted")
            assert table["drew_on"] == _reference(events[start:], before[start:])
            assert not CARD.search(repr(table["drew_on"]))  # keys are suits and ranks, never cards
            checked += bool(table["drew_on"])
            del pub
    assert checked > 20


def test_same_public_history_same_drew_on_whatever_the_hidden_cards():
    # seat 1 cannot follow hearts in either deal: the public fact is the same, the hands differ
    a = crafted(2, [["KH:0", "2C:0", "3C:0"], ["2S:1", "3S:1", "4S:1"]], "5H:0", first=1)
    b = crafted(2, [["KH:0", "2C:0", "3C:0"], ["9D:1", "QD:1", "KD:1"]], "5H:0", first=1)
    for g in (a, b):
        g.state = apply(g.state, decide(g.m, to_command(1, {"type": "draw"}), g.ctx()))
    va, vb = seat_view(a.m, 0, a.now), seat_view(b.m, 0, b.now)
    assert va.public["table"]["drew_on"] == vb.public["table"]["drew_on"] == {"1": {"H": 1, "5": 1, "J": 1}}
