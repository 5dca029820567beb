"""Pure decisions the event engine and the playout core share, written once: the points of a
round (§3.9.2-§3.9.3), the penalty limit (§5.8), the dealer rotation (§3.2) and the suit a
default wild play calls (§3.4)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from service.games.shedding.cards import RANK, SUIT, SUITS


def round_points(values: Mapping[int, int], options: Mapping[str, Any], rules_version: int,
                 end_reason: str | None, winner: int | None, last_card: str | None) -> dict[int, int]:
    """Each active seat's penalty points from its hand value: the winner 0 (times the jack-finish
    multiplier for the others), or on a blocked round the lowest hands 0 (lowest_hand_wins)."""
    if end_reason == "out":
        mult = 1
        if (options["jack_ends_round_doubles"] and last_card is not None
                and (options["jack_wild"] or rules_version < 2)  # v2: only a wild jack doubles
                and RANK[last_card] == options["wild_rank"]):
            mult = int(options["jack_end_multiplier"])
        return {s: 0 if s == winner else v * mult for s, v in values.items()}
    if options["blocked_round_rule"] == "lowest_hand_wins" and values:
        low = min(values.values())
        return {s: 0 if v == low else v for s, v in values.items()}
    return dict(values)


def exceeds(options: Mapping[str, Any], total: int) -> bool:
    """§5.8 / §8.1.8: gt exceeds the limit, gte reaches it."""
    limit = options["penalty_limit"]
    return total > limit if options["penalty_limit_comparison"] == "gt" else total >= limit


def next_dealer(rotation: str, last_points: Mapping[int, int] | None, active: Sequence[int], dealer: int,
                n_seats: int, next_active: Callable[[int], int]) -> int:
    """§3.2 step 1 after the first round: clockwise, or the next seat (clockwise from the dealer)
    among those with the most (loser_deals) or fewest (winner_deals) points of the last round."""
    if rotation != "clockwise" and last_points:
        cand = [s for s in active if s in last_points]
        if cand:
            pick = max if rotation == "loser_deals" else min
            best = pick(last_points[s] for s in cand)
            chosen = {s for s in cand if last_points[s] == best}
            s = dealer
            for _ in range(n_seats):
                s = next_active(s)
                if s in chosen:
                    return s
    return next_active(dealer)


def default_suit(hand: Sequence[str]) -> str:
    """§3.4: the suit the rest of the hand holds most of (ties C, D, H, S)."""
    counts = dict.fromkeys(SUITS, 0)
    for c in hand:
        counts[SUIT[c]] += 1
    return max(SUITS, key=lambda s: (counts[s], -SUITS.index(s)))
