"""The hand's flow: the deal and the starter, whose turn it is, the end, the scoring, the match end."""
from __future__ import annotations

from typing import Any

from service.games.crazy_eights.rules import DRAW_TWO, EIGHT, REVERSE, SKIP, hand_size, penalty, step
from service.games.crazy_eights.state import EightsMatch
from service.games.crazy_eights.tx import Tx, choice, shuffle
from service.games.kernel.standings import shared_ranks, standing_row
from service.games.kernel.table import end_match as kernel_end_match
from service.games.shedding.cards import RANK, RANKS, build_deck

DECK: tuple[str, ...] = build_deck(RANKS, 1)
"""One 52-card deck in the documented order (suit, then rank: 2C .. AC, 2D .. AS)."""


def deal_round(tx: Tx, round_no: int) -> None:
    """OpenSpiel's deal: a random dealer; cards one at a time from dealer+1 round the table (the
    dealer gets the last); an eight turned up goes back into the stock, which is shuffled, and the
    next card is turned; with special cards the starter acts as if the dealer had played it."""
    m = tx.m
    active = m.active_seats()
    dealer = active[choice(m, "first_dealer", len(active))]
    tx.emit("RoundStarted", None, {"round": round_no, "dealer": dealer, "direction": 1,
                                   "active_seats": list(active)}, round_=round_no)
    order = shuffle(tx, "deck", DECK)
    k = hand_size(len(active))
    start = active.index(dealer) + 1
    hands: dict[int, list[str]] = {s: [] for s in active}
    for i, card in enumerate(order[:k * len(active)]):
        hands[active[(start + i) % len(active)]].append(card)
    tx.emit("CardsDealt", None, {"hand_sizes": {str(s): len(h) for s, h in hands.items()}},
            to_seat={s: {"cards": h} for s, h in hands.items()})
    while True:
        card = tx.m.rnd.stock[0]
        tx.emit("StarterTurned", None, {"card": card})
        if RANK[card] != EIGHT:
            break
        tx.emit("StarterReturned", None, {"card": card})
        shuffle(tx, "stock", tx.m.rnd.stock)
    first = step(active, dealer, 1)
    if tx.m.options["use_special_cards"]:
        rank = RANK[card]
        if rank == SKIP:
            first = step(active, dealer, 2)
            tx.emit("TurnSkipped", None, {"seat": step(active, dealer, 1)})
        elif rank == REVERSE:  # the fold turns the direction on DirectionReversed
            first = step(active, dealer, -1)
            tx.emit("DirectionReversed", None, {"direction": -1})
        elif rank == DRAW_TWO:
            tx.emit("DrawOwed", None, {"seat": first, "count": 2})
    start_turn(tx, first)


def start_turn(tx: Tx, seat: int) -> None:
    m = tx.m
    tx.emit("TurnStarted", None, {"seat": seat, "turn_id": m.rnd.turn_id + 1, "deadline": tx.after("turn_timeout_s")})


def end_hand(tx: Tx, reason: str, winner: int | None) -> None:
    """The hand is over: every hand is shown (they are what is scored), and scoring is due."""
    rnd = tx.m.rnd
    tx.emit("RoundEnded", None, {"reason": reason, "winner": winner})
    tx.emit("HandsRevealed", None, {"hands": {str(s): list(rnd.hands[s]) for s in rnd.seats}})


def score_round(tx: Tx) -> None:
    """Each seat scores minus the penalty of its cards; one hand is the whole match."""
    m = tx.m
    rnd = m.rnd
    points = {s: -penalty(rnd.hands[s]) for s in rnd.seats}
    tx.emit("RoundScored", None, {"round": m.round_no, "points": {str(s): p for s, p in points.items()},
                                  "totals": {str(s): p for s, p in points.items()},
                                  "intermission_deadline": None})
    end_match(tx, "hand_over")


def standings(m: EightsMatch) -> list[dict[str, Any]]:
    """Highest score first (0 is the best); equal scores share a rank."""
    seats = m.rnd.seats if m.rnd is not None else m.active_seats()
    ordered = sorted(seats, key=lambda s: (-m.seats[s].total, s))
    return [standing_row(m, s, rank) for s, rank in shared_ranks(ordered, lambda s: m.seats[s].total)]


def end_match(tx: Tx, reason: str) -> None:
    """§2.8 step 3: MatchEnded with the standings, then SeedsRevealed (§2.3)."""
    kernel_end_match(tx, reason, standings(tx.m))
