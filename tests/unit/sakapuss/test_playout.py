"""Random playouts over many seeded Sakapuss matches: conservation, replay, termination, redaction."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from service.eventstore.codec import decode, encode
from service.games import engine
from service.games.kernel.model import Autopilot, DealRound, FireTimer, LeaveSeat, ScoreRound
from service.games.registry import SEAT_ACTIONS
from service.games.sakapuss.bots import easy as sakapuss_easy
from service.games.sakapuss.flow import chance_deck_cards

from .helpers import Sak

PRIVATE_KEYS = {"hand", "hands", "cards", "passes", "passed_kind", "received"}


def _walk(obj: Any, path: str = ""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(v, f"{path}.{k}")
            yield path, k
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _walk(v, path)
    elif isinstance(obj, str):
        yield path, obj


def check_invariants(g: Sak) -> None:
    m = g.m
    rnd = m.rnd
    if rnd is not None and rnd.phase in ("passing", "slap_race"):
        counts = Counter(k for h in rnd.hands.values() for k in h)
        assert counts == dict.fromkeys(m.kinds, 4), counts
        assert all(len(h) == 4 for h in rnd.hands.values())
        assert set(rnd.passes) <= set(rnd.seats)
        assert all(rnd.passes[s] in rnd.hands[s] for s in rnd.passes)
    chance = list(m.chance_deck) + [c for p in m.parasites.values() for c in p]
    assert sorted(chance) == sorted(chance_deck_cards(m.options))
    # redaction: the public view never shows cats or a sealed kind; each seat sees only its own
    pub = engine.public_view(m, g.now)
    for path, item in _walk(pub):
        assert not (isinstance(item, str) and item.startswith("cat:")), path
        assert item not in PRIVATE_KEYS or path.startswith(".options"), (path, item)
    logs = pass_logs(g.events)
    for s in (rnd.seats if rnd is not None else ()):
        priv = engine.private_view(m, s, g.now)
        assert set(priv) == {"seat", "hand", "passed_kind", "pass_log", "slap_warning", "legal_actions"}
        assert priv["pass_log"] == logs.get(s, [])
        assert priv["slap_warning"] == slap_warning(m, s, priv["legal_actions"])
        if rnd.phase in ("passing", "slap_race"):
            assert priv["hand"] == [f"cat:{k}" for k in rnd.hands[s]]
            assert priv["passed_kind"] == (rnd.passes.get(s) if rnd.phase == "passing" else None)
        view = engine.seat_view(m, s, g.now)
        assert "hand" not in view.public and tuple(priv["hand"]) == view.hand


def slap_warning(m: Any, seat: int, legal: list[dict[str, Any]]) -> str | None:
    """RULES §6.5, re-derived: in a race a seat that may still slap is told to; while passing, a
    slap is a false one unless the hand now, or (grace) the hand after the step before, is four
    of a kind."""
    rnd = m.rnd
    if not any(a["type"] == "slap" for a in legal):
        return None
    if rnd.phase == "slap_race":
        return "race"
    before = rnd.prev_hands.get(seat) if rnd.prev_hands is not None and m.options["slap_grace_steps"] else None
    return None if len(set(rnd.hands[seat])) == 1 or (before is not None and len(set(before)) == 1) else "false_slap"


def pass_logs(events) -> dict[int, list[dict[str, Any]]]:
    """Each seat's own pass log of the current round, re-derived from PassesResolved payloads:
    what it received, and what it passed (= what its target received)."""
    logs: dict[int, list[dict[str, Any]]] = {}
    for e in events:
        if e.type == "RoundStarted":
            logs = {}
        elif e.type == "PassesResolved":
            targets = {int(g): t for g, t in e.data["targets"].items()}
            for s, t in targets.items():
                log = logs.setdefault(s, [])
                log.append({"step": len(log) + 1, "passed": e.to_seat[t]["received"],
                            "received": e.to_seat[s]["received"]})
    return logs


def check_event(e) -> None:
    for _path, item in _walk(dict(e.data)):
        assert not (isinstance(item, str) and item.startswith("cat:")), (e.type, e.data)
    if e.type in ("PassSubmitted", "PassesResolved"):
        assert "kind" not in e.data and "received" not in e.data
    if e.type == "PassSubmitted":
        assert set(e.to_seat) == {e.data["seat"]}
    if e.type == "PassesResolved":
        for p in e.to_seat.values():
            assert set(p) == {"received", "from"}


def _pick_action(g: Sak, rng: random.Random) -> tuple[int, dict] | None:
    m = g.m
    rnd = m.rnd
    options = []
    for s in rnd.seats:
        if m.seats[s].kind == "bot":
            continue
        acts = engine.legal_actions(m, s, g.now)
        if not acts:
            continue
        hand = rnd.hands[s]
        full = len(set(hand)) == 1
        for a in acts:
            w = 1.0
            if a["type"] == "slap":
                w = 8.0 if (full or rnd.phase == "slap_race") else 0.03
            options.append((w, s, a))
    if not options:
        return None
    total = sum(w for w, _s, _a in options)
    x = rng.random() * total
    for w, s, a in options:
        x -= w
        if x <= 0:
            return s, a
    return options[-1][1], options[-1][2]


def _to_cmd(seat: int, action: dict):
    a = dict(action)
    return SEAT_ACTIONS[a.pop("type")](seat=seat, **a)


def playout(seed: int) -> Sak:
    rng = random.Random(seed)
    n = rng.choice([3, 4, 5])
    opts = dict(rounds=rng.choice([1, 2, 3]), max_pass_steps_per_round=rng.choice([20, 30]),
                pass_timeout_s=5, slap_window_ms=1000,
                false_slap_mode=rng.choice(["void_race_continue", "both_penalties_end_round"]),
                non_slappers_policy=rng.choice(["all_draw", "one_random"]),
                slap_grace_steps=rng.choice([0, 1]), tie_break=rng.choice(["shared", "fewer_parasite_cards"]),
                round_intermission_s=rng.choice([0, 5]), pass_direction=rng.choice(["left", "right"]),
                max_consecutive_timeouts=rng.choice([1, 2, 3]), absent_removal_s=60,
                absent_policy=rng.choice(["default_actions", "bot_autopilot"]), bot_strength="easy")
    g = Sak(n, seed=f"play{seed}", bots=rng.choice([0, 1, 2]), **opts)
    rounds_checked = 0
    for _ in range(5000):
        m = g.m
        if m.status == "finished":
            break
        check_invariants(g)
        before, prev = len(g.events), g.state
        live = m.rnd.phase in ("passing", "slap_race")
        if live and rng.random() < 0.01 and any(s.kind == "human" for s in m.seats):
            g.do(LeaveSeat(rng.choice([s.seat for s in m.seats if s.kind == "human"])))
            continue
        pick = _pick_action(g, rng) if live and rng.random() < 0.9 else None
        if pick is not None:
            g.now += rng.choice([0, 10, 200])
            g.do(_to_cmd(*pick))
        else:
            due = sorted(engine.pending_work(m), key=lambda d: (d.due_at, d.kind != "timer"))
            d = due[0]
            g.now = max(g.now, d.due_at)
            if d.kind == "bot":
                view = engine.seat_view(g.m, d.seat, g.now)
                action = sakapuss_easy.choose(view, random.Random(f"{seed}/{g.m.version}/{d.seat}"))
                assert action in [dict(a) for a in view.legal_actions]
                if action["type"] == "slap":
                    assert len(set(view.hand)) == 1 or view.public["phase"] == "slap_race"
                absent = g.m.seats[d.seat].absent  # §2.7 bot_autopilot plays an absent human seat
                g.do(Autopilot(d.seat, action) if absent else _to_cmd(d.seat, action))
            else:
                cmd = {"score": ScoreRound, "deal": DealRound}.get(d.kind)
                g.do(cmd(int(d.key)) if cmd else FireTimer(d.key))
        inc = prev
        for i, e in enumerate(g.events[before:], start=before):
            check_event(e)
            inc = engine.evolve(inc, e)
            if e.type == "RoundScored":  # replay(all events so far) == the incrementally built state
                assert _replayed(g.events[: i + 1]) == inc
                rounds_checked += 1
        assert inc == g.state
    assert g.m.status == "finished", "the match did not terminate"
    assert g.events[-1].type == "SeedsRevealed"
    assert _replayed(g.events) == g.m
    assert rounds_checked == g.m.options["rounds"]
    seqs = [e.seq for e in g.events]
    assert seqs == list(range(1, len(seqs) + 1))
    return g


def _replayed(events):
    """replay(all events), after a round trip through the stream codec (JSON-native data)."""
    return engine.replay([decode(e.seq, encode(e)) for e in events])


@pytest.mark.parametrize("seed", range(150))
@pytest.mark.deep
def test_random_playout(seed):
    g = playout(seed)
    m = g.m
    st = m.standings
    assert [x["total"] for x in st] == sorted(x["total"] for x in st)
    assert all(x["total"] == m.parasite_total(x["seat"]) for x in st)
