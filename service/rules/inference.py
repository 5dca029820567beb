"""§7.3 H4: what the public record says about the cards a seat cannot hold (``Round.drew_on``).

Every input is public (§2.4): who drew and how many cards, the suit required and the top card at
that moment, a taken seven penalty, and every played card. ``drew_on`` holds ``(seat, key, cap)``:
when the seat last drew with suit ``key`` required (or rank ``key`` on top, or the wild rank
legal, or a seven pending), it showed it held no such card, *if* it only draws when it must; every
card it gains afterwards raises ``cap`` by one and every card of ``key`` it plays lowers it. So
``cap`` bounds the cards of ``key`` in its hand (a suit key counts non-wild cards only). A seat
that draws by choice (a human saving cards) makes this evidence, not certainty: bots weight it.
"""
from __future__ import annotations

from .cards import RANK, SUIT
from .state import ACE_FOLLOWUP, PLAY, Round, Rules

Caps = tuple[tuple[int, str, int], ...]
CAP_MAX = 3  # a bound above this says little: the entry is dropped (keeps every event cheap)


def gained(drew_on: Caps, seat: int, n: int) -> Caps:
    """``seat`` took ``n`` unseen cards (bounds above CAP_MAX are forgotten)."""
    if not drew_on or n <= 0:
        return drew_on
    out: list[tuple[int, str, int]] = []
    changed = False
    for entry in drew_on:
        if entry[0] == seat:
            changed = True
            cap = entry[2] + n
            if cap <= CAP_MAX:
                out.append((seat, entry[1], cap))
        else:
            out.append(entry)
    return tuple(out) if changed else drew_on


def noted(drew_on: Caps, seat: int, keys: tuple[str, ...]) -> Caps:
    """``seat`` showed it holds no card of ``keys`` (cap 0 for each)."""
    keep = tuple(x for x in drew_on if not (x[0] == seat and x[1] in keys))
    return keep + tuple((seat, k, 0) for k in keys)


def played(drew_on: Caps, seat: int, card: str, wild: str | None) -> Caps:
    """``seat`` played ``card``: one card fewer of its suit (non-wild) and of its rank."""
    if not drew_on:
        return drew_on
    rank = RANK[card]
    suit = None if rank == wild else SUIT[card]
    out: list[tuple[int, str, int]] = []
    changed = False
    for entry in drew_on:
        s, k, c = entry
        if s == seat and c > 0 and (k == rank or k == suit):
            out.append((s, k, c - 1))
            changed = True
        else:
            out.append(entry)
    return tuple(out) if changed else drew_on


def turn_draw_keys(rnd: Round, r: Rules) -> tuple[str, ...]:
    """The keys a turn draw in ``rnd`` (before the draw) shows the drawer could not play."""
    if rnd.phase not in (PLAY, ACE_FOLLOWUP) or not rnd.discard:
        return ()
    top = rnd.discard[-1]
    trank = RANK[top]
    if r.lock and trank == r.lock and rnd.top_live:
        return ()  # a queen lock: only its king was legal
    keys = [rnd.called_suit or SUIT[top], trank]
    if r.wild and trank != r.wild or r.wild and r.jack_on_jack:
        keys.append(r.wild)
    return tuple(dict.fromkeys(k for k in keys if k))


def as_public(drew_on: Caps) -> dict[str, dict[str, int]]:
    """The view's form: ``{seat: {key: cap}}`` (JSON keys are strings)."""
    out: dict[str, dict[str, int]] = {}
    for s, k, c in drew_on:
        out.setdefault(str(s), {})[k] = c
    return out
