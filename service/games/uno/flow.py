"""The hand's flow (RLCard's UnoGame.init_game, UnoRound.flip_top_card and perform_top_card): the
deal and the starter, whose turn it is, the end, the scoring, the match end."""
from __future__ import annotations

from typing import Any

from service.games.kernel.standings import shared_ranks, standing_row
from service.games.kernel.table import end_match as kernel_end_match
from service.games.uno.cards import COLOR, COLORS, DECK, DRAW_2, REVERSE, SKIP, TRAIT, WILD_DRAW_4
from service.games.uno.options import printed, to_target
from service.games.uno.rules import HAND_SIZE, hand_points, step
from service.games.uno.state import UnoMatch
from service.games.uno.tx import Tx, choice, shuffle


def random_color(tx: Tx) -> str:
    """RLCard's ``np_random.choice(UnoCard.info['color'])``: a colour drawn from the match seed,
    labelled by the event that records it (revealed with the seed at the match's end, §2.3)."""
    return COLORS[choice(tx.m, f"color/{tx.m.version + 1}", len(COLORS))]


def deal_round(tx: Tx, round_no: int) -> None:
    """RLCard's init_game: the deck shuffled, seven cards (``cards_dealt``) to each player in turn
    (a block of seven from the top each, player 0 first: ``deck.pop()`` seven times), the top card turned (a wild
    draw four goes back and the stock is shuffled again; a wild takes a random colour), and the
    starter performed: a skip skips player 0, a reverse turns play round to the last player, a draw
    two makes player 0 draw two and still begin. RLCard's players 0..n-1 are the seats in order;
    the dealer is recorded as the last of them (RLCard has none)."""
    m = tx.m
    active = m.active_seats()
    tx.emit("RoundStarted", None, {"round": round_no, "dealer": step(active, active[(round_no - 1) % len(active)], -1),
                                   "direction": 1,
                                   "active_seats": list(active)}, round_=round_no)
    order = shuffle(tx, "deck", DECK)
    k = int(m.options.get("cards_dealt", HAND_SIZE))
    hands = {s: list(order[i * k:(i + 1) * k]) for i, s in enumerate(active)}
    tx.emit("CardsDealt", None, {"hand_sizes": {str(s): len(h) for s, h in hands.items()}},
            to_seat={s: {"cards": h} for s, h in hands.items()})
    while True:
        card = tx.m.rnd.stock[0]
        if TRAIT[card] == WILD_DRAW_4:
            tx.emit("StarterTurned", None, {"card": card, "color": None})
            tx.emit("StarterReturned", None, {"card": card})
            shuffle(tx, "stock", tx.m.rnd.stock)
            continue
        color = COLOR[card] or random_color(tx)
        tx.emit("StarterTurned", None, {"card": card, "color": color})
        break
    first = active[(round_no - 1) % len(active)]  # each hand the next seat begins (hand 1: RLCard's player 0)
    trait = TRAIT[card]
    if trait == SKIP:
        tx.emit("TurnSkipped", None, {"seat": first})
        first = step(active, first, 1)
    elif trait == REVERSE:
        tx.emit("DirectionReversed", None, {"direction": -1})
        first = step(active, first, -1)
    elif trait == DRAW_2:
        draw_cards(tx, first, 2, "penalty")
    start_turn(tx, first)


def start_turn(tx: Tx, seat: int) -> None:
    m = tx.m
    tx.emit("TurnStarted", None, {"seat": seat, "turn_id": m.rnd.turn_id + 1, "deadline": tx.after("turn_timeout_s")})


def reshuffle(tx: Tx, keep_top: bool) -> None:
    """RLCard's replace_deck: every played card (the target's too) is put under the stock and the
    whole stock shuffled. With ``keep_top`` (the printed rules) the top card stays on the table
    (``kept``) and the others go under the stock."""
    rnd = tx.m.rnd
    data: dict[str, Any] = {"count": len(rnd.discard) - keep_top}
    if keep_top:
        data["kept"] = rnd.discard[-1]
    tx.emit("StockReshuffled", None, data)
    shuffle(tx, "discard", tx.m.rnd.stock)


def draw_cards(tx: Tx, seat: int, count: int, reason: str, by: int | None = None) -> list[str]:
    """``count`` cards from the stock to ``seat`` (``by``: the seat whose own action it is). Where
    RLCard raises (too few cards left even after the reshuffle: its pop from an empty list) this
    preset deals what there is and records the shortfall (docs/games/uno.md)."""
    rnd = tx.m.rnd
    keep_top = printed(tx.m.variant, tx.m.rules_version)  # the top card is no card to reshuffle
    if len(rnd.stock) < count and len(rnd.discard) > keep_top:
        reshuffle(tx, keep_top)
        rnd = tx.m.rnd
    cards = list(rnd.stock[:count])
    if cards:
        tx.emit("CardDrawn", by, {"seat": seat, "count": len(cards), "reason": reason,
                                  "hand_size": len(rnd.hands[seat]) + len(cards)},
                to_seat={seat: {"cards": cards}})
    if len(cards) < count:
        tx.emit("DrawShortfall", None, {"seat": seat, "missing": count - len(cards)})
    return cards


def end_hand(tx: Tx, winner: int) -> None:
    """A hand emptied: the hand is over (RLCard's ``is_over``), every hand is shown, scoring is due."""
    rnd = tx.m.rnd
    tx.emit("RoundEnded", None, {"reason": "hand_empty", "winner": winner})
    tx.emit("HandsRevealed", None, {"hands": {str(s): list(rnd.hands[s]) for s in rnd.seats}})


def score_round(tx: Tx) -> None:
    """RLCard's payoffs: 1 for the winner and -1 for the others (``get_payoffs`` sets -1 for
    player ``1 - winner`` only, which is every loser with two players; docs/games/uno.md). With
    ``match_end_mode`` target_points (the published rules) the hand's winner scores the points left in the other
    hands, and the match goes on hand after hand until a seat's total reaches the target."""
    m = tx.m
    rnd = m.rnd
    target = to_target(m.options)
    if target is not None:
        _score_to_target(tx, target)
        return
    points = {s: 1 if s == rnd.winner else -1 for s in rnd.seats}
    tx.emit("RoundScored", None, {"round": m.round_no, "points": {str(s): p for s, p in points.items()},
                                  "totals": {str(s): p for s, p in points.items()},
                                  "intermission_deadline": None})
    end_match(tx, "hand_over")


def _score_to_target(tx: Tx, target: int) -> None:
    m = tx.m
    rnd = m.rnd
    won = sum(hand_points(rnd.hands[s]) for s in rnd.seats if s != rnd.winner)
    points = {s: won if s == rnd.winner else 0 for s in rnd.seats}
    totals = {s: m.seats[s].total + p for s, p in points.items()}
    ends = any(t >= target for t in totals.values())
    tx.emit("RoundScored", None, {"round": m.round_no, "points": {str(s): p for s, p in points.items()},
                                  "totals": {str(s): t for s, t in totals.items()},
                                  "intermission_deadline": None if ends else tx.after("round_intermission_s") or tx.at})
    if ends:
        end_match(tx, "target_reached")


def standings(m: UnoMatch) -> list[dict[str, Any]]:
    """The winner first; the others share rank 2."""
    seats = m.rnd.seats if m.rnd is not None else m.active_seats()
    ordered = sorted(seats, key=lambda s: (-m.seats[s].total, s))
    return [standing_row(m, s, rank) for s, rank in shared_ranks(ordered, lambda s: m.seats[s].total)]


def end_match(tx: Tx, reason: str) -> None:
    """§2.8 step 3: MatchEnded with the standings, then SeedsRevealed (§2.3)."""
    kernel_end_match(tx, reason, standings(tx.m))
