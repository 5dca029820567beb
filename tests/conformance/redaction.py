"""The redaction oracle (DESIGN rules 3 and 9), for every registered variant, from the registry.

Two proofs that nobody is shown what it may not see:

1. **The projection depends only on what the viewer may know.** For every state a game reaches
   and every viewer (each seat and a spectator), the public view (with the round's record and
   without), the seat's private view, its legal actions and its bot input (``seat_view``) are the
   same for the state and for several resamples of it: states the game's ``resample`` hook (OpenSpiel's
   ResampleFromInfostate, service/games/kernel/game.py) made by dealing every card hidden from that
   viewer again among the places hidden from it. A view that shows any of it differs for some
   resample. This is how Sakapuss' hands, passes and pass logs (multisets of cat kinds every
   viewer knows the names of) are checked at all.
2. **Every outbound path answers exactly that projection of the truth.** Random games are played
   over the API (tests/conformance/redaction_api.py); every answer a seat or a spectator gets is
   compared with ``project_view`` / ``project_event`` (service/app/redaction.py) of the unredacted
   history read from the store, and searched for needles: strings of the events' ``secret`` parts
   and of other seats' private parts that this viewer has never been shown.

This module holds the pure half and the needles; redaction_api.py drives the API.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import orjson

from service.app import redaction
from service.games import registry
from service.games.kernel.game import Game
from service.games.kernel.model import Event

VARIANTS: tuple[str, ...] = tuple(registry.BY_VARIANT)
MIN_NEEDLE = 4  # shorter strings (a rank, a suit, "up") say nothing and occur everywhere


def _plain(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return dict(obj)
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(type(obj).__name__)


def norm(obj: Any) -> Any:
    """The value as a JSON answer carries it (tuples as lists, keys as strings)."""
    return orjson.loads(orjson.dumps(obj, default=_plain, option=orjson.OPT_NON_STR_KEYS))


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two JSON values first differ, for a readable failure."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                return first_difference(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path or '.'}: {str(a)[:200]} != {str(b)[:200]}"


def resampler(game: Game) -> Any:
    """The game's resample hook; a game without one fails the oracle (kernel/game.py)."""
    assert game.resample is not None, (
        f"game {game.name!r} has no resample hook: the redaction oracle cannot check it "
        "(docs/adding-a-game.md)")
    return game.resample


# ---------------------------------------------------------------- 1. projection indistinguishability


def projection(state: Any, seat: int | None, now: int) -> dict[str, Any]:
    """Everything the viewer is shown of ``state`` at ``now`` by the game's projection."""
    game = registry.of(state)
    out = {"public": norm(game.public_view(state, now, True)), "lean": norm(game.public_view(state, now, False))}
    if seat is not None:
        sv = game.seat_view(state, seat, now)
        out.update(private=norm(game.private_view(state, seat, now)),
                   legal=norm(game.legal_actions(state, seat, now)),
                   seat_view=norm({"seat": sv.seat, "now": sv.now, "public": sv.public, "hand": sv.hand,
                                   "legal_actions": sv.legal_actions, "own": sv.own}))
    return out


def viewers_of(state: Any) -> list[int | None]:
    return [s.seat for s in state.seats] + [None]


def check_indistinguishable(state: Any, now: int, rng: random.Random, resamples: int) -> int:
    """Each viewer's projection of ``state`` equals that of ``resamples`` resamples for it;
    the number of resamples that differ from ``state`` (a hook that changes nothing proves nothing)."""
    game = registry.of(state)
    hook = resampler(game)
    changed = 0
    for seat in viewers_of(state):
        seen = projection(state, seat, now)
        for _ in range(resamples):
            other = hook(state, seat, rng)
            assert type(other) is type(state) and other.version == state.version, "a resample is another game"
            changed += other != state
            got = projection(other, seat, now)
            if got != seen:
                raise AssertionError(
                    f"{state.variant} v{state.version}: viewer {seat} sees hidden cards (its projection "
                    f"changes when they are dealt again): {first_difference(seen, got)}")
    return changed


# ---------------------------------------------------------------- events: the reference projection


def expected_event(event: Event, seat: int | None) -> dict[str, Any]:
    """``project_event`` for a seat or a spectator, checked on its own: no secret, no other seat's
    private part (so a leak planted in project_event itself is caught too)."""
    out = norm(redaction.project_event(event, redaction.Viewer(seat=seat)))
    assert "secret" not in out, f"event {event.seq} {event.type} shows its secret part"
    assert set(out.get("private", {})) <= ({str(seat)} if seat is not None else set()), (
        f"event {event.seq} {event.type} shows another seat's private part to viewer {seat}")
    return out


# ---------------------------------------------------------------- needles


def leaves(obj: Any, keys: bool = False) -> Iterator[str]:
    """The string leaves of a JSON-like value (and its keys: they are text of an answer too)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            if keys:
                yield str(k)
            yield from leaves(v, keys)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from leaves(v, keys)


class Needles:
    """Per viewer: strings of secret parts and of other seats' private parts of the events so far
    that never appeared in anything this viewer may see (its projected events, its own part of its
    views; the public view is left out, so a leak into it is a needle too), nor inside such a
    string. Such a string in an answer to this viewer is a leak, whatever the path or its shape."""

    def __init__(self, viewers: Iterable[int | None], enabled: bool = True) -> None:
        self.enabled = enabled  # off: only to prove the other checks catch a leak on their own
        self.hidden: dict[int | None, set[str]] = {v: set() for v in viewers}
        self.shown: dict[int | None, set[str]] = {v: set() for v in viewers}
        self.needles: dict[int | None, set[str]] = {v: set() for v in viewers}

    def _hide(self, seat: int | None, values: Iterable[str]) -> None:
        for h in values:
            if h not in self.hidden[seat]:
                self.hidden[seat].add(h)
                if len(h) >= MIN_NEEDLE and not any(h in s for s in self.shown[seat]):
                    self.needles[seat].add(h)

    def _show(self, seat: int | None, values: Iterable[str]) -> None:
        needles = self.needles[seat]
        for s in values:
            if s not in self.shown[seat]:
                self.shown[seat].add(s)
                if needles:
                    needles -= {h for h in needles if h in s}

    def add_event(self, event: Event) -> None:
        """Take in the next event; its public part must not repeat a value of its own private or
        secret parts that nobody had been shown (a drawn card, a dealt hand, a shuffled order)."""
        spectator = self.shown.get(None, set())
        hidden = set(leaves(event.secret)).union(*(leaves(p) for p in event.to_seat.values()))
        told = {x for x in set(leaves(event.data)) & hidden if len(x) >= MIN_NEEDLE and x not in spectator}
        assert not told, f"event {event.seq} {event.type} shows in its public data what it hides: {sorted(told)[:5]}"
        for v in self.hidden:
            self._show(v, leaves(expected_event(event, v), keys=True))
            self._hide(v, leaves(event.secret))
            for s, part in event.to_seat.items():
                if s != v:
                    self._hide(v, leaves(part))

    def add_own(self, seat: int, private_view: Any) -> None:
        """The seat's own part of its view (its hand, as the view names its cards)."""
        self._show(seat, leaves(private_view, keys=True))

    def of(self, seat: int | None) -> set[str]:
        return self.needles[seat]

    def check(self, seat: int | None, text: str, where: str, allowed: frozenset[str] = frozenset()) -> None:
        """No needle of this viewer in ``text`` (but those in ``allowed``: what the caller sent)."""
        found = {n for n in self.needles[seat] - allowed if n in text} if self.enabled else ()
        assert not found, f"{where}: viewer {seat} is shown hidden values {sorted(found)[:5]}"
