"""Event <-> bytes. Stored type names come from the games' registries, never import paths.

Stored form (one stream entry field ``e``): orjson of
``{"t": type, "v": schema_version, "at": ms, "r": round, "s": seat|null, "d": public,
"p": {seat: private}, "x": server-private}``; the sequence number is the stream id.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from service.eventstore import chain
from service.games.kernel.model import EMPTY, Event

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
# (game, type, stored schema version) -> function lifting the stored dict one version up. Each game
# contributes its own (Game.upcasters); the game of a stream is named by its MatchCreated.
UPCASTERS: dict[tuple[str, str, int], Upcaster] = {}
_TABLES: dict[str, Any] = {}


class CorruptEvent(Exception):
    """A stored event that cannot be decoded; names the game and sequence number."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"event {seq}: {reason}")
        self.seq = seq
        self.reason = reason


def _default(obj: Any) -> Any:
    """orjson hook: read-only mappings (``MappingProxyType``, e.g. ``EMPTY``) serialise as objects."""
    if isinstance(obj, Mapping):
        return dict(obj)
    raise TypeError(f"Type is not JSON serializable: {type(obj).__name__}")


def to_json(value: Any) -> bytes:
    """orjson with read-only mappings allowed (events and follow-up payloads hold them)."""
    return orjson.dumps(value, default=_default, option=orjson.OPT_NON_STR_KEYS)


def _registry() -> Any:
    from service.games import registry  # the games import this package's Event: load them late

    if not _TABLES:
        agreed: dict[str, int] = {}
        clashing: set[str] = set()
        for g in registry.GAMES:
            for name, v in g.event_types.items():
                if agreed.setdefault(name, v) != v:
                    clashing.add(name)
        _TABLES["agreed"] = {k: v for k, v in agreed.items() if k not in clashing}
        for key, fn in registry.upcasters().items():
            UPCASTERS.setdefault(key, fn)
    return registry


def _schema_versions(game: str | None = None) -> Mapping[str, int]:
    """A game's table, or (no game named) the types whose version every game agrees on."""
    reg = _registry()
    return reg.event_versions(game) if game is not None else _TABLES["agreed"]


def game_of_created(raw: bytes) -> str | None:
    """The game (registry name) a stored MatchCreated names; None for anything else."""
    try:
        body = orjson.loads(raw)
        return _registry().for_variant(body["d"]["variant"]).name if body.get("t") == "MatchCreated" else None
    except Exception:  # noqa: BLE001 - an unreadable first event: nothing to upcast with
        return None


def body_of(event: Event, command: Mapping[str, Any] | None = None, game: str | None = None) -> dict[str, Any]:
    """The stored body of an event (without its chain hash), at its game's schema version."""
    versions = _schema_versions(game)
    if event.type not in versions:
        raise ValueError(f"unregistered event type {event.type!r}")
    body: dict[str, Any] = {
        "t": event.type,
        "v": versions[event.type],
        "at": event.at,
        "r": event.round,
        "s": event.seat,
        "d": event.data,
    }
    if event.to_seat:
        body["p"] = {str(k): v for k, v in event.to_seat.items()}
    if event.secret:
        body["x"] = event.secret
    if command:
        body["c"] = command
    return body


def encode(event: Event) -> bytes:
    """Serialise an event for the stream (its seq is the stream id, not stored twice)."""
    return to_json(body_of(event))


def encode_batch(events: Sequence[Event], prev_hash: str | None, command: Mapping[str, Any] | None,
                 game: str | None = None) -> list[bytes]:
    """The events of one command, each carrying its chain hash ``h``; the first carries the command ``c``."""
    out: list[bytes] = []
    for i, event in enumerate(events):
        body = body_of(event, command if i == 0 else None, game)
        if event.to_seat or event.secret:
            # a random nonce keeps a visible chain hash from confirming a guess of a hidden card
            body["n"] = secrets.token_hex(16)
        if prev_hash is not None:
            plain = orjson.loads(to_json(body))  # exactly what will be read back
            prev_hash = chain.link(prev_hash, chain.audit_record(event.seq, plain))
            body["h"] = prev_hash
        out.append(to_json(body))
    return out


@dataclass(frozen=True, slots=True)
class Stored:
    """An event as stored: the decoded (upcast) event, its raw body and chain hash, its command."""

    event: Event
    body: Mapping[str, Any]
    hash: str | None
    command: Mapping[str, Any] | None


GameOf = Callable[[], "str | None"]
"""Names the game of the stream being read (read lazily: only an old schema version needs it)."""


def decode_stored(seq: int, raw: bytes, game_of: GameOf | None = None) -> Stored:
    try:
        body = orjson.loads(raw)
    except Exception as exc:
        raise CorruptEvent(seq, f"{type(exc).__name__}: {exc}") from exc
    event = decode(seq, raw, game_of)
    if not isinstance(body, dict):
        raise CorruptEvent(seq, "not an object")
    return Stored(event, body, body.get("h"), body.get("c"))


def decode(seq: int, raw: bytes, game_of: GameOf | None = None) -> Event:
    """Parse and upcast one stored event with its game's upcasters; raise CorruptEvent if it
    cannot be read. A body at the version every game agrees on needs no game (the common case)."""
    try:
        body = orjson.loads(raw)
        name = body["t"]
        if body["v"] != _schema_versions().get(name):
            game = game_of() if game_of is not None else None
            if game is None:
                raise CorruptEvent(seq, f"{name} v{body['v']}: no game named to upcast it")
            current = _schema_versions(game)[name]
            while body["v"] < current:
                body = UPCASTERS[(game, name, body["v"])](body)
        to_seat = body.get("p")
        return Event(
            seq=seq,
            type=body["t"],
            at=body["at"],
            round=body["r"],
            seat=body["s"],
            data=body["d"],
            to_seat={int(k): v for k, v in to_seat.items()} if to_seat else EMPTY,
            secret=body.get("x") or EMPTY,
        )
    except CorruptEvent:
        raise
    except Exception as exc:  # any decoding failure means a poison event
        raise CorruptEvent(seq, f"{type(exc).__name__}: {exc}") from exc
