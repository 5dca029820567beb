"""§2.8 round flow: deal (§3.2), scoring (§3.9.2-§3.9.3, §5.8) and match end."""
from __future__ import annotations

from typing import Any

from service.games.kernel import randomness
from service.games.shedding.cards import RANK, build_deck, hand_points, sort_hand
from service.games.shedding.core import next_active
from service.games.shedding.scoring import exceeds, next_dealer, round_points
from service.games.shedding.state import Match
from service.games.shedding.tx import Tx, advance, shuffle


def joiner_total(m: Match) -> int:
    """§3.10 joiner_initial_score over the seats active before this deal's activations."""
    mode = m.options["joiner_initial_score"]
    totals = [s.total for s in m.seats if s.state == "active"]
    if mode == "zero" or not m.scores or not totals:
        return 0
    if mode == "average_active":
        return round(sum(totals) / len(totals))
    return max(totals)


def choose_dealer(m: Match, round_no: int, active: tuple[int, ...]) -> int:
    """§3.2 step 1: first dealer from the match seed (or the creator), then dealer_rotation."""
    o = m.options
    if round_no == 1 or m.dealer is None:
        if o["first_dealer"] == "creator":
            for s in m.seats:
                if s.creator and s.state == "active":
                    return s.seat
        seed = bytes.fromhex(m.match_seed)
        return active[randomness.choice_index(seed, "first_dealer", len(active))]
    last = dict(m.scores[-1].points) if m.scores else None
    return next_dealer(o["dealer_rotation"], last, active, m.dealer, len(m.seats),
                       lambda s: next_active(m, s, 1))


def deal_round(tx: Tx, round_no: int) -> None:
    """§2.8 step 5 and §3.2: activate waiting seats, shuffle, deal, turn the starter, first turn."""
    m = tx.state
    base = joiner_total(m)
    for s in m.seats:
        if s.state == "waiting":
            tx.emit("SeatActivated", s.seat, {"seat": s.seat, "total": base})
    m = tx.state
    active = m.active_seats()
    dealer = choose_dealer(m, round_no, active)
    tx.emit("RoundStarted", None, {"round": round_no, "dealer": dealer, "active_seats": list(active),
                                   "direction": 1}, round_=round_no)
    o = m.options
    stock = shuffle(tx, "deck", build_deck(o["deck_ranks"], o["deck_copies"]))
    order = [next_active(tx.state, dealer, 1)]
    while len(order) < len(active):
        order.append(next_active(tx.state, order[-1], 1))
    n = len(order) * m.rules.hand_size
    hands: dict[int, list[str]] = {s: [] for s in order}
    for i in range(n):
        hands[order[i % len(order)]].append(stock[i])
    tx.emit("CardsDealt", None, {"hand_sizes": {str(s): len(h) for s, h in hands.items()}},
            to_seat={s: {"cards": h} for s, h in hands.items()})
    _starter(tx, stock[n:])
    advance(tx, dealer, check_limit=False)


def _starter(tx: Tx, rest: tuple[str, ...]) -> None:
    """§3.2 step 4: the starter and starter_special_policy (cover / apply / ignore)."""
    tx.emit("StarterTurned", None, {"card": rest[0]})
    m = tx.state
    policy = m.options["starter_special_policy"]
    i = 0
    if policy == "cover":
        while RANK[rest[i]] in m.rules.special and i + 1 < len(rest):
            tx.emit("StarterCovered", None, {"covered": rest[i], "card": rest[i + 1]})
            i += 1
    elif policy == "apply" and RANK[rest[0]] == m.rules.reverse:
        tx.emit("DirectionReversed", None, {"direction": -m.rnd.direction})


def score_round(tx: Tx) -> None:
    """§3.9.2/§3.9.3 scoring, §5.8 eliminations and match end (§2.8 steps 2-3)."""
    m = tx.state
    rnd = m.rnd
    r = m.rules
    active = m.active_seats()
    hands = {s: rnd.hands[s] if s < len(rnd.hands) else () for s in active}
    tx.emit("HandsRevealed", None, {"hands": {str(s): sort_hand(h) for s, h in hands.items()}})
    values = {s: hand_points(h, r.points) for s, h in hands.items()}
    pts = round_points(values, m.options, m.rules_version, rnd.end_reason, rnd.winner, rnd.last_card)
    totals = {s: m.seats[s].total + p for s, p in pts.items()}
    _finish_scoring(tx, pts, totals, values)


def _exceeds(m: Match, total: int) -> bool:
    return exceeds(m.options, total)


def _finish_scoring(tx: Tx, pts: dict[int, int], totals: dict[int, int], values: dict[int, int]) -> None:
    m = tx.state
    mode = m.options["match_end_mode"]
    out = [s for s in pts if _exceeds(m, totals[s])]
    if mode == "elimination":
        ends = len(pts) - len(out) <= 1
    else:
        ends = mode == "single_round" or bool(out)
    deadline = None if ends else tx.after("round_intermission_s")
    tx.emit("RoundScored", None, {"round": m.round_no, "points": {str(s): p for s, p in pts.items()},
                                  "totals": {str(s): t for s, t in totals.items()},
                                  "intermission_deadline": deadline})
    if mode == "elimination":
        for s in out:
            tx.emit("SeatEliminated", s, {"seat": s, "total": totals[s]})
    if ends:
        reason = {"elimination": "last_standing"}.get(mode, mode)
        end_match(tx, reason, None if mode == "elimination" else values if mode == "single_round" else totals)


def standings(m: Match, order_by: dict[int, int] | None) -> list[dict[str, Any]]:
    """§4.8 / §5.8 / §8.1.8 final ranking; struck and waiting seats have no rank.

    With ``order_by`` (totals for limit_reached, hand points for single_round, whose round winner
    comes first) the active seats are ranked by it, ascending. Without it (elimination) the
    survivors come first, then the eliminated by reverse round and lower total. Equal keys share
    a rank (tie_break = shared); tie_break = last_round_score breaks them by the points of the
    last round the seats scored in (lower first) and shares only what stays equal.
    """
    by_last = m.options["tie_break"] == "last_round_score"
    round_pts = {e.round: dict(e.points) for e in m.scores}
    last = round_pts.get(m.scores[-1].round, {}) if m.scores else {}
    active = list(m.active_seats())
    if order_by is not None:
        winner = m.rnd.winner if m.rnd is not None and m.options["match_end_mode"] == "single_round" else None
        key = {s: (-1 if s == winner else order_by.get(s, 0), last.get(s, 0) if by_last else 0) for s in active}
    else:
        key = dict.fromkeys(active, (0, 0))
    groups = [sorted(active, key=lambda s: (key[s], s))]
    elim = [s for s in m.seats if s.state == "eliminated"]
    for rnd_no in sorted({s.elim_round or 0 for s in elim}, reverse=True):
        pts = round_pts.get(rnd_no, {})
        grp = [s.seat for s in elim if (s.elim_round or 0) == rnd_no]
        key.update({s: (m.seats[s].total, pts.get(s, 0) if by_last else 0) for s in grp})
        groups.append(sorted(grp, key=lambda x: (key[x], x)))
    out: list[dict[str, Any]] = []
    pos = 0
    for grp in groups:
        prev_key: Any = object()
        rank = pos + 1
        for i, s in enumerate(grp):
            if key[s] != prev_key:
                rank = pos + i + 1
                prev_key = key[s]
            seat = m.seats[s]
            out.append({"seat": s, "name": seat.name, "rank": rank, "total": seat.total})
        pos += len(grp)
    return out


def end_match(tx: Tx, reason: str, order_by: dict[int, int] | None = None) -> None:
    """§2.8 step 3: MatchEnded with standings (and the winner, if one seat alone ranks first),
    then SeedsRevealed (§2.3)."""
    m = tx.state
    table = standings(m, order_by)
    active = m.active_seats()
    first = [row["seat"] for row in table if row["rank"] == 1]
    winner = first[0] if len(first) == 1 and (len(active) == 1 or order_by is not None) else None
    tx.emit("MatchEnded", None, {"reason": reason, "standings": table, "winner": winner})
    m = tx.state
    tx.emit("SeedsRevealed", None, {"match_seed": m.match_seed,
                                    "shuffle_seeds": {str(q): h for q, h in m.shuffle_seeds}})
