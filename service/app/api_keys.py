"""API keys (docs/integrators.md): an operator's credential for an integrator's backend, sent in the
``Meow-Key`` header (service/api/keys.py), distinct from the seat tokens of ``Authorization``.

A key reads ``meow_<id>_<secret>``: the id is public (short, lowercase hex after a ``k``: safe as a
metric label and inside a Redis key), the secret is 256 random bits of which only the SHA-256 is
stored (``ApiKeys`` port, service/eventstore/ports/api_keys.py). A key is shown once, when it is
created or rotated; rotating gives the same id a new secret (the old one stops at once); revoking
keeps the record (its tables stay its own) and refuses the key from then on.

Each key has its own quotas (``Quotas``; None: the settings' defaults for keys), and what it creates
is its own: ``table_key`` names the key that created a table. That is recorded store-side with the
creation, in the game's token hash ("meta:key", written by the same append that creates the game, so
it is there as long as the game is, through restarts, replays and compaction), never in the stream
or any answer: players and spectators do not learn which integrator's key made their table."""
from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from service.app import credentials, table_meta
from service.app.codes import AppCode
from service.app.errors import AppError, not_found
from service.app.idempotency import Precondition
from service.app.table_meta import Meta
from service.eventstore.ports import ApiKeys, Tokens
from service.eventstore.versioned import CONFLICT, MISSING, OK

if TYPE_CHECKING:
    from service.settings import Settings

KEY_META = Meta.KEY  # the token-hash field naming the key that created a table (service/app/table_meta.py)
ID_RE = re.compile(r"^k[0-9a-f]{10}$")
PREFIX = "meow_"
NAME_MAX = 80


@dataclass(frozen=True, slots=True)
class Quotas:
    """A key's own limits, per minute (None: the settings' default for keys, ``effective``)."""

    creates_per_minute: int | None = None
    writes_per_minute: int | None = None
    reads_per_minute: int | None = None
    cost_per_minute: int | None = None  # cost units of history, verify, state?at, events (service/app/meter.py)
    max_streams: int | None = None  # open event streams at once

    def effective(self, settings: Settings) -> Quotas:
        """Every quota filled in: the key's own, else the settings' default for keys."""
        return Quotas(*(own if own is not None else default for own, default in zip(
            (self.creates_per_minute, self.writes_per_minute, self.reads_per_minute, self.cost_per_minute,
             self.max_streams),
            (settings.key_creates_per_minute, settings.key_writes_per_minute, settings.key_reads_per_minute,
             settings.key_cost_per_minute, settings.key_max_streams), strict=True)))


@dataclass(frozen=True, slots=True)
class ApiKey:
    """One key as the service knows it (never its secret, nor the secret's hash)."""

    id: str  # public: "k" + 10 hex digits
    name: str  # the operator's label ("acme portal")
    created_at: int  # ms
    quotas: Quotas = field(default_factory=Quotas)
    rotated_at: int | None = None  # ms: when its secret was last replaced
    revoked_at: int | None = None  # ms: revoked keys are refused (their tables stay theirs)
    version: int = 0  # one more with each change (created: 1; service/app/credentials.py)

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def public(self) -> dict[str, Any]:
        """The key as the admin endpoints and the CLI show it (``quotas``: None for a default)."""
        return {"id": self.id, "name": self.name, "created_at": self.created_at, "rotated_at": self.rotated_at,
                "revoked_at": self.revoked_at, "active": self.active, "quotas": asdict(self.quotas),
                "version": self.version}


# ---------------------------------------------------------------------- records
def _secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _encode(key: ApiKey, secret_hash: str) -> bytes:
    return orjson.dumps({**asdict(key), "hash": secret_hash})


def _decode(raw: bytes) -> tuple[ApiKey, str]:
    rec = orjson.loads(raw)
    quotas = Quotas(**{k: v for k, v in (rec.get("quotas") or {}).items() if k in Quotas.__dataclass_fields__})
    key = ApiKey(rec["id"], rec["name"], int(rec["created_at"]), quotas, rec.get("rotated_at"), rec.get("revoked_at"),
                 int(rec.get("version") or 0))
    return key, str(rec["hash"])


def _new_secret(random_bytes: Callable[[int], bytes]) -> str:
    return base64.urlsafe_b64encode(random_bytes(32)).rstrip(b"=").decode("ascii")


def _presented(key_id: str, secret: str) -> str:
    return f"{PREFIX}{key_id}_{secret}"


def parse(presented: str) -> tuple[str, str] | None:
    """(id, secret) of a presented key, or None when it is not shaped like one."""
    if not presented.startswith(PREFIX):
        return None
    key_id, sep, secret = presented[len(PREFIX):].partition("_")
    if not sep or not ID_RE.match(key_id) or not 20 <= len(secret) <= 100:
        return None
    return key_id, secret


# ---------------------------------------------------------------------- operations
class TooManyKeys(Exception):
    """The operator's cap on keys (settings.max_api_keys) is reached."""


def create(store: ApiKeys, name: str, *, now_ms: int, quotas: Quotas | None = None,
           random_bytes: Callable[[int], bytes] = secrets.token_bytes, cap: int = 0,
           by: str = credentials.ADMIN) -> tuple[ApiKey, str]:
    """A new key and its secret (shown this once). ``TooManyKeys`` beyond ``cap`` keys (0: no cap)."""
    name = name.strip()[:NAME_MAX]
    for _ in range(8):  # a fresh id (40 bits: a clash is rare; a few tries settle it)
        key = ApiKey("k" + random_bytes(5).hex(), name, now_ms, quotas or Quotas(), version=1)
        secret = _new_secret(random_bytes)
        if store.apikey_create(key.id, _encode(key, _secret_hash(secret)), cap=cap,
                               entry=credentials.entry(now_ms, "created", key.version, by), keep=credentials.LOG_KEEP):
            return key, _presented(key.id, secret)
        if cap and len(store.apikey_all()) >= cap:
            raise TooManyKeys(f"at most {cap} keys")
    raise RuntimeError("no fresh key id in 8 tries")


def get(store: ApiKeys, key_id: str) -> ApiKey | None:
    raw = store.apikey_get(key_id) if ID_RE.match(key_id) else None
    return _decode(raw)[0] if raw is not None else None


def all_keys(store: ApiKeys) -> list[ApiKey]:
    """Every key, oldest first."""
    return sorted((_decode(raw)[0] for raw in store.apikey_all().values()), key=lambda k: (k.created_at, k.id))


def _revoked(key: ApiKey) -> AppError:
    return AppError(AppCode.KEY_REVOKED, "a revoked key stays revoked; create another",
                    headers={"ETag": credentials.etag(key.version)}, version=key.version)


def _read(store: ApiKeys, key_id: str) -> tuple[ApiKey, str]:
    raw = store.apikey_get(key_id) if ID_RE.match(key_id) else None
    if raw is None:
        raise not_found("key")
    return _decode(raw)


def rotate(store: ApiKeys, key_id: str, *, now_ms: int, random_bytes: Callable[[int], bytes] = secrets.token_bytes,
           pre: Precondition | None = None, by: str = credentials.ADMIN) -> tuple[ApiKey, str]:
    """A new secret for an active key (shown this once); the old secret is refused from now on.
    ``not_found`` for an unknown key, ``key_revoked`` for a revoked one, ``version_conflict`` when
    another change came first (compare-and-set on the version read, or on ``pre``, If-Match): of
    concurrent rotations one succeeds, and its secret is the one the key holds."""
    key, _ = _read(store, key_id)
    if not key.active:
        raise _revoked(key)
    credentials.expect("key", key.version, pre)
    new = replace(key, rotated_at=now_ms, version=key.version + 1)
    secret = _new_secret(random_bytes)
    done = store.apikey_change(key.id, key.version, _encode(new, _secret_hash(secret)),
                               credentials.entry(now_ms, "rotated", new.version, by), credentials.LOG_KEEP)
    if done.status == MISSING or done.record is None:
        raise not_found("key")
    if done.status == CONFLICT:
        now = _decode(done.record)[0]
        raise _revoked(now) if not now.active else credentials.conflict("key", now.version, pre)
    return new, _presented(key.id, secret)


def revoke(store: ApiKeys, key_id: str, *, now_ms: int, pre: Precondition | None = None,
           by: str = credentials.ADMIN) -> ApiKey:
    """Refuse the key from now on, for good (idempotent: a revoked key stays revoked at its first
    time). Needs only that the key is active: a rotation that came first is read again and the key
    revoked all the same; with ``pre`` (If-Match) it must still be at that version."""
    for _ in range(credentials.RETRIES):
        key, digest = _read(store, key_id)
        if not key.active:
            return key
        credentials.expect("key", key.version, pre)
        new = replace(key, revoked_at=now_ms, version=key.version + 1)
        done = store.apikey_change(key.id, key.version, _encode(new, digest),
                                   credentials.entry(now_ms, "revoked", new.version, by), credentials.LOG_KEEP)
        if done.status == OK:
            return new
        if done.status == MISSING or done.record is None:
            raise not_found("key")
    raise credentials.conflict("key", _read(store, key_id)[0].version, pre)


def audit_log(store: ApiKeys, key_id: str) -> list[dict[str, Any]]:
    """The key's audit log, newest first (the last ``credentials.LOG_KEEP`` changes)."""
    _read(store, key_id)
    return credentials.log(store.apikey_log(key_id, credentials.LOG_KEEP))


def resolve(store: ApiKeys, presented: str) -> ApiKey | None:
    """The active key a presented ``meow_<id>_<secret>`` is, or None (malformed, unknown, a rotated
    secret, revoked). One read by id; the hashes compared in constant time."""
    parsed = parse(presented)
    if parsed is None:
        return None
    raw = store.apikey_get(parsed[0])
    if raw is None:
        return None
    key, digest = _decode(raw)
    if not hmac.compare_digest(digest, _secret_hash(parsed[1])) or not key.active:
        return None
    return key


# ---------------------------------------------------------------------- tables
def key_tokens(key: ApiKey | None) -> dict[str, bytes]:
    """The token-hash fields a new table of this key is created with (written by its first append)."""
    return table_meta.fields({KEY_META: key.id.encode()}) if key is not None else {}


class HasTokens(Protocol):
    """Anything with a ``tokens`` port (AppContext, GameService)."""

    @property
    def tokens(self) -> Tokens: ...


def table_key(ctx: HasTokens, game_id: str) -> str | None:
    """The id of the key that created the table, or None (anonymous; or no such game)."""
    raw = table_meta.get(ctx.tokens, game_id, KEY_META)
    return raw.decode() if raw is not None else None
