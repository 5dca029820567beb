"""§6.3 and §2.8 round flow for Sakapuss: kinds, dealer, chance deck, deal, scoring, match end."""
from __future__ import annotations

from typing import Any

from service.games.kernel import randomness
from service.games.kernel.standings import shared_ranks, standing_row
from service.games.kernel.table import end_match as kernel_end_match
from service.games.sakapuss.state import SakapussMatch
from service.games.sakapuss.tx import Tx, choice, shuffle


def chance_deck_cards(o: Any) -> tuple[str, ...]:
    """§6.2: parasites ``par:<kind>:<n>:<copy>``, insecticides ``ins:<kind>:<copy>``, shower(s)."""
    cards: list[str] = []
    letters = "abcdefghijklmnopqrstuvwxyz"
    for kind in o["parasite_kinds"]:
        seen: dict[int, int] = {}
        for n in o["parasite_cards"][kind]:
            i = seen.get(n, 0)
            seen[n] = i + 1
            cards.append(f"par:{kind}:{n}:{letters[i]}")
    for kind in o["parasite_kinds"]:
        cards.extend(f"ins:{kind}:{letters[i]}" for i in range(o["insecticides_per_kind"]))
    showers = o["shower_cards"]
    cards.extend(["shower"] if showers == 1 else [f"shower:{letters[i]}" for i in range(showers)])
    return tuple(cards)


def choose_kinds(m: SakapussMatch, round_no: int, n: int) -> tuple[str, ...]:
    """§6.3: n cat kinds of cat_kinds_total from the match seed, label ``cat_kinds/<round>``."""
    label_round = round_no if m.options["kinds_selection"] == "random_per_round" else 1
    every = [f"k{i}" for i in range(int(m.options["cat_kinds_total"]))]
    picked = randomness.shuffled(bytes.fromhex(m.match_seed), every, f"cat_kinds/{label_round}")[:n]
    return tuple(sorted(picked, key=lambda k: int(k[1:])))


def choose_dealer(m: SakapussMatch, round_no: int, active: tuple[int, ...]) -> int:
    """§6.3: random in round 1 (``first_dealer``), then the next seat clockwise."""
    if round_no == 1 or m.dealer is None or m.dealer not in active:
        return active[choice(m, "first_dealer", len(active))]
    return active[(active.index(m.dealer) + 1) % len(active)]


def deal_round(tx: Tx, round_no: int) -> None:
    """§6.3: RoundStarted, the chance deck once (round 1), the cats shuffled, 4 to each seat."""
    m = tx.m
    o = m.options
    active = m.active_seats()
    dealer = choose_dealer(m, round_no, active)
    kinds = m.kinds
    if not kinds or o["kinds_selection"] == "random_per_round":
        kinds = choose_kinds(m, round_no, len(active))
    direction = 1 if o["pass_direction"] == "left" else -1
    tx.emit("RoundStarted", None, {"round": round_no, "dealer": dealer, "active_seats": list(active),
                                   "direction": direction, "kinds": list(kinds)}, round_=round_no)
    if round_no == 1 and not tx.m.chance_deck:
        shuffle(tx, "chance_deck", chance_deck_cards(o))
    cats = tuple(f"cat:{k}" for k in kinds for _ in range(int(o["cats_per_kind"])))
    order = shuffle(tx, "cats", cats)
    start = active.index(dealer) + 1
    seq = [active[(start + i) % len(active)] for i in range(len(active))]
    hands: dict[int, list[str]] = {s: [] for s in seq}
    for i, card in enumerate(order):
        hands[seq[i % len(seq)]].append(card)
    deadline = tx.after("pass_timeout_s")
    tx.emit("CardsDealt", None, {"hand_sizes": {str(s): len(h) for s, h in hands.items()},
                                 "step": 1, "deadline": deadline},
            to_seat={s: {"cards": sorted(h)} for s, h in hands.items()})


def score_round(tx: Tx) -> None:
    """§6.8 / §2.8 steps 2-3: totals = parasites in front of each seat; match end after ``rounds``."""
    m = tx.m
    seats = m.rnd.seats
    totals = {s: m.parasite_total(s) for s in seats}
    points = {s: totals[s] - m.seats[s].total for s in seats}
    ends = m.round_no >= int(m.options["rounds"])
    deadline = None if ends else tx.after("round_intermission_s")
    tx.emit("RoundScored", None, {
        "round": m.round_no, "points": {str(s): p for s, p in points.items()},
        "totals": {str(s): t for s, t in totals.items()},
        "parasite_cards": {str(s): len(m.parasites.get(s, ())) for s in seats},
        "intermission_deadline": deadline})
    if ends:
        end_match(tx, "rounds_played")


def standings(m: SakapussMatch) -> list[dict[str, Any]]:
    """§6.8: ascending by parasites; ties share (or fewer parasite cards first, then share)."""
    seats = list(m.rnd.seats if m.rnd is not None else m.active_seats())
    by_cards = m.options["tie_break"] == "fewer_parasite_cards"

    def key(s: int) -> tuple[int, int]:
        return (m.seats[s].total, len(m.parasites.get(s, ())) if by_cards else 0)

    ordered = sorted(seats, key=lambda s: (key(s), s))
    return [standing_row(m, s, rank, parasite_cards=len(m.parasites.get(s, ())))
            for s, rank in shared_ranks(ordered, key)]


def end_match(tx: Tx, reason: str) -> None:
    """§2.8 step 3: MatchEnded with the standings, then SeedsRevealed (§2.3)."""
    kernel_end_match(tx, reason, standings(tx.m))
