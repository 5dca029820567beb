"""The checks of the engine conformance suite, one function per property, for any registered game.

Each takes a game's registry entry and plain data (states, events, actions), raises
AssertionError naming what broke, and knows no game: cards are read through the entry's
``cards_in_play``, actions through ``legal_actions`` and ``registry.ACTIONS``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from service.games import engine, registry
from service.games.kernel.game import Game
from service.games.kernel.model import Context, Event, NeedMoreSeeds, RuleViolation

ACTION_OF: dict[type, str] = {spec.command: name for name, spec in registry.ACTIONS.items()}
"""The wire name of every seat command."""


def comparable(state: Any) -> bool:
    """Whether ``==`` on the game's states compares their content (frozen dataclasses do)."""
    return dataclasses.is_dataclass(state) and type(state).__eq__ is not object.__eq__


def assert_same_state(live: Any, replayed: Any, now: int, what: str) -> None:
    """(a) The state a fold of the history gives is the live one: by ``==``, or, for states that do
    not compare, by the public view and every seat's private view."""
    if comparable(live):
        if live != replayed:
            diff = [f.name for f in dataclasses.fields(live) if getattr(live, f.name) != getattr(replayed, f.name)]
            raise AssertionError(f"{what}: the replayed state differs from the live one in {diff}")
        return
    assert engine.public_view(replayed, now, True) == engine.public_view(live, now, True), what
    for seat in range(len(live.seats)):
        assert engine.private_view(replayed, seat, now) == engine.private_view(live, seat, now), (what, seat)


def assert_consecutive(events: Iterable[Event], version: int) -> None:
    """Events are numbered version + 1, version + 2, ... (the stream id is the version)."""
    for i, e in enumerate(events):
        assert e.seq == version + 1 + i, f"event {e.type} has seq {e.seq}, expected {version + 1 + i}"


def assert_conserved(before: Counter[str], after: Counter[str], what: str) -> None:
    """(b) The multiset of the cards in play is constant within a round."""
    if before != after:
        raise AssertionError(f"{what}: cards not conserved: gained {dict(after - before)}, "
                             f"lost {dict(before - after)}")


_MAPS = (dict, MappingProxyType)
_SEQS = (list, tuple, set, frozenset)
_SCALARS = (int, float, bool, type(None))


def leaf_strings(value: Any) -> set[str]:
    """Every string in a nested structure of mappings, sequences, dataclasses and scalars (keys
    included). Exact type checks first: this runs on every bot's view."""
    out: set[str] = set()
    stack = [value]
    pop, push, add = stack.pop, stack.extend, out.add
    while stack:
        v = pop()
        t = type(v)
        if t is str:
            add(v)
        elif t in _SCALARS:
            continue
        elif t in _MAPS:
            push(map(str, v))
            push(v.values())
        elif t in _SEQS:
            push(v)
        elif isinstance(v, str):
            add(v)
        elif isinstance(v, Mapping):
            push(map(str, v))
            push(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            push(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            push(getattr(v, f.name) for f in dataclasses.fields(v))
    return out


def assert_bot_view(state: Any, seat: int, now: int, view: Any, contents: bool = True) -> None:
    """(f) A bot's input is its seat's view and nothing more: its legal actions are the seat's, and
    (``contents``) every string in it appears in the public view or in that seat's private view."""
    assert view.seat == seat and view.now == now
    assert [dict(a) for a in view.legal_actions] == engine.legal_actions(state, seat, now), \
        f"seat {seat}: the SeatView's legal actions are not legal_actions()"
    if not contents:
        return
    allowed = leaf_strings(engine.public_view(state, now, True)) | leaf_strings(engine.private_view(state, seat, now))
    extra = leaf_strings(view) - allowed
    assert not extra, f"seat {seat}: the SeatView holds {sorted(extra)[:5]}, in no view of that seat"


def frozen_copy(value: Any) -> Any:
    """A deep copy of a SeatView's contents, read-only mappings kept read-only."""
    t = type(value)
    if t is dict:
        return {k: frozen_copy(v) for k, v in value.items()}
    if t is MappingProxyType or (t not in (str, int, float, bool) and isinstance(value, Mapping)):
        return MappingProxyType({k: frozen_copy(v) for k, v in value.items()})
    if t is list or t is tuple:
        return t(frozen_copy(v) for v in value)
    return value


def copy_view(view: Any) -> Any:
    """A SeatView equal to ``view`` sharing nothing with it (a bot must not depend on identity)."""
    return dataclasses.replace(view, **{f.name: frozen_copy(getattr(view, f.name))
                                        for f in dataclasses.fields(view)})


def seeds_for(tag: str, n: int) -> tuple[bytes, ...]:
    """The fresh seeds a command tagged ``tag`` gets (a shuffle consumes them in order)."""
    return tuple(hashlib.sha256(f"{tag}/{i}".encode()).digest() for i in range(n))


def decided(state: Any, cmd: Any, now: int, tag: str, skip: int = 0) -> Any:
    """engine.outcome with as many fresh seeds as the command needs (as the app retries); ``skip``
    drops the first seeds (a replay of part of a command, after its shuffles)."""
    n = 4
    while True:
        try:
            return engine.outcome(state, cmd, Context(now, seeds_for(tag, n + skip)[skip:]))
        except NeedMoreSeeds as more:
            assert more.needed > n, "NeedMoreSeeds asked for no more seeds than it had"
            n = more.needed


def command(seat: int, action: Mapping[str, Any]) -> Any:
    """An action object (``{"type": ..., ...}``) as its seat command, as the API builds it."""
    a = dict(action)
    return registry.SEAT_ACTIONS[a.pop("type")](seat=seat, **a)


def assert_refused(state: Any, cmd: Any, now: int, what: str, racing: bool = False) -> RuleViolation | None:
    """(d) The command is refused with a domain code and produces no events. With ``racing`` (a
    step or a seat out of turn, not a card), a race-tolerant action may instead be accepted as a
    harmless no-op (None): it is taken without a version precondition, so it may come too early
    or too late by design (RULES K-5, §3.8.5)."""
    try:
        got = engine.outcome(state, cmd, Context(now, ()))
    except RuleViolation as exc:
        assert isinstance(exc.code, str) and exc.code, f"{what}: refused without a code"
        return exc
    except NeedMoreSeeds:
        raise AssertionError(f"{what}: {cmd} was accepted (it asked for seeds)") from None
    except Exception as exc:
        raise AssertionError(f"{what}: {cmd} raised {type(exc).__name__}: {exc} instead of a RuleViolation") from exc
    if racing and ACTION_OF.get(type(cmd)) in registry.RACE_TOLERANT and harmless(state, cmd.seat, got, now):
        return None
    raise AssertionError(f"{what}: {cmd} was accepted with {[e.type for e in got.events]}")


def harmless(before: Any, seat: int, got: Any, now: int) -> bool:
    """A race-tolerant action (taken without a version precondition) that came too early or too
    late may be accepted if it touches nothing but its own seat: its events are the seat's own,
    no card moves and no other seat's legal actions change."""
    game = registry.of(before)
    after = got.state
    if any(e.seat != seat for e in got.events):
        return False
    if game.cards_in_play is not None and game.cards_in_play(before) != game.cards_in_play(after):
        return False
    return all(engine.legal_actions(before, o, now) == engine.legal_actions(after, o, now)
               for o in range(len(before.seats)) if o != seat)


def assert_accepted(state: Any, seat: int, action: Mapping[str, Any], now: int, tag: str) -> Any:
    """(c) A legal action is accepted (returns its outcome)."""
    try:
        return decided(state, command(seat, action), now, tag)
    except RuleViolation as exc:
        raise AssertionError(f"seat {seat}: the legal action {dict(action)} was refused: {exc.code} "
                             f"({exc.detail})") from exc


# ---------------------------------------------------------------- illegal commands


def card_field(action: Mapping[str, Any], hand: Iterable[str]) -> tuple[str, bool] | None:
    """The field of ``action`` that names a card of ``hand``: (name, whole id) or (name, False)
    when it names the part after the id's first ``:`` (a kind for ``cat:k3``)."""
    hand = list(hand)
    for name, v in action.items():
        if name == "type" or not isinstance(v, str):
            continue
        if v in hand:
            return name, True
        if any(h.split(":", 1)[-1] == v for h in hand):
            return name, False
    return None


def _naming(action: Mapping[str, Any], name: str, value: str) -> dict[str, Any]:
    """``action`` with its field ``name`` set to another card: its ``card`` (the hand card's id the
    legal action names, docs/clients.md) goes with it when another field names the card, since a
    ``card`` that disagrees with that field is refused before the rules see it."""
    return {**{k: v for k, v in action.items() if k != "card" or name == "card"}, name: value}


def as_field(card: str, whole: bool) -> str:
    return card if whole else card.split(":", 1)[-1]


def illegal_commands(game: Game, state: Any, now: int, rng: random.Random,
                     legal: Mapping[int, list[dict[str, Any]]], hands: Mapping[int, list[str]],
                     seen: Mapping[str, list[Any]]) -> list[tuple[str, Any, bool]]:
    """(d) Random commands the rules must refuse, each labelled: another seat's card, a card not
    held, acting out of turn, a wrong step, an action of another game; and whether a race-tolerant
    action may pass as a harmless no-op (out of turn or out of step only)."""
    out: list[tuple[str, Any, bool]] = []
    seats = list(legal)
    acting = [s for s in seats if legal[s]]
    cards = game.cards_in_play(state) if game.cards_in_play is not None else None
    for s in rng.sample(acting, len(acting)):
        with_card = [(a, card_field(a, hands.get(s, ()))) for a in legal[s]]
        with_card = [(a, f) for a, f in with_card if f is not None]
        if not with_card:
            continue
        a, (name, whole) = rng.choice(with_card)
        mine = {as_field(c, whole) for c in hands.get(s, ())}
        theirs = sorted({as_field(c, whole) for o in seats if o != s for c in hands.get(o, ())} - mine)
        if theirs:
            bad = _naming(a, name, rng.choice(theirs))
            if bad not in legal[s]:
                out.append(("another seat's card", command(s, bad), False))
        pool = sorted({as_field(c, whole) for c in (cards or ())} - mine)
        if pool:
            bad = _naming(a, name, rng.choice(pool))
            if bad not in legal[s]:
                out.append(("a card not held", command(s, bad), False))
        break
    idle = [s for s in seats if not legal[s]]
    if idle and acting:
        s = rng.choice(idle)
        out.append(("acting out of turn", command(s, rng.choice(legal[rng.choice(acting)])), True))
    s = rng.choice(seats)
    wrong = sorted(set(game.actions) - {a["type"] for a in legal[s]})
    if wrong:
        t = rng.choice(wrong)
        fields = _fields(registry.ACTIONS[t].required, seen)
        if fields is not None:
            out.append((f"a wrong step ({t})", command(s, {"type": t, **fields}), True))
    foreign = sorted(set(registry.ACTIONS) - set(game.actions))
    if foreign:
        t = rng.choice(foreign)
        fields = {f: (seen[f][-1] if seen.get(f) else 1) for f in registry.ACTIONS[t].required}
        out.append((f"another game's action ({t})", command(s, {"type": t, **fields}), False))
    return out


def _fields(required: Iterable[str], seen: Mapping[str, list[Any]]) -> dict[str, Any] | None:
    out = {}
    for f in required:
        if not seen.get(f):
            return None
        out[f] = seen[f][-1]
    return out


# ---------------------------------------------------------------- timers


def assert_defaults_legal(state_before: Any, e: Event, now: int, tag: str, shuffled: int = 0) -> None:
    """(e) A TimedOut's default action is one of the seat's legal actions (an action object), or of a
    legal type (a name, e.g. a random pass); a chain of defaults is legal step by step, replayed
    with the seeds the timer's command had (``tag``, ``shuffled`` of them used before the
    TimedOut) so that a draw that reshuffles draws what it drew."""
    seat = e.data["seat"]
    default = e.data.get("default_action")
    legal = engine.legal_actions(state_before, seat, now)
    if isinstance(default, str):
        assert any(a["type"] == default for a in legal), \
            f"timeout of seat {seat}: default {default!r} is no legal type of {legal}"
        return
    chain = e.data.get("chain") or ([default] if default is not None else [])
    assert chain, f"timeout of seat {seat} names no default action"
    s = state_before
    for i, a in enumerate(chain):
        legal = engine.legal_actions(s, seat, now)
        assert dict(a) in legal, f"timeout of seat {seat}: default {i} {a} is not in {legal}"
        got = decided(s, command(seat, a), now, tag, shuffled)
        shuffled += sum(ev.type == "ShuffleCommitted" for ev in got.events)
        s = got.state


def assert_shuffles_documented(game: Game, events: Iterable[Event]) -> int:
    """Every shuffle of the history un-shuffles, with its own seed, to the items the game's
    independent verifier module (``Game.verifier``, docs/audit.md) lists from the record so far:
    the module and the engine agree on every deck, pile and hand they shuffle. The number checked."""
    from service.verifier.primitives import unshuffle

    if game.verifier is None:
        raise AssertionError(f"game {game.name!r} has no verifier module (<package>/verifier.py, docs/audit.md)")
    events = list(events)
    created = next(e for e in events if e.type == "MatchCreated")
    cards = game.verifier.Shuffles(dict(created.data["options"]))
    checked = 0
    for e in events:
        record = {"seq": e.seq, "type": e.type, "round": e.round, "seat": e.seat, "data": dict(e.data),
                  "private": {str(s): dict(p) for s, p in e.to_seat.items()}, "secret": dict(e.secret)}
        if e.type == "ShuffleCommitted":
            what = e.data["what"]
            expected = cards.expected(what)
            assert expected is not None, f"event {e.seq}: {game.verifier.__name__} lists no items for a {what!r} shuffle"
            assert unshuffle(e.secret["seed"], list(e.secret["order"])) == expected, \
                f"event {e.seq}: the {what!r} shuffle is not of the items {game.verifier.__name__} lists"
            checked += 1
        cards.see(record)
    return checked
