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

from service.games.shedding.cards import RS
from service.games.shedding.state import ACE_FOLLOWUP, PLAY, Rules, TableTop

Caps = tuple[tuple[int, str, int], ...]
CAP_MAX = 3  # a bound above this says little: the entry is dropped (keeps every event cheap)


def gained(drew_on: Caps, seat: int, n: int) -> Caps:
    """``seat`` took ``n`` unseen cards (bounds above CAP_MAX are forgotten)."""
    if not drew_on or n <= 0:
        return drew_on
    for entry in drew_on:
        if entry[0] == seat:
            break
    else:
        return drew_on  # no entry of this seat: nothing changes (the common case)
    out: list[tuple[int, str, int]] = []
    for entry in drew_on:
        if entry[0] == seat:
            cap = entry[2] + n
            if cap <= CAP_MAX:
                out.append((seat, entry[1], cap))
        else:
            out.append(entry)
    return tuple(out)


def noted(drew_on: Caps, seat: int, keys: tuple[str, ...]) -> Caps:
    """``seat`` showed it holds no card of ``keys`` (cap 0 for each)."""
    out = [x for x in drew_on if x[0] != seat or x[1] not in keys] if drew_on else []
    for k in keys:
        out.append((seat, k, 0))
    return tuple(out)


def played(drew_on: Caps, seat: int, card: str, wild: str | None) -> Caps:
    """``seat`` played ``card``: one card fewer of its suit (non-wild) and of its rank."""
    if not drew_on:
        return drew_on
    rank, card_suit = RS[card]
    suit = None if rank == wild else card_suit
    out: list[tuple[int, str, int]] | None = None
    for i, entry in enumerate(drew_on):
        s, k, c = entry
        if s == seat and c > 0 and k in (rank, suit):
            if out is None:
                out = list(drew_on[:i])
            out.append((s, k, c - 1))
        elif out is not None:
            out.append(entry)
    return drew_on if out is None else tuple(out)


def turn_draw_keys(rnd: TableTop, r: Rules) -> tuple[str, ...]:
    """The keys a turn draw in ``rnd`` (before the draw) shows the drawer could not play."""
    phase = rnd.phase
    if (phase != PLAY and phase != ACE_FOLLOWUP) or not rnd.discard:
        return ()
    trank, tsuit = RS[rnd.discard[-1]]
    if r.lock and trank == r.lock and rnd.top_live:
        return ()  # a queen lock: only its king was legal
    first = rnd.called_suit or tsuit
    wild = r.wild
    if wild and (trank != wild or r.jack_on_jack) and wild != first and wild != trank:
        return (first, trank, wild) if first != trank else (first, wild)
    return (first, trank) if first != trank else (first,)


def as_public(drew_on: Caps) -> dict[str, dict[str, int]]:
    """The view's form: ``{seat: {key: cap}}`` (JSON keys are strings)."""
    out: dict[str, dict[str, int]] = {}
    for s, k, c in drew_on:
        out.setdefault(str(s), {})[k] = c
    return out
