"""The Redis implementation of the event store contract (real Redis or fakeredis)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

import orjson

from service.eventstore import versioned
from service.eventstore.append_args import AppendArgs
from service.eventstore.bot_records import RedisBotRecords
from service.eventstore.codec import Stored, decode, decode_stored, game_of_created, to_json
from service.eventstore.compact import CompactCache, Irregular, pack
from service.eventstore.contract import (
    SHARDS,
    AppendRequest,
    AppendResult,
    Claimed,
    FollowUp,
    NotReplicated,
    shard_of,
)
from service.eventstore.keys import Keys
from service.eventstore.players_store import RedisPlayersMixin
from service.eventstore.ports.tokens import META
from service.eventstore.replica_wait import ReplicaWatch
from service.eventstore.webhooks_redis import RedisWebhooks
from service.games.kernel.model import Event


def _script(name: str) -> str:
    return resources.files("service.eventstore").joinpath(name).read_text()


class RedisEventStore(RedisPlayersMixin, RedisWebhooks, RedisBotRecords):
    """Streams with explicit ``<seq>-0`` ids; every write of a command in one Lua script."""

    def __init__(self, client: Any, prefix: str = "meow", blocking_client: Any = None,
                 wait_replicas: int = 0, wait_timeout_ms: int = 1000, watch: ReplicaWatch | None = None) -> None:
        self.r = client
        # an append answers once this many replicas of its node hold it (Redis WAIT), else
        # NotReplicated after wait_timeout_ms (docs/scaling.md: what a failover can lose)
        self.wait_replicas = wait_replicas
        self.wait_timeout_ms = wait_timeout_ms
        self.watch = watch or ReplicaWatch(client)  # a primary with no replica at all (replica_wait.py)
        self.blocking = blocking_client or client
        self.keys = Keys(prefix)
        self._append = client.register_script(_script("append.lua"))
        self._claim = client.register_script(_script("claim.lua"))
        self._recover = client.register_script(_script("recover.lua"))
        self._lease = client.register_script(_script("lease.lua"))
        self._expire = client.register_script(_script("expire.lua"))
        self._report = client.register_script(_script("report.lua"))
        self._compact = client.register_script(_script("compact.lua"))
        self._evict = client.register_script(_script("evict.lua"))
        self._finish = client.register_script(_script("finish.lua"))
        self._plan = client.register_script(_script("plan.lua"))
        self._compacts = CompactCache()
        self._apikey_create = client.register_script(_APIKEY_CREATE)
        self._apikey_change = client.register_script(_APIKEY_CHANGE)

    # ------------------------------------------------------------------ writes
    def append(self, req: AppendRequest) -> AppendResult:
        call = AppendArgs.of(req)
        named, args = call.keys(self.keys), call.argv()
        keys = list(named)
        if self.wait_replicas <= 0 or self.watch.alone(keys[0]):
            out = self._append(keys=keys, args=args)
        else:
            out = self._append_replicated(keys, args, named.idem if req.idem else None)
        status = out[0].decode() if isinstance(out[0], bytes) else out[0]
        return AppendResult(status, int(out[1]), out[2] if len(out) > 2 else None)

    def _append_replicated(self, keys: list[str], args: list[Any], idem_key: str | None) -> Any:
        """The append script, then WAIT on the same connection of the node that owns the game's
        slot (one pipeline: on a cluster, commands for one node share one connection). A stored
        answer found under the key (a retry) is rewritten in place (SET XX KEEPTTL) and waited for
        too, so a replayed answer is as durable as a first one. NotReplicated when fewer replicas
        than ``wait_replicas`` confirm within ``wait_timeout_ms``."""
        import redis.exceptions as rx

        out: Any = None
        for _ in range(2):  # a promoted replica may not hold the script yet: load it, run it again
            pipe = self.r.pipeline(transaction=False)
            # (a cluster pipeline refuses its evalsha method, not the command itself)
            pipe.execute_command("EVALSHA", self._append.sha, len(keys), *keys, *args)
            self._wait(pipe, keys[0])
            out, acked = pipe.execute(raise_on_error=False)
            if not isinstance(out, rx.NoScriptError):
                break
            self.r.script_load(self._append.script)
        if isinstance(out, Exception):
            raise out
        status = _s(out[0])
        if status == "duplicate" and idem_key is not None:
            self._confirm(idem_key, out[2])
        elif status == "ok":
            self._check(acked, keys[0])
        return out

    def _confirm(self, idem_key: str, record: bytes) -> None:
        """Rewrite a stored answer in place (SET XX KEEPTTL: a write, replicated after everything
        before it) and WAIT for it: once replicas confirm it, they hold the write it answers."""
        pipe = self.r.pipeline(transaction=False)
        pipe.set(idem_key, record, xx=True, keepttl=True)
        self._wait(pipe, idem_key)
        self._check(pipe.execute(raise_on_error=False)[1], idem_key)

    def _check(self, acked: Any, key: str) -> None:
        import redis.exceptions as rx

        if isinstance(acked, rx.ResponseError) and "replica" in str(acked).lower():
            # a failover under way: the slot map still named the old primary, now a replica, for the
            # WAIT ("WAIT cannot be used with replica instances"): not confirmed, so 503 and a keyed
            # retry, never a 500
            raise NotReplicated(self.wait_replicas, 0)
        if isinstance(acked, Exception):
            raise acked
        if int(acked) < self.wait_replicas and not self.watch.found_short(key):
            raise NotReplicated(self.wait_replicas, int(acked))

    def _wait(self, pipe: Any, key: str) -> None:
        """Queue WAIT for the node that owns ``key`` (a cluster client sends a keyless WAIT to
        every primary unless told which node)."""
        nodes = {"target_nodes": self.r.get_node_from_key(key)} if hasattr(self.r, "get_node_from_key") else {}
        pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms, **nodes)

    # ------------------------------------------------------------------ reads
    def _rows(self, game_id: str, after: int = 0, count: int | None = None) -> list[tuple[int, bytes]]:
        """(seq, stored bytes) of events ``after+1 ..``: from the stream, or from the compact form
        once the game is compacted (the stream goes and the compact form comes in one script, so a
        read that finds neither finds a game that is gone)."""
        pipe = self.r.pipeline(transaction=False)
        pipe.xrange(self.keys.stream(game_id), min=str(after + 1), count=count)
        pipe.exists(self.keys.compact(game_id))
        rows, compacted = pipe.execute()
        if rows or not compacted:
            return [(_seq(rid), fields.get(b"e", b"")) for rid, fields in rows]
        blob = self.r.hget(self.keys.compact(game_id), "b")
        if blob is None:  # evicted since
            return []
        return list(enumerate(self._compacts.get(game_id, bytes(blob)).rows(after, count), start=after + 1))

    def read(self, game_id: str, after: int = 0) -> list[Event]:
        game_of = self._game_of(game_id)
        return [decode(seq, raw, game_of) for seq, raw in self._rows(game_id, after)]

    def read_stored(self, game_id: str, after: int = 0, count: int | None = None) -> list[Stored]:
        game_of = self._game_of(game_id)
        return [decode_stored(seq, raw, game_of) for seq, raw in self._rows(game_id, after, count)]

    def _game_of(self, game_id: str) -> Callable[[], str | None]:
        """The stream's game, read from its MatchCreated only if an old schema version needs it."""
        def game_of() -> str | None:
            first = self._rows(game_id, 0, 1)
            return game_of_created(first[0][1]) if first else None
        return game_of

    def version(self, game_id: str) -> int:
        return self.versions([game_id])[game_id]

    def form(self, game_id: str) -> str:
        pipe = self.r.pipeline(transaction=False)
        pipe.exists(self.keys.stream(game_id))
        pipe.exists(self.keys.compact(game_id))
        stream, compacted = pipe.execute()
        return "stream" if stream else "compact" if compacted else "none"

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        if self.version(game_id) > after:
            return True
        if timeout_s <= 0:
            return False
        # BLOCK 0 means "forever" to Redis: never round a short positive timeout down to it.
        block_ms = max(1, int(timeout_s * 1000))
        got = self.blocking.xread({self.keys.stream(game_id): f"{after}-0"}, block=block_ms, count=1)
        return bool(got)

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """Each game's version (0 if unknown), one round trip per call on a single Redis."""
        pipe = self.r.pipeline(transaction=False)
        for gid in game_ids:
            pipe.xrevrange(self.keys.stream(gid), count=1)
            pipe.hget(self.keys.compact(gid), "v")
        got = pipe.execute()
        return {gid: (_seq(last[0][0]) if last else int(compact or 0))
                for gid, last, compact in zip(game_ids, got[0::2], got[1::2])}

    # ------------------------------------------------------------------ the shards' append feed
    def feed_head(self, shard: str) -> str:
        """The id of the newest notification of a shard's feed ("0-0" when empty)."""
        last = self.r.xrevrange(self.keys.feed(shard), count=1)
        return _s(last[0][0]) if last else "0-0"

    def feed_read(self, shard: str, after_id: str, block_ms: int, count: int = 512) -> tuple[str, list[tuple[str, int]]]:
        """Notifications after ``after_id`` as (game id, version), blocking up to ``block_ms``."""
        got = self.blocking.xread({self.keys.feed(shard): after_id}, block=max(1, block_ms), count=count)
        last, out = after_id, []
        for _key, rows in got or ():
            for rid, fields in rows:
                last = _s(rid)
                out.append((_s(fields.get(b"g", b"")), int(fields.get(b"v", 0))))
        return last, out

    # ------------------------------------------------------------------ open-stream leases
    def lease_name(self, kind: str, ident: str) -> str:
        return self.keys.lease(kind, ident)

    def lease_acquire(self, name: str, member: str, limit: int, now_ms: int, ttl_ms: int) -> bool:
        return bool(self._lease(keys=[name], args=[member, limit, now_ms, ttl_ms]))

    def lease_renew(self, held: list[tuple[str, str]], now_ms: int, ttl_ms: int) -> None:
        pipe = self.r.pipeline(transaction=False)
        for name, member in held:
            pipe.zadd(name, {member: now_ms + ttl_ms}, xx=True)
            pipe.pexpire(name, ttl_ms)
        pipe.execute()

    def lease_release_many(self, held: list[tuple[str, str]]) -> None:
        pipe = self.r.pipeline(transaction=False)
        for name, member in held:
            pipe.zrem(name, member)
        pipe.execute()

    def snapshot_put(self, game_id: str, version: int, blob: bytes) -> None:
        self.r.hset(self.keys.snapshots(game_id), str(version), blob)

    def snapshot_get(self, game_id: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        key = self.keys.snapshots(game_id)
        versions = [int(v) for v in self.r.hkeys(key)]  # one per `every` events: a short list
        best = max((v for v in versions if at_most is None or v <= at_most), default=None)
        if best is None:
            return None
        blob = self.r.hget(key, str(best))
        return (best, bytes(blob)) if blob is not None else None

    def report_get(self, game_id: str) -> bytes | None:
        blob = self.r.get(self.keys.report(game_id))
        return bytes(blob) if blob is not None else None

    def report_put(self, game_id: str, blob: bytes) -> bool:
        k = self.keys
        return bool(self._report(keys=[k.stream(game_id), k.compact(game_id), k.report(game_id)], args=[blob]))

    def snapshot_drop(self, game_id: str) -> int:
        pipe = self.r.pipeline(transaction=True)
        pipe.hlen(self.keys.snapshots(game_id))
        pipe.delete(self.keys.snapshots(game_id))
        return int(pipe.execute()[0])

    def idem_get(self, game_id: str, key: str) -> bytes | None:
        """The answer stored under a key; when appends wait for replicas, only once they hold it
        (a retry must not acknowledge a write a failover could still lose)."""
        name = self.keys.idem(game_id, key)
        record = self.r.get(name)
        if record is not None and self.wait_replicas > 0 and not self.watch.alone(name):
            self._confirm(name, record)
        return record

    def token_get(self, game_id: str, token_hash: str) -> bytes | None:
        return self.r.hget(self.keys.tokens(game_id), token_hash)

    def meta_put(self, game_id: str, name: str, value: bytes | None) -> None:
        if value is None:
            self.r.hdel(self.keys.tokens(game_id), META + name)
        else:
            self.r.hset(self.keys.tokens(game_id), META + name, value)

    # ------------------------------------------------------------------ API keys
    def apikey_create(self, key_id: str, record: bytes, *, cap: int, entry: bytes, keep: int) -> bool:
        keys = [self.keys.apikeys(), self.keys.apikey_log(key_id)]
        return bool(self._apikey_create(keys=keys, args=[key_id, record, cap, entry, max(1, keep)]))

    def apikey_change(self, key_id: str, expect: int, record: bytes, entry: bytes, keep: int) -> versioned.Changed:
        keys = [self.keys.apikey_log(key_id), self.keys.apikeys()]
        return versioned.changed(self._apikey_change(keys=keys, args=versioned.change_args(expect, record, entry, keep,
                                                                                           key_id)))

    def apikey_log(self, key_id: str, limit: int) -> list[bytes]:
        return [bytes(x) for x in self.r.lrange(self.keys.apikey_log(key_id), 0, max(0, limit) - 1)] if limit > 0 else []

    def apikey_get(self, key_id: str) -> bytes | None:
        out: bytes | None = self.r.hget(self.keys.apikeys(), key_id)
        return out

    def apikey_all(self) -> dict[str, bytes]:
        return {_s(k): v for k, v in self.r.hgetall(self.keys.apikeys()).items()}

    def key_game_add(self, key_id: str, game_id: str, at_ms: int, cap: int) -> None:
        name = self.keys.key_games(key_id)
        pipe = self.r.pipeline(transaction=False)
        pipe.zadd(name, {game_id: at_ms})
        pipe.zremrangebyrank(name, 0, -(cap + 1))  # the oldest beyond the cap
        pipe.execute()

    def key_games(self, key_id: str, before: tuple[int, str] | None, limit: int) -> list[tuple[int, str]]:
        name = self.keys.key_games(key_id)
        rows = self.r.zrevrangebyscore(name, before[0] if before else "+inf", "-inf", start=0, num=limit + 1,
                                       withscores=True)
        if len(rows) == limit + 1:  # the window may end inside a run of equal scores: take the whole run
            score = rows[-1][1]
            rows = list(rows) + list(self.r.zrangebyscore(name, score, score, withscores=True))
        key = (-before[0], before[1]) if before else None
        ranked = sorted({(-int(score), _s(gid)) for gid, score in rows})
        return [(-at, gid) for at, gid in ranked if key is None or (at, gid) > key][:limit]

    def key_game_drop(self, key_id: str, game_id: str) -> None:
        self.r.zrem(self.keys.key_games(key_id), game_id)

    def lobby(self) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for shard in SHARDS:
            for gid, summary in self.r.hgetall(self.keys.lobby(shard)).items():
                out[gid.decode() if isinstance(gid, bytes) else gid] = summary
        return out

    def lobby_page(self, status: str | None, variant: str | None, before: tuple[int, str] | None,
                   limit: int) -> list[bytes]:
        top = before[0] if before else "+inf"
        pipe = self.r.pipeline(transaction=False)
        for shard in SHARDS:
            pipe.zrevrangebyscore(self.keys.lobby_index(shard, status, variant), top, "-inf",
                                  start=0, num=limit + 1, withscores=True)
        found = dict(zip(SHARDS, pipe.execute()))
        cut = [(shard, rows[-1][1]) for shard, rows in found.items() if len(rows) == limit + 1]
        if cut:  # a shard's window may end inside a run of equal scores: take the whole run
            pipe = self.r.pipeline(transaction=False)
            for shard, score in cut:
                pipe.zrangebyscore(self.keys.lobby_index(shard, status, variant), score, score, withscores=True)
            for (shard, _), rows in zip(cut, pipe.execute()):
                found[shard] = list(found[shard]) + list(rows)
        key = (-before[0], before[1]) if before else None
        ranked = sorted({(-int(score), _s(gid), shard) for shard, rows in found.items() for gid, score in rows})
        page = [r for r in ranked if key is None or (r[0], r[1]) > key][:limit]
        pipe = self.r.pipeline(transaction=False)
        for _, gid, shard in page:
            pipe.hget(self.keys.lobby(shard), gid)
        return [summary for summary in pipe.execute() if summary is not None] if page else []

    def index_lobby(self) -> int:
        """Index games listed before the lobby indexes existed (once per shard; idempotent)."""
        indexed = 0
        for shard in SHARDS:
            marker = self.keys.lobby_index(shard, "indexed", None)
            if self.r.exists(marker):
                continue
            pipe = self.r.pipeline(transaction=False)
            for gid, raw in self.r.hgetall(self.keys.lobby(shard)).items():
                summary = orjson.loads(raw)
                at, variant = int(summary.get("created_at", 0)), str(summary.get("variant", ""))
                for status in (None, summary.get("status")):
                    for v in (None, variant):
                        pipe.zadd(self.keys.lobby_index(shard, status, v), {_s(gid): at})
                indexed += 1
            pipe.set(marker, "1")
            pipe.execute()
        return indexed

    def expire_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        k, shard = self.keys, shard_of(game_id)
        keys = [k.stream(game_id), k.tokens(game_id), k.lobby(shard), *k.lobby_indexes(shard, variant)]
        return bool(self._expire(keys=keys, args=[expected_version, game_id]))

    def compact(self, game_id: str, expected_version: int) -> str:
        k = self.keys
        if self.r.exists(k.compact(game_id)):
            return "already"
        rows = self.r.xrange(k.stream(game_id))
        if not rows:
            return "missing"
        if [_seq(rid) for rid, _ in rows] != list(range(1, len(rows) + 1)) or len(rows) != expected_version:
            return "conflict"
        try:
            blob, head = pack([fields.get(b"e", b"") for _, fields in rows])
        except Irregular:
            return "irregular"
        idem = [_s(m) for m in self.r.smembers(k.idem_index(game_id))]
        keys = [k.stream(game_id), k.compact(game_id), k.idem_index(game_id), *idem]
        return _s(self._compact(keys=keys, args=[expected_version, blob, head]))

    def evict_game(self, game_id: str, expected_version: int, variant: str) -> bool:
        k, shard = self.keys, shard_of(game_id)
        idem = [_s(m) for m in self.r.smembers(k.idem_index(game_id))]
        keys = [k.stream(game_id), k.compact(game_id), k.tokens(game_id), k.snapshots(game_id),
                k.idem_index(game_id), k.lobby(shard), *k.lobby_indexes(shard, variant), k.report(game_id), *idem]
        return bool(self._evict(keys=keys, args=[expected_version, game_id]))

    # ------------------------------------------------------------------ due work
    def schedule(self, followup: FollowUp) -> None:
        """Add one follow-up outside an append (a bot deferred by another seat's grace)."""
        shard = shard_of(followup.payload["game"])
        pipe = self.r.pipeline(transaction=True)
        pipe.zadd(self.keys.due(shard), {followup.job_id: followup.due_at}, nx=True)
        pipe.hsetnx(self.keys.payloads(shard), followup.job_id, to_json(followup.payload))
        pipe.lpush(self.keys.wake(shard), "1")
        pipe.ltrim(self.keys.wake(shard), 0, 0)
        pipe.execute()

    def claim_due(self, shard: str, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        k = self.keys
        flat = self._claim(keys=[k.due(shard), k.inflight(shard), k.payloads(shard)], args=[now, lease_ms, limit])
        return [Claimed(_s(flat[i]), orjson.loads(flat[i + 1])) for i in range(0, len(flat), 2)]

    def next_due(self, shard: str) -> int | None:
        first = self.r.zrange(self.keys.due(shard), 0, 0, withscores=True)
        return int(first[0][1]) if first else None

    def finish_due(self, shard: str, job_id: str) -> None:
        k = self.keys
        self._finish(keys=[k.due(shard), k.inflight(shard), k.payloads(shard)], args=[job_id])

    def extend_due(self, shard: str, job_ids: Sequence[str], until: int) -> None:
        if job_ids:
            self.r.zadd(self.keys.inflight(shard), dict.fromkeys(job_ids, until), xx=True)

    def recover_expired(self, shard: str, now: int) -> list[str]:
        k = self.keys
        return [_s(x) for x in self._recover(keys=[k.due(shard), k.inflight(shard)], args=[now])]

    def plan_next(self, shard: str, latest: int, ttl_ms: int) -> int | None:
        first = self._plan(keys=[self.keys.due(shard), self.keys.wake_at(shard)], args=[latest, max(1, ttl_ms)])
        return int(first) if first is not None else None

    def wait_wake(self, shard: str, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for an append to the shard to push its wake-up (one key: one slot)."""
        return bool(self.blocking.blpop([self.keys.wake(shard)], timeout=timeout_s))


def _s(x: Any) -> str:
    return x.decode() if isinstance(x, bytes) else str(x)


def _seq(stream_id: Any) -> int:
    return int(_s(stream_id).split("-", 1)[0])


if TYPE_CHECKING:  # mypy checks that this backend implements every port
    from service.eventstore.ports import EventStore

    _backend: type[EventStore] = RedisEventStore


_APIKEY_CREATE = """
if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 1 then return 0 end
local cap = tonumber(ARGV[3])
if cap > 0 and redis.call("HLEN", KEYS[1]) >= cap then return 0 end
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
redis.call("DEL", KEYS[2])
redis.call("LPUSH", KEYS[2], ARGV[4])
redis.call("LTRIM", KEYS[2], 0, tonumber(ARGV[5]) - 1)
return 1
"""
_APIKEY_CHANGE = versioned.change_lua(get="redis.call('HGET', KEYS[2], ARGV[6])",
                                      put="redis.call('HSET', KEYS[2], ARGV[6], ARGV[2])",
                                      drop="return redis.error_reply('an API key is never deleted')")
