"""§3.8.2 enumeration: the complete API action objects a seat may send now (API.md)."""
from __future__ import annotations

from typing import Any

from service.games.shedding.cards import RANK, RANK_ORDER, SUIT, SUITS
from service.games.shedding.core import can_arm, draw_allowed, in_grace, natural, pass_kind, permitted_cards, turn_options
from service.games.shedding.scoring import default_suit
from service.games.shedding.state import AFTER_DRAW, PLAY, RESPOND_SEVEN, RESPOND_SKIP, TURN_PHASES, Match, round_of

_TAKE_PENALTY = "take_penalty"
_ACCEPT_SKIP = "accept_skip"


def legal_actions(m: Match | None, seat: int, now: int) -> list[dict[str, Any]]:
    """Every action the seat may POST now; [] when nothing to do."""
    if m is None or m.status != "running":
        return []
    rnd = m.rnd
    if rnd is None or rnd.phase not in TURN_PHASES:
        return []
    seats = m.seats
    if not 0 <= seat < len(seats) or seats[seat].state != "active":
        return []
    out: list[dict[str, Any]] = []
    w = rnd.window
    if seat == rnd.current and (w is None or w.satisfied or w.seat == seat or not in_grace(m, seat, now)):
        out = _closing_actions(m, seat)
    if m.rules.announce_mode == "flag_or_window":  # noqa: SIM102 - the mode first, then when it offers the announcement
        if (w is not None and w.seat == seat and not w.satisfied) or \
                (len(rnd.hands[seat]) == 2 and can_arm(m, seat) and permitted_cards(m, seat)):
            out.append({"type": "announce"})
    if w is not None and m.rules.catch.by_catch:  # §3.8.2: challenge{target} per open window not yet challenged
        out.extend(m.rules.catch.catches((w,), seat))
    return out


def _plays(m: Match, seat: int, cards: list[str]) -> list[dict[str, Any]]:
    """Play objects: once per suit for a calling jack; with and without the flag at 2 cards."""
    rnd = round_of(m)
    r = m.rules
    left = len(rnd.hands[seat]) - 1
    flag = left == 1 and r.announce_mode != "auto"
    wild = r.wild if left > 0 else None
    out: list[dict[str, Any]] = []
    for c in cards:
        if RANK[c] == wild and (r.jack_calls_on_match or not natural(c, rnd)):
            for s in SUITS:
                out.append({"type": "play", "card": c, "called_suit": s})
                if flag:
                    out.append({"type": "play", "card": c, "called_suit": s, "announce": True})
        elif flag:
            out.append({"type": "play", "card": c})
            out.append({"type": "play", "card": c, "announce": True})
        else:
            out.append({"type": "play", "card": c})
    return out


def _closing_actions(m: Match, seat: int) -> list[dict[str, Any]]:
    """§3.4 table: the actions of `current` in its phase."""
    cards, draw, passing = turn_options(m, seat)
    out = _plays(m, seat, cards) if cards else []
    phase = round_of(m).phase
    if phase == RESPOND_SEVEN:
        out.append({"type": _TAKE_PENALTY})
    elif phase == RESPOND_SKIP:
        out.append({"type": _ACCEPT_SKIP})
    else:
        if draw:
            out.append({"type": "draw"})
        if passing is not None:
            out.append({"type": "pass"})
    return out


def default_action(m: Match, seat: int) -> dict[str, Any] | None:
    """§3.4 "default action on timeout" (C-23, P-24) for the current seat; never announces.

    PLAY: draw if drawing is legal, else the legal play with the most points, else pass (blocked).
    AFTER_DRAW: pass, or play the drawn card if passing is not allowed. RESPOND_SEVEN:
    take_penalty. RESPOND_SKIP: accept_skip. ACE_FOLLOWUP: pass while a legal follow-up exists
    and passing is allowed, else draw if legal, else the best follow-up, else pass (blocked).
    """
    rnd = m.rnd
    if m.status != "running" or rnd is None or rnd.phase not in TURN_PHASES or rnd.current != seat:
        return None
    phase = rnd.phase
    if phase == RESPOND_SEVEN:
        return {"type": _TAKE_PENALTY}
    if phase == RESPOND_SKIP:
        return {"type": _ACCEPT_SKIP}
    can_pass = pass_kind(m, seat) is not None
    if phase == AFTER_DRAW:
        if can_pass:
            return {"type": "pass"}
        drawn = rnd.drawn_card or ""
        return _best_play(m, seat, [c for c in permitted_cards(m, seat) if c[:-2] == drawn[:-2]])
    if can_pass and phase != PLAY:
        return {"type": "pass"}
    if draw_allowed(m, seat):
        return {"type": "draw"}
    cards = permitted_cards(m, seat)
    if not cards:
        return {"type": "pass"} if can_pass else None
    return _best_play(m, seat, cards)


def _best_play(m: Match, seat: int, cards: list[str]) -> dict[str, Any]:
    """§3.4 [DECISION]: most card_points; ties by rank, then suit C<D<H<S, then lower copy. A wild
    jack calls the suit the rest of the hand holds most of (ties C, D, H, S)."""
    pts = m.rules.points
    card = max(cards, key=lambda c: (pts.get(RANK[c], 0), RANK_ORDER[RANK[c]],
                                     -SUITS.index(SUIT[c]), -int(c[-1])))
    action: dict[str, Any] = {"type": "play", "card": card}
    for a in _plays(m, seat, [card]):
        if "called_suit" in a:
            hand = list(round_of(m).hands[seat])
            hand.remove(card)
            action["called_suit"] = default_suit(hand)
        break
    return action
