"""The complete action objects a seat may send now (API.md), and the default on a timeout."""
from __future__ import annotations

from typing import Any, TypeGuard

from service.games.uno.call import calls, catches
from service.games.uno.cards import COLOR, COLORS, TRAIT, sort_hand
from service.games.uno.options import ONLY_WITHOUT_COLOUR, PLAY_OR_KEEP, rule_of
from service.games.uno.rules import playable
from service.games.uno.state import PLAY, UnoMatch, round_of


def _turn(m: UnoMatch | None, seat: int) -> TypeGuard[UnoMatch]:
    """Whether it is ``seat``'s turn in a running hand (then ``m`` is a match with a hand dealt)."""
    return (m is not None and m.status == "running" and m.rnd is not None and m.rnd.phase == PLAY
            and m.rnd.current == seat)


def legal_cards(m: UnoMatch, seat: int) -> list[str]:
    """RLCard's get_legal_actions as card ids: what follows the target (rules.playable, by the
    table's ``wild_draw_4``); after a draw that may be kept, only the drawn card if it follows."""
    rnd = round_of(m)
    cards = playable(rnd.hands[seat], TRAIT[rnd.target], COLOR[rnd.target] is None, rnd.color,
                     rule_of(m.options, "wild_draw_4") == ONLY_WITHOUT_COLOUR)
    if rnd.drawn is not None:
        return [rnd.drawn] if rnd.drawn in cards else []
    return cards


def keeps(m: UnoMatch) -> bool:
    """Whether a drawn card that follows may be played or kept (``drawn_card`` play_or_keep)."""
    return bool(rule_of(m.options, "drawn_card") == PLAY_OR_KEEP)


def legal_actions(m: UnoMatch | None, seat: int, now: int) -> list[dict[str, Any]]:
    """Every action the seat may POST now: on its turn each playable card (a wild once per colour
    it may name), or draw when none is playable (after a draw that may be kept: the drawn card and
    ``pass``); with ``uno_call`` each play (and RLCard's draw) also with the call when it may leave
    one card; and, on its turn or not, the catch of another seat's open window."""
    if m is None:
        return []
    out = _turn_actions(m, seat) if _turn(m, seat) else []
    return out + catches(m, seat)


def _turn_actions(m: UnoMatch, seat: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for c in sort_hand(legal_cards(m, seat)):
        if COLOR[c] is None:
            out.extend({"type": "play", "card": c, "called_suit": col} for col in COLORS)
        else:
            out.append({"type": "play", "card": c})
    if round_of(m).drawn is not None:
        out.append({"type": "pass"})  # keep the drawn card
    elif not out:
        out = [{"type": "draw"}]
    if out[0]["type"] == "draw" and keeps(m):
        return out  # the drawn card is played (or kept) by an action of its own
    if calls(m) and len(round_of(m).hands[seat]) == (2 if out[0]["type"] == "play" else 1):
        out = [x for a in out for x in ((a,) if a["type"] == "pass" else (a, {**a, "announce": True}))]
    return out


def best_color(hand: list[str]) -> str:
    """The colour the hand holds most of, wilds aside (ties: R, G, B, Y)."""
    counts = dict.fromkeys(COLORS, 0)
    for c in hand:
        col = COLOR[c]
        if col is not None:
            counts[col] += 1
    return max(COLORS, key=lambda s: (counts[s], -COLORS.index(s)))


def default_action(m: UnoMatch, seat: int) -> dict[str, Any] | None:
    """On a timeout: the first playable card that is not a wild, else a wild naming the colour the
    rest of the hand holds most of, else draw (a drawn card that may be kept is played); with the
    call when it may leave one card."""
    if not _turn(m, seat):
        return None
    cards = sort_hand(legal_cards(m, seat))
    hand = round_of(m).hands[seat]
    call = {"announce": True} if calls(m) and len(hand) == (2 if cards else 1) else {}
    if round_of(m).drawn is not None:  # the drawn card that follows is played (a timeout plays on)
        call = call if cards else {}
        if not cards:
            return {"type": "pass"}
    elif not cards and keeps(m):
        return {"type": "draw"}
    if not cards:
        return {"type": "draw", **call}
    plain = [c for c in cards if COLOR[c] is not None]
    if plain:
        return {"type": "play", "card": plain[0], **call}
    rest = list(hand)
    rest.remove(cards[0])
    return {"type": "play", "card": cards[0], "called_suit": best_color(rest), **call}
