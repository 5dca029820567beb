"""§3 shedding core predicates shared by decide, evolve and legal-action enumeration."""
from __future__ import annotations

from typing import Any, Mapping

from .cards import RANK, SUIT
from .state import RESPOND_SEVEN, RESPOND_SKIP, Match, Round, Rules


def rules_from_options(o: Mapping[str, Any]) -> Rules:
    """§8.1.3: effect ranks are enabled by their flags; derive the hot-path rule table."""
    seven = bool(o["seven_draw_penalty"])
    jack = bool(o["jack_wild"])
    ranks = {
        "wild": o["wild_rank"] if jack else None,
        "draw": o["draw_rank"] if seven else None,
        "skip": o["skip_rank"] if o["eight_skips"] else None,
        "reverse": o["reverse_rank"] if o["nine_reverses"] else None,
        "extra": o["extra_card_rank"] if o["ace_plays_again"] else None,
        "lock": o["lock_rank"] if o["queen_only_king_same_suit"] else None,
    }
    mode = o["announce_mode"] if o["announce_required"] else "auto"
    vol = o["voluntary_draw_mode"]
    return Rules(
        **ranks, lock_target=o["lock_target_rank"],
        jack_requires_no_match=jack and bool(o["jack_requires_no_match"]),
        jack_on_jack=(not jack) or bool(o["jack_on_jack_allowed"]),
        jack_calls_on_match=jack and bool(o["jack_calls_suit_on_match"]),
        lock_allows_jack=bool(o["queen_lock_allows_jack"]),
        seven_count=int(o["seven_draw_count"]), seven_accumulate=o["seven_stacking"] == "accumulate",
        seven_answerable=bool(o["seven_answerable"]),
        final_seven=seven and bool(o["final_seven_penalty"]),
        final_seven_fixed=o["final_seven_amount"] == "fixed",
        skip_counterable=bool(o["eight_skips"]) and bool(o["skip_counterable"]),
        reverse_acts_as_skip=o["reverse_two_player_mode"] == "acts_as_skip",
        ace_optional=bool(o["ace_followup_optional"]), ace_last_wins=bool(o["ace_last_card_wins"]),
        play_after_draw="any" if vol == "draw_then_continue" else o["play_after_draw"],
        must_play_drawn=bool(o["must_play_drawn_if_legal"]), voluntary=vol,
        max_draws=int(o["max_draws_per_turn"]) if vol == "draw_then_continue" else 1,
        reshuffle=bool(o["reshuffle_discard"]), max_turns=int(o["max_turns_per_round"]),
        announce_mode=mode, announce_penalty=int(o["announce_penalty_cards"]),
        grace_ms=int(o["announce_grace_ms"]) if mode == "flag_or_window" else 0,
        points=dict(o["card_points"]), hand_size=int(o["hand_size"]),
        special=frozenset(r for r in ranks.values() if r is not None),
    )


def natural(card: str, rnd: Round) -> bool:
    """§3.3: same suit as the effective suit, or same rank as the top card."""
    top = rnd.discard[-1]
    eff = rnd.called_suit or SUIT[top]
    return SUIT[card] == eff or RANK[card] == RANK[top]


def is_legal(card: str, hand: tuple[str, ...], rnd: Round, r: Rules) -> bool:
    """§3.3 rules 1-7: the matching predicate."""
    rank = RANK[card]
    phase = rnd.phase
    if phase == RESPOND_SEVEN:
        return rank == r.draw and r.seven_answerable
    if phase == RESPOND_SKIP:
        return rank == r.skip
    top = rnd.discard[-1]
    top_rank = RANK[top]
    if r.lock is not None and top_rank == r.lock and rnd.top_live:
        if r.lock_allows_jack and rank == r.wild:
            return True
        return rank == r.lock_target and SUIT[card] == SUIT[top]
    if rank == r.wild and top_rank == r.wild and not r.jack_on_jack:
        return False
    if SUIT[card] == (rnd.called_suit or SUIT[top]) or rank == top_rank:
        return True
    if rank == r.wild:
        if r.jack_requires_no_match:
            return not any(natural(c, rnd) for c in hand if c != card)
        return True
    return False


_LEGAL_MEMO: list = [None, -1, None, []]
"""One-entry memo (round object, seat, hand, result): rounds are immutable, so this is pure."""


def legal_cards(hand: tuple[str, ...], rnd: Round, r: Rules) -> list[str]:
    """§3.3 has_legal_play: the legal cards of a hand, one per distinct rank+suit (lowest copy)."""
    memo = _LEGAL_MEMO
    if memo[0] is rnd and memo[2] is hand:
        return memo[3]
    out: list[str] = []
    seen: set[str] = set()
    phase = rnd.phase
    simple = phase != RESPOND_SEVEN and phase != RESPOND_SKIP and r.lock is None
    if simple:
        top = rnd.discard[-1]
        top_rank = RANK[top]
        eff = rnd.called_suit or SUIT[top]
        wild = r.wild
        no_jack = wild is not None and top_rank == wild and not r.jack_on_jack
    for c in sorted(hand):
        key = c[:-2]
        if key in seen:
            continue
        seen.add(key)
        if simple and not r.jack_requires_no_match:
            rank = RANK[c]
            if rank == wild:
                ok = not no_jack
            else:
                ok = SUIT[c] == eff or rank == top_rank
        else:
            ok = is_legal(c, hand, rnd, r)
        if ok:
            out.append(c)
    memo[0], memo[1], memo[2], memo[3] = rnd, 0, hand, out
    return out


def calls_suit(card: str, hand_len_after: int, rnd: Round, r: Rules) -> bool:
    """§3.5 step 3: a jack calls a suit if wild (or calls on match) and is not the last card."""
    if r.wild is None or RANK[card] != r.wild or hand_len_after == 0:
        return False
    return r.jack_calls_on_match or not natural(card, rnd)


def can_draw(rnd: Round, r: Rules) -> bool:
    """§3.6: something can be drawn (stock, or a reshuffle of the discard minus its top)."""
    return bool(rnd.stock) or (r.reshuffle and len(rnd.discard) > 1)


def next_active(m: Match, frm: int, direction: int) -> int:
    """§2.1: the next active seat from ``frm`` in ``direction`` (frm itself need not be active)."""
    seats = m.seats
    n = len(seats)
    i = frm
    for _ in range(n):
        i = (i + direction) % n
        if seats[i].state == "active":
            return i
    return frm


def hand_of(rnd: Round, seat: int) -> tuple[str, ...]:
    """The cards of ``seat`` (empty for seats not dealt in this round)."""
    hands = rnd.hands
    return hands[seat] if seat < len(hands) else ()
