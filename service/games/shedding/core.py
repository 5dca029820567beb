"""§3 shedding core predicates shared by decide, evolve and legal-action enumeration."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.kernel.catch import CatchRule
from service.games.shedding.cards import RANK, RS, SHORT, SUIT
from service.games.shedding.state import (
    ACE_FOLLOWUP,
    AFTER_DRAW,
    PLAY,
    RESPOND_SEVEN,
    RESPOND_SKIP,
    TURN_PHASES,
    Match,
    Round,
    Rules,
    TableTop,
    round_of,
)


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
    lock = ranks["lock"] is not None
    grace = int(o["announce_grace_ms"]) if mode == "flag_or_window" else 0
    by_challenge = mode != "auto" and bool(o.get("announce_penalty_requires_challenge", False))
    return Rules(
        **ranks, lock_target=o["lock_target_rank"],
        jack_requires_no_match=jack and bool(o["jack_requires_no_match"]),
        jack_on_jack=(not jack) or bool(o["jack_on_jack_allowed"]),
        jack_calls_on_match=jack and bool(o["jack_calls_suit_on_match"]),
        lock_allows_jack=lock and jack and bool(o["queen_lock_allows_jack"]),
        seven_count=int(o["seven_draw_count"]) if seven else 0,
        seven_accumulate=seven and o["seven_stacking"] == "accumulate",
        seven_answerable=seven and bool(o["seven_answerable"]),
        final_seven=seven and bool(o["final_seven_penalty"]),
        final_seven_fixed=o["final_seven_amount"] == "fixed",
        skip_counterable=bool(o["eight_skips"]) and bool(o["skip_counterable"]),
        reverse_acts_as_skip=bool(o["nine_reverses"]) and o["reverse_two_player_mode"] == "acts_as_skip",
        ace_optional=bool(o["ace_followup_optional"]), ace_last_wins=bool(o["ace_last_card_wins"]),
        play_after_draw="any" if vol == "draw_then_continue" else o["play_after_draw"],
        must_play_drawn=bool(o["must_play_drawn_if_legal"]), voluntary=vol,
        max_draws=int(o["max_draws_per_turn"]) if vol == "draw_then_continue" else 1,
        reshuffle=bool(o["reshuffle_discard"]), max_turns=int(o["max_turns_per_round"]),
        announce_mode=mode, announce_penalty=int(o["announce_penalty_cards"]),
        grace_ms=grace,
        points=dict(o["card_points"]), hand_size=int(o["hand_size"]),
        special=frozenset(r for r in ranks.values() if r is not None),
        copies=int(o["deck_copies"]), starter_apply=o["starter_special_policy"] == "apply",
        early_penalty=0 if mode == "auto" else int(o.get("early_announce_penalty_cards", 0)),
        catch=CatchRule(int(o["announce_penalty_cards"]), by_challenge,
                        int(o.get("false_challenge_penalty_cards", 0)) if by_challenge else 0, grace),
    )


def natural(card: str, rnd: TableTop) -> bool:
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


_LEGAL_MEMO: list[Any] = [None, None, None, []]
"""One-entry memo (round, hand, rules) -> legal cards: all three are immutable, so this is pure."""


def legal_cards(hand: tuple[str, ...], rnd: Round, r: Rules) -> list[str]:
    """§3.3 has_legal_play: the legal cards of a hand, one per distinct rank+suit (lowest copy),
    in card-id order. Equivalent to filtering the hand with ``is_legal``. Memoized on the
    identities of the (immutable) round, hand and rules."""
    memo = _LEGAL_MEMO
    if memo[0] is rnd and memo[1] is hand and memo[2] is r:
        return memo[3]
    out = legal_cards_of(hand, rnd, r)
    memo[0], memo[1], memo[2], memo[3] = rnd, hand, r, out
    return out


def legal_cards_of(hand: tuple[str, ...] | list[str], rnd: Any, r: Rules) -> list[str]:
    """``legal_cards`` without the memo, for mutable rounds (the playout core, playout.py)."""
    phase = rnd.phase
    if phase == RESPOND_SEVEN:
        want = r.draw if r.seven_answerable else None
        out = [c for c in hand if RANK[c] == want]
    elif phase == RESPOND_SKIP:
        want = r.skip
        out = [c for c in hand if RANK[c] == want]
    else:
        top = rnd.discard[-1]
        top_rank = RANK[top]
        wild = r.wild
        if r.lock is not None and top_rank == r.lock and rnd.top_live:
            suit = SUIT[top]
            target = r.lock_target
            jack = wild if r.lock_allows_jack else None
            out = [c for c in hand if (RANK[c] == target and SUIT[c] == suit) or RANK[c] == jack]
        else:
            eff = rnd.called_suit or SUIT[top]
            out = []
            wilds: list[str] | None = None
            no_jack = wild is not None and top_rank == wild and not r.jack_on_jack
            rs = RS
            for c in hand:
                rank, suit = rs[c]
                if rank == wild:
                    if no_jack:
                        continue
                    if suit == eff or rank == top_rank:
                        out.append(c)
                    elif wilds is None:
                        wilds = [c]
                    else:
                        wilds.append(c)
                elif suit == eff or rank == top_rank:
                    out.append(c)
            if wilds is not None and not (r.jack_requires_no_match and out):
                out.extend(wilds)
    if len(out) > 1:
        out.sort()
        if r.copies > 1:
            out = _lowest_copies(out)
    return out


def _lowest_copies(cards: list[str]) -> list[str]:
    """Sorted card ids -> one per rank+suit (the lowest copy sorts first)."""
    out: list[str] = []
    prev = ""
    short_of = SHORT
    for c in cards:
        short = short_of[c]
        if short != prev:
            out.append(c)
            prev = short
    return out


def permitted_cards(m: Match, seat: int, legal: Any = legal_cards) -> list[str]:
    """The cards the phase permits: §3.3 legality, AFTER_DRAW's drawn_card_only restriction.
    ``legal`` is ``legal_cards`` (memoized) or, for a mutable round, ``legal_cards_of``."""
    rnd = round_of(m)
    r = m.rules
    hand = rnd.hands[seat]
    if rnd.phase == AFTER_DRAW and r.play_after_draw == "drawn_card_only":
        d = rnd.drawn_card
        if d is None or d not in hand:
            return []
        short = d[:-2]
        return [c for c in legal(hand, rnd, r) if c[:-2] == short]
    return legal(hand, rnd, r)


def calls_suit(card: str, hand_len_after: int, rnd: TableTop, r: Rules) -> bool:
    """§3.5 step 3: a jack calls a suit if wild (or calls on match) and is not the last card."""
    if r.wild is None or RANK[card] != r.wild or hand_len_after == 0:
        return False
    return r.jack_calls_on_match or not natural(card, rnd)


def can_draw(rnd: Round, r: Rules) -> bool:
    """§3.6: something can be drawn (stock, or a reshuffle of the discard minus its top)."""
    return bool(rnd.stock) or (r.reshuffle and len(rnd.discard) > 1)


def turn_options(m: Match, seat: int, legal: Any = legal_cards) -> tuple[list[str], bool, str | None]:
    """§3.4 table for the seat in its turn phase: (permitted cards, draw allowed, pass kind).

    The pass kind is 'blocked' for a blocked pass (§3.6), 'plain' for an allowed pass, or None.
    One legal-card computation serves all three; enumeration and decide both use this.
    """
    rnd = round_of(m)
    r = m.rules
    phase = rnd.phase
    hand = rnd.hands[seat]
    if phase in (RESPOND_SEVEN, RESPOND_SKIP):
        return legal(hand, rnd, r), False, None
    drawable = bool(rnd.stock) or (r.reshuffle and len(rnd.discard) > 1)
    if phase == AFTER_DRAW:
        cards = permitted_cards(m, seat, legal)
        draw = drawable and r.voluntary == "draw_then_continue" and rnd.draws_this_turn < r.max_draws
        d = rnd.drawn_card
        if r.must_play_drawn and d is not None and d in hand and is_legal(d, hand, rnd, r):
            return cards, draw, None
        return cards, draw, "plain"
    cards = legal(hand, rnd, r)
    if phase == PLAY:
        if cards:
            return cards, drawable and r.voluntary != "disabled", None
        return cards, drawable, None if drawable else "blocked"
    if phase == ACE_FOLLOWUP:
        if cards:
            if r.ace_optional:
                return cards, False, "plain"
            return cards, drawable and r.voluntary != "disabled", None
        return cards, drawable, None if drawable else "blocked"
    return [], False, None


def draw_allowed(m: Match, seat: int) -> bool:
    """§3.4 table: forced or voluntary draws per phase, never with nothing to draw."""
    return turn_options(m, seat)[1]


def pass_kind(m: Match, seat: int) -> str | None:
    """§3.4/§3.6: 'blocked' for a blocked pass, 'plain' for an allowed pass, None if not allowed."""
    return turn_options(m, seat)[2]


def in_grace(m: Match, seat: int, now: int) -> bool:
    """§3.8.6: another seat's unsatisfied window is inside its announcement grace."""
    w = round_of(m).window
    return (w is not None and w.seat != seat and not w.satisfied and m.rules.grace_ms > 0
            and now < w.opened_at + m.rules.grace_ms)


def late_flag_counts(r: Rules, rules_version: int) -> bool:
    """§3.8.2: whether ``announce: true`` on a later action of the obligated seat (a draw, a pass, a
    penalty taken, a skip accepted, an ace follow-up) satisfies its open window. Under
    ``flag_or_window`` it does; under ``flag_only`` only the flag on the play that triggers the
    obligation counts, from rules version 3 (RULES_VERSION): earlier histories replay as played,
    where any later flag counted. Under ``auto`` every window is satisfied when it opens."""
    if r.announce_mode == "flag_or_window":
        return True
    return r.announce_mode == "flag_only" and rules_version < 3


def early_announcement(r: Rules, phase: str | None, hands: Any, seats: Any, seat: int, own_window: bool) -> bool:
    """§3.8.5: whether an ``announce`` costs ``early_announce_penalty_cards``: sent by a seat dealt
    into the running round, while a turn is open (``phase``), with no open window of its own
    (``own_window``, satisfied or not) and no arming possible (the caller has checked arming).
    Outside a turn there is nothing to draw from: no cost."""
    return (r.early_penalty > 0 and phase in TURN_PHASES and 0 <= seat < len(hands) and bool(hands[seat])
            and seats[seat].state == "active" and not own_window)


def can_arm(m: Match, seat: int) -> bool:
    """§3.8.2 arming: own turn, exactly 2 cards, not yet armed."""
    rnd = round_of(m)
    return (rnd.current == seat and rnd.phase in TURN_PHASES and rnd.armed != seat
            and m.seats[seat].state == "active" and len(rnd.hands[seat]) == 2)


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
