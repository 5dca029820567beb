"""API keys (service/app/api_keys.py) on the in-memory store: shown once, only a hash stored,
rotated and revoked, resolved only while active."""
from __future__ import annotations

import hashlib

import pytest

from service.app import api_keys
from service.app.api_keys import ApiKey, Quotas
from service.app.errors import AppError
from service.eventstore.memory import MemoryEventStore
from service.settings import Settings


def test_create_shows_the_secret_once_and_stores_only_its_hash() -> None:
    store = MemoryEventStore()
    key, secret = api_keys.create(store, "  acme portal ", now_ms=5, quotas=Quotas(creates_per_minute=3))
    assert isinstance(key, ApiKey) and api_keys.ID_RE.match(key.id) and key.name == "acme portal"
    assert secret.startswith(f"meow_{key.id}_")
    raw = store.apikey_get(key.id)
    assert raw is not None and secret.encode() not in raw and secret.split("_", 2)[2].encode() not in raw
    assert hashlib.sha256(secret.split("_", 2)[2].encode()).hexdigest().encode() in raw
    assert api_keys.resolve(store, secret) == key
    assert "hash" not in key.public() and key.public()["quotas"]["creates_per_minute"] == 3
    assert api_keys.all_keys(store) == [key] and api_keys.get(store, key.id) == key


@pytest.mark.parametrize("bad", ["", "meow_", "meow_kzz_abc", "nope", "meow_k0123456789_short"])
def test_malformed_or_unknown_keys_resolve_to_none(bad: str) -> None:
    store = MemoryEventStore()
    _key, secret = api_keys.create(store, "a", now_ms=1)
    assert api_keys.resolve(store, bad) is None
    assert api_keys.resolve(store, secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None  # one char off
    assert api_keys.resolve(store, f"meow_k0000000000_{secret.split('_', 2)[2]}") is None  # another id


def test_rotate_replaces_the_secret_and_revoke_refuses_the_key() -> None:
    store = MemoryEventStore()
    key, old = api_keys.create(store, "a", now_ms=1)
    rotated, new = api_keys.rotate(store, key.id, now_ms=2)
    assert rotated.id == key.id and rotated.rotated_at == 2 and new != old
    assert api_keys.resolve(store, old) is None and api_keys.resolve(store, new) == rotated
    gone = api_keys.revoke(store, key.id, now_ms=3)
    assert gone.revoked_at == 3 and not gone.active and api_keys.resolve(store, new) is None
    assert api_keys.revoke(store, key.id, now_ms=9).revoked_at == 3  # idempotent
    with pytest.raises(AppError) as exc:
        api_keys.rotate(store, key.id, now_ms=4)  # a revoked key is not rotated back to life
    assert exc.value.code == "not_found"
    with pytest.raises(AppError):
        api_keys.revoke(store, "k0000000000", now_ms=4)


def test_the_cap_on_keys_and_the_effective_quotas() -> None:
    store = MemoryEventStore()
    api_keys.create(store, "a", now_ms=1, cap=1)
    with pytest.raises(api_keys.TooManyKeys):
        api_keys.create(store, "b", now_ms=1, cap=1)
    s = Settings()
    assert Quotas(reads_per_minute=7).effective(s) == Quotas(s.key_creates_per_minute, s.key_writes_per_minute, 7,
                                                            s.key_cost_per_minute, s.key_max_streams)
