"""§3.8.2 enumeration: the complete API action objects a seat may send now (API.md)."""
from __future__ import annotations

from typing import Any

from .cards import SHORT, SUITS
from .core import calls_suit, is_legal, legal_cards
from .state import ACE_FOLLOWUP, AFTER_DRAW, PLAY, RESPOND_SEVEN, RESPOND_SKIP, TURN_PHASES, Match


def legal_actions(m: Match | None, seat: int, now: int) -> list[dict[str, Any]]:
    """Every action the seat may POST now; [] when nothing to do."""
    if m is None or m.status != "running" or m.rnd is None or m.rnd.phase not in TURN_PHASES:
        return []
    if not 0 <= seat < len(m.seats) or m.seats[seat].state != "active":
        return []
    from .shedding import in_grace
    rnd = m.rnd
    out: list[dict[str, Any]] = []
    if seat == rnd.current and not in_grace(m, seat, now):
        out = _closing_actions(m, seat)
    if _announce_has_effect(m, seat):
        out.append({"type": "announce"})
    return out


def _announce_has_effect(m: Match, seat: int) -> bool:
    """§3.8.2: an open unsatisfied window of the caller, or arming in its own turn."""
    if m.rules.announce_mode != "flag_or_window":
        return False
    w = m.rnd.window
    if w is not None and w.seat == seat and not w.satisfied:
        return True
    from .shedding import can_arm
    return can_arm(m, seat) and bool(_permitted_cards(m, seat))


def _permitted_cards(m: Match, seat: int) -> list[str]:
    """The cards the phase permits: §3.3 legality, AFTER_DRAW's drawn_card_only restriction."""
    rnd = m.rnd
    r = m.rules
    hand = rnd.hands[seat]
    if rnd.phase == AFTER_DRAW and r.play_after_draw == "drawn_card_only":
        d = rnd.drawn_card
        ok = d is not None and d in hand and is_legal(d, hand, rnd, r)
        return [min(c for c in hand if SHORT[c] == SHORT[d])] if ok else []
    return legal_cards(hand, rnd, r)


def _plays(m: Match, seat: int, cards: list[str]) -> list[dict[str, Any]]:
    """Play objects: once per suit for a calling jack; with and without the flag at 2 cards."""
    rnd = m.rnd
    r = m.rules
    left = len(rnd.hands[seat]) - 1
    flag = left == 1 and r.announce_mode != "auto"
    out: list[dict[str, Any]] = []
    for c in cards:
        if calls_suit(c, left, rnd, r):
            base = [{"type": "play", "card": c, "called_suit": s} for s in SUITS]
        else:
            base = [{"type": "play", "card": c}]
        for b in base:
            out.append(b)
            if flag:
                out.append({**b, "announce": True})
    return out


def _closing_actions(m: Match, seat: int) -> list[dict[str, Any]]:
    """§3.4 table: the actions of `current` in its phase."""
    from .shedding import draw_allowed, pass_kind
    rnd = m.rnd
    out = _plays(m, seat, _permitted_cards(m, seat))
    phase = rnd.phase
    if phase == RESPOND_SEVEN:
        out.append({"type": "take_penalty"})
        return out
    if phase == RESPOND_SKIP:
        out.append({"type": "accept_skip"})
        return out
    if phase in (PLAY, AFTER_DRAW, ACE_FOLLOWUP):
        if draw_allowed(m, seat):
            out.append({"type": "draw"})
        if pass_kind(m, seat) is not None:
            out.append({"type": "pass"})
    return out
