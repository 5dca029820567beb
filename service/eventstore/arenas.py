"""Where arenas live (service/app/arenas.py): a record per arena, its games' results, the claims of
the jobs that play them, each key's arenas and the per-variant leaderboard, in Redis (fakeredis in
unit tests and benches). The one owner of these key names.

Keys (``p`` is the service's key prefix), each arena's under its own hash tag:
``{p:arena:<id>}:a`` the record (a hash: ``spec``, ``key``, ``status``, ``secret``, ``next``, ``done``,
``created_at``, ``ended_at``, ``summary``) · ``{p:arena:<id>}:r`` each game's result by index ·
``{p:arena:<id>}:c`` each claimed game's claim time · ``{p:arenas}:key:<key>`` a key's arenas by
creation time (at most ``keep_per_key``) · ``{p:arenas}:run:<key>`` its running ones (the cap) ·
``{p:arenas}:lb:<variant>`` the leaderboard's rows (entrant -> rating JSON) · ``{p:arenas}:lbz:<variant>``
its order (a sorted set: entrant -> minus its conservative rating, so a page is one ZRANGE; equal
ratings by entrant). A board's two keys share the ``{p:arenas}`` hash tag and change in one
transaction (one slot: cluster-safe)."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson
from redis.exceptions import WatchError

RUNNING, FINISHED, CANCELLED = "running", "finished", "cancelled"
_END = """
if redis.call('HGET', KEYS[1], 'status') ~= 'running' or redis.call('HEXISTS', KEYS[1], 'ended_at') == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'ended_at', ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'summary', ARGV[3]) end
return redis.call('HINCRBY', KEYS[1], 'version', 1)
"""


def _s(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


Score = Callable[[Mapping[str, Any]], float]  # a leaderboard row's place (higher first)


class RedisArenas:
    """The arenas' storage over one redis-py (or fakeredis) client."""

    def __init__(self, client: Any, prefix: str = "meow") -> None:
        self.r = client
        self.prefix = prefix

    # ------------------------------------------------------------------ key names
    def _a(self, arena_id: str, part: str) -> str:
        return "{" + f"{self.prefix}:arena:{arena_id}" + "}:" + part

    def _g(self, part: str) -> str:
        return "{" + f"{self.prefix}:arenas" + "}:" + part

    # ------------------------------------------------------------------ records
    def create(self, arena_id: str, key_id: str, fields: Mapping[str, str], now: int, cap: int,
               keep_per_key: int) -> bool:
        """Record a new running arena of ``key_id``; False (nothing written) when the key already
        runs ``cap`` arenas. The count and the add are one transaction on the key's set."""
        running = self._g(f"run:{key_id}")
        with self.r.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(running)
                    if cap > 0 and pipe.scard(running) >= cap:
                        pipe.unwatch()
                        return False
                    pipe.multi()
                    pipe.sadd(running, arena_id)
                    pipe.execute()
                    break
                except WatchError:  # another create of this key came first: count again
                    continue
        listed = self._g(f"key:{key_id}")
        self.r.hset(self._a(arena_id, "a"), mapping={**fields, "key": key_id, "status": RUNNING,
                                                    "next": 0, "done": 0, "created_at": now, "version": 1})
        self.r.zadd(listed, {arena_id: now})
        for old in self.r.zrange(listed, 0, -keep_per_key - 1) if keep_per_key > 0 else ():
            old_id = _s(old)  # a key keeps its newest arenas; the oldest go with their results
            if self.status(old_id) != RUNNING:
                self.r.zrem(listed, old_id)
                self.r.delete(self._a(old_id, "a"), self._a(old_id, "r"), self._a(old_id, "c"))
        return True

    def get(self, arena_id: str) -> dict[str, str] | None:
        raw = self.r.hgetall(self._a(arena_id, "a"))
        return {_s(k): _s(v) for k, v in raw.items()} if raw else None

    def status(self, arena_id: str) -> str | None:
        raw = self.r.hget(self._a(arena_id, "a"), "status")
        return _s(raw) if raw is not None else None

    def of_key(self, key_id: str, limit: int) -> list[str]:
        """A key's arenas, newest first."""
        return [_s(a) for a in self.r.zrevrange(self._g(f"key:{key_id}"), 0, max(0, limit - 1))]

    # ------------------------------------------------------------------ playing
    def claim(self, arena_id: str, total: int, now: int) -> int | None:
        """The next game to play (its index), or None when every game was claimed."""
        index = int(self.r.hincrby(self._a(arena_id, "a"), "next", 1)) - 1
        if index >= total:
            return None
        self.r.hset(self._a(arena_id, "c"), str(index), now)
        return index

    def stale_claim(self, arena_id: str, older_than: int, now: int) -> int | None:
        """A claimed game with no result whose claim is older than ``older_than`` (its job died):
        claimed again, for a job to resume it."""
        claims = self.r.hgetall(self._a(arena_id, "c"))
        done = {_s(k) for k in self.r.hkeys(self._a(arena_id, "r"))}
        for k, at in sorted(claims.items(), key=lambda kv: int(_s(kv[0]))):
            if _s(k) not in done and int(_s(at)) < older_than:
                self.r.hset(self._a(arena_id, "c"), _s(k), now)
                return int(_s(k))
        return None

    def renew(self, arena_id: str, index: int, now: int) -> None:
        """The job playing game ``index`` still does (its claim's time moves to ``now``)."""
        self.r.hset(self._a(arena_id, "c"), str(index), now)

    def oldest_open_claim(self, arena_id: str) -> int | None:
        """When the oldest claimed game with no result was claimed (None: none open)."""
        claims = self.r.hgetall(self._a(arena_id, "c"))
        done = {_s(k) for k in self.r.hkeys(self._a(arena_id, "r"))}
        open_at = [int(_s(at)) for k, at in claims.items() if _s(k) not in done]
        return min(open_at) if open_at else None

    def record(self, arena_id: str, index: int, result: Mapping[str, Any]) -> int:
        """Keep a game's result (once); the number of games with a result."""
        if self.r.hsetnx(self._a(arena_id, "r"), str(index), orjson.dumps(result)):
            return int(self.r.hincrby(self._a(arena_id, "a"), "done", 1))
        return int(self.r.hget(self._a(arena_id, "a"), "done") or 0)

    def results(self, arena_id: str) -> dict[int, dict[str, Any]]:
        return {int(_s(k)): orjson.loads(v) for k, v in self.r.hgetall(self._a(arena_id, "r")).items()}

    def end(self, arena_id: str, status: str, now: int, summary: Mapping[str, Any] | None = None) -> bool:
        """Mark a running arena ended (finished or cancelled), once, in one script on its slot: the
        status, the end time, the summary and one more ``version``. True for the caller that did."""
        if self.__dict__.get("_end") is None:
            self._end = self.r.register_script(_END)
        rec = self._a(arena_id, "a")
        if not self._end(keys=[rec], args=[status, now, orjson.dumps(summary) if summary is not None else b""]):
            return False
        key_id = self.r.hget(rec, "key")
        if key_id is not None:  # the key's running set is another slot: after
            self.r.srem(self._g(f"run:{_s(key_id)}"), arena_id)
        return True

    # ------------------------------------------------------------------ leaderboard
    def _board(self, variant: str) -> tuple[str, str]:
        return self._g(f"lb:{variant}"), self._g(f"lbz:{variant}")

    def leaderboard_page(self, variant: str, offset: int, limit: int,
                         score: Score) -> tuple[list[tuple[str, dict[str, Any]]], int]:
        """``limit`` rows of the board from ``offset``, best first ((entrant, row) pairs), and how
        many rows it has: one ZRANGE and one HMGET, whatever the board's size."""
        board, order = self._board(variant)
        self._index(variant, score)
        with self.r.pipeline(transaction=False) as pipe:
            pipe.zrange(order, offset, offset + max(1, limit) - 1)
            pipe.zcard(order)
            ids, total = pipe.execute()
        names = [_s(i) for i in ids]
        raws = self.r.hmget(board, names) if names else []
        return [(n, orjson.loads(raw)) for n, raw in zip(names, raws, strict=True) if raw is not None], int(total)

    def update_leaderboard(self, variant: str, identities: Sequence[str],
                           change: Callable[[dict[str, dict[str, Any]]], dict[str, dict[str, Any]]],
                           score: Score) -> None:
        """Apply ``change`` to the rows of ``identities`` (the only rows it reads) and re-rank them
        (``score``: the row's place, higher first), as one optimistic transaction (retried when
        another arena's end changed the board meanwhile)."""
        board, order = self._board(variant)
        names = list(dict.fromkeys(identities))
        self._index(variant, score)
        with self.r.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(board)
                    raws = pipe.hmget(board, names) if names else []
                    now = {n: orjson.loads(raw) for n, raw in zip(names, raws, strict=True) if raw is not None}
                    new = change(now)
                    pipe.multi()
                    if new:
                        pipe.hset(board, mapping={k: orjson.dumps(v) for k, v in new.items()})
                        pipe.zadd(order, {k: -score(v) for k, v in new.items()})
                    pipe.execute()
                    return
                except WatchError:  # another arena's end changed it: read it again
                    continue

    def forget(self, identity: str, variants: Sequence[str]) -> None:
        """``identity`` leaves every variant's board (a deleted bot)."""
        with self.r.pipeline(transaction=False) as pipe:
            for variant in variants:
                board, order = self._board(variant)
                pipe.hdel(board, identity)
                pipe.zrem(order, identity)
            pipe.execute()

    def _index(self, variant: str, score: Score) -> None:
        """A board written before it had its order (rows, no sorted set): ranked once, in one
        transaction with a check that its rows did not change meanwhile."""
        board, order = self._board(variant)
        if self.r.exists(order) or not self.r.exists(board):
            return
        with self.r.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(board, order)
                    if pipe.exists(order):
                        pipe.unwatch()
                        return
                    rows = {_s(k): orjson.loads(v) for k, v in pipe.hgetall(board).items()}
                    pipe.multi()
                    if rows:
                        pipe.zadd(order, {k: -score(v) for k, v in rows.items()})
                    pipe.execute()
                    return
                except WatchError:
                    continue
