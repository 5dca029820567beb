"""The complete action objects a seat may send now (API.md), and the default on a timeout."""
from __future__ import annotations

from typing import Any, TypeGuard

from service.games.crazy_eights.rules import DRAW_TWO, EIGHT, card_penalty, follows
from service.games.crazy_eights.state import PLAY, EightsMatch, round_of
from service.games.shedding.cards import RANK, SUIT, SUITS, sort_hand


def _turn(m: EightsMatch | None, seat: int) -> TypeGuard[EightsMatch]:
    """Whether it is ``seat``'s turn in a running hand (then ``m`` is a match with a hand dealt)."""
    return (m is not None and m.status == "running" and m.rnd is not None and m.rnd.phase == PLAY
            and m.rnd.current == seat)


def legal_cards(m: EightsMatch, seat: int) -> list[str]:
    """Owing twos: only a two answers. Otherwise an eight, or a card of the suit or rank on top."""
    rnd = round_of(m)
    hand = rnd.hands[seat]
    if rnd.owed:
        return [c for c in hand if RANK[c] == DRAW_TWO]
    top, suit = rnd.discard[-1], rnd.suit
    return [c for c in hand if follows(c, top, suit)]


def may_draw(m: EightsMatch, seat: int) -> bool:
    """A card from a non-empty stock: while owing, or fewer than max_draw_cards so far this turn."""
    rnd = round_of(m)
    return bool(rnd.stock) and (rnd.owed > 0 or rnd.drawn < int(m.options["max_draw_cards"]))


def may_pass(m: EightsMatch, seat: int) -> bool:
    """Once max_draw_cards are drawn, or whenever the stock is empty (never while owing)."""
    rnd = round_of(m)
    return not rnd.owed and (not rnd.stock or rnd.drawn >= int(m.options["max_draw_cards"]))


def names_suit(m: EightsMatch, seat: int) -> bool:
    """An eight names a suit unless it ends the hand (the last card, or the max_turns-th play)."""
    rnd = round_of(m)
    return len(rnd.hands[seat]) > 1 and rnd.plays + 1 < int(m.options["max_turns"])


def legal_actions(m: EightsMatch | None, seat: int, now: int) -> list[dict[str, Any]]:
    """Every action the seat may POST now ([] when it is not its turn): each playable card (an
    eight once per suit it may name), draw, pass."""
    if not _turn(m, seat):
        return []
    out: list[dict[str, Any]] = []
    calls = names_suit(m, seat)
    for c in sort_hand(legal_cards(m, seat)):
        if RANK[c] == EIGHT and calls:
            out.extend({"type": "play", "card": c, "called_suit": s} for s in SUITS)
        else:
            out.append({"type": "play", "card": c})
    if may_draw(m, seat):
        out.append({"type": "draw"})
    if may_pass(m, seat):
        out.append({"type": "pass"})
    return out


def best_suit(hand: list[str]) -> str:
    """The suit the hand holds most of, eights aside (ties: C, D, H, S)."""
    counts = dict.fromkeys(SUITS, 0)
    for c in hand:
        if RANK[c] != EIGHT:
            counts[SUIT[c]] += 1
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))


def default_action(m: EightsMatch, seat: int) -> dict[str, Any] | None:
    """On a timeout: the playable card of the highest penalty (an eight last, naming the suit the
    rest of the hand holds most of), else draw (a debt is paid at once), else pass."""
    if not _turn(m, seat):
        return None
    cards = legal_cards(m, seat)
    if cards:
        card = max(cards, key=lambda c: (RANK[c] != EIGHT, card_penalty(c), c))
        action: dict[str, Any] = {"type": "play", "card": card}
        if RANK[card] == EIGHT and names_suit(m, seat):
            rest = list(round_of(m).hands[seat])
            rest.remove(card)
            action["called_suit"] = best_suit(rest)
        return action
    if may_draw(m, seat):
        return {"type": "draw"}
    if may_pass(m, seat):
        return {"type": "pass"}
    return None
