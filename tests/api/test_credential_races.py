"""Credentials change by compare-and-set (service/app/credentials.py), on the real Redis, in process:

- each race once as a deterministic interleaving: a store wrapper holds a rotation between its read
  and its write (threading.Event) while a revoke, a delete or another rotation runs whole; the late
  write is refused (``key_revoked``, 404, ``version_conflict``) and the record stays as the first
  change left it (a revoked key revoked, a deleted bot deleted);
- a 100-trial barrier stress run: revoke against three rotations of one key, delete against a
  rotation of one bot. After every trial the key is revoked and no secret a rotation handed out
  works, the bot is gone; every rotation that answered 200 made its own version (none lost).

Outcomes only, never times. The race counts are printed (``-s``) for the record; the figures of
main's code before this change are in docs/integrators.md's section on versions."""
from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from service.app import api_keys, remote_bots, webhooks
from service.app.context import AppContext
from service.app.errors import AppError
from service.eventstore.redis_store import RedisEventStore
from service.settings import Settings
from service.wiring import integrations

WRITES = frozenset(("apikey_put", "apikey_change", "bot_save", "bot_change", "hook_put", "hook_change"))
"""The store calls that write a record (today's and the ones before versions: the wrapper holds either)."""


class Held:
    """Delegates to a store; the first write of the thread ``hold()`` names waits for ``go`` after
    setting ``reached``: that thread's change has read the record and not yet written it."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self._held: int | None = None
        self.reached, self.go = threading.Event(), threading.Event()

    def hold(self) -> None:
        self._held = threading.get_ident()

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if name not in WRITES:
            return real

        def write(*args: Any, **kwargs: Any) -> Any:
            if self._held == threading.get_ident():
                self._held = None
                self.reached.set()
                assert self.go.wait(30)
            return real(*args, **kwargs)
        return write


@pytest.fixture
def store(redis_url: str, key_prefix: str) -> Iterator[RedisEventStore]:
    client = redis.Redis.from_url(redis_url)
    yield RedisEventStore(client, prefix=key_prefix)
    client.close()


def ctx_of(store: Any) -> AppContext:
    """An application context on ``store`` (the real one, or a ``Held`` wrapper of it)."""
    return AppContext(store, Settings(outbound_allow_private=True, remote_bots_per_key=1000), integrations=integrations())


def interleave(held: Held, late: Callable[[], Any], first: Callable[[], Any]) -> Any:
    """Run ``late`` in a thread held between its read and its write, ``first`` whole meanwhile, then
    let ``late`` write: what ``late`` answered (a value, or the AppError it raised)."""
    out: list[Any] = []

    def run() -> None:
        held.hold()
        try:
            out.append(late())
        except AppError as exc:
            out.append(exc)

    t = threading.Thread(target=run)
    t.start()
    assert held.reached.wait(30)
    first()
    held.go.set()
    t.join(30)
    return out[0]


def code(answer: Any) -> str:
    return answer.code.value if isinstance(answer, AppError) else "ok"


def works(store: Any, presented: str) -> bool:
    return api_keys.resolve(store, presented) is not None


def test_a_revoke_inside_a_rotation_stays_revoked(store: RedisEventStore) -> None:
    key, _ = api_keys.create(store, "race", now_ms=1)
    held = Held(store)
    late = interleave(held, lambda: api_keys.rotate(held, key.id, now_ms=2),
                      lambda: api_keys.revoke(store, key.id, now_ms=3))
    assert code(late) == "key_revoked"
    now = api_keys.get(store, key.id)
    assert now is not None and not now.active and now.revoked_at == 3
    actions = [e["action"] for e in api_keys.audit_log(store, key.id)]
    assert actions == ["revoked", "created"]


def test_a_delete_inside_a_rotation_stays_deleted(store: RedisEventStore) -> None:
    ctx = ctx_of(store)
    bot, _ = remote_bots.register(ctx, "k0000000001", "Felix", "http://127.0.0.1:9/x", ["prsi"])
    held = Held(store)
    late = interleave(held, lambda: remote_bots.rotate(ctx_of(held), "k0000000001", bot.id),
                      lambda: remote_bots.delete(ctx, "k0000000001", bot.id))
    assert code(late) == "not_found"
    assert store.bot_load(bot.id) is None and store.bot_ids("k0000000001") == []
    assert [e["action"] for e in remote_bots.audit_log(ctx, "k0000000001", bot.id)] == ["deleted", "created"]


@pytest.mark.parametrize("kind", ["key", "bot", "webhook"])
def test_of_two_rotations_from_one_version_one_succeeds(store: RedisEventStore, kind: str) -> None:
    ctx, owner = ctx_of(store), "k0000000002"
    held = Held(store)
    rotate: Callable[[Any], Any]
    if kind == "key":
        key, _ = api_keys.create(store, "race", now_ms=1)
        rotate = lambda s: api_keys.rotate(s, key.id, now_ms=2)[1]  # noqa: E731
        current: Callable[[str], bool] = lambda secret: works(store, secret)  # noqa: E731
    elif kind == "bot":
        bot, _ = remote_bots.register(ctx, owner, "Felix", "http://127.0.0.1:9/x", ["prsi"])
        rotate = lambda s: remote_bots.rotate(ctx_of(s), owner, bot.id)[1]  # noqa: E731
        current = lambda secret: remote_bots.owned(ctx, owner, bot.id).secret == secret  # noqa: E731
    else:
        hook_id = webhooks.create(ctx, owner, "http://127.0.0.1:9/hook", ["match.ended"])["id"]
        rotate = lambda s: webhooks.rotate(ctx_of(s), owner, hook_id)["secret"]  # noqa: E731
        current = lambda secret: webhooks.get(ctx, owner, hook_id).secret == secret  # noqa: E731
    won: list[str] = []
    late = interleave(held, lambda: rotate(held), lambda: won.append(rotate(store)))
    assert code(late) == "version_conflict" and late.extra["version"] == 2
    assert late.headers["ETag"] == '"2"'
    assert current(won[0])  # the secret the 200 handed out is the one the record holds


def _key_trial(store: Any, seed: int) -> dict[str, int]:
    key, _ = api_keys.create(store, f"trial {seed}", now_ms=seed)
    barrier = threading.Barrier(4)
    answers: list[Any] = [None] * 4

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = (api_keys.revoke(store, key.id, now_ms=10) if i == 0 else
                          api_keys.rotate(store, key.id, now_ms=10 + i))
        except AppError as exc:
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    rotated = [a for a in answers[1:] if isinstance(a, tuple)]
    now = api_keys.get(store, key.id)
    return {"revoke_200": int(not isinstance(answers[0], AppError)),
            "came_back": int(now is None or now.active),
            "rotated_secret_works": int(any(works(store, secret) for _, secret in rotated)),
            "rotate_200": len(rotated),
            "same_version_twice": len(rotated) - len({getattr(k, "version", 0) for k, _ in rotated})}


def _bot_trial(ctx: AppContext, seed: int) -> dict[str, int]:
    owner = "k0000000003"
    bot, _ = remote_bots.register(ctx, owner, f"b{seed}", "http://127.0.0.1:9/x", ["prsi"])
    barrier = threading.Barrier(2)
    answers: list[Any] = [None, None]

    def run(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = (remote_bots.delete(ctx, owner, bot.id) if i == 0 else
                          remote_bots.rotate(ctx, owner, bot.id))
        except AppError as exc:
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return {"delete_200": int(not isinstance(answers[0], AppError)),
            "came_back": int(ctx.bot_records.bot_load(bot.id) is not None or bot.id in ctx.bot_records.bot_ids(owner)),
            "rotate_200": int(not isinstance(answers[1], AppError))}


def test_a_hundred_barrier_trials_leave_revoked_keys_revoked_and_deleted_bots_deleted(
        store: RedisEventStore) -> None:
    keys, bots = Counter[str](), Counter[str]()
    ctx = ctx_of(store)
    for trial in range(100):
        keys.update(_key_trial(store, trial))
        bots.update(_bot_trial(ctx, trial))
    print(f"\nkeys, 100 trials of revoke vs 3 rotates: {dict(keys)}\nbots, 100 trials of delete vs rotate: {dict(bots)}")
    assert keys["revoke_200"] == 100 and keys["came_back"] == 0 and keys["rotated_secret_works"] == 0
    assert keys["same_version_twice"] == 0
    assert bots["delete_200"] == 100 and bots["came_back"] == 0
