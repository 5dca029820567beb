"""`meow archive` and `meow compact` as an operator runs them, on a real Redis (issue 16): the
exported NDJSON is exactly the history's NDJSON answer and `meow verify` accepts it; `--evict`
removes the game only after its file verified, and the evicted game answers 404 `not_found`
(its other paths as for a game that never existed) and leaves the lobby; a file that does not verify keeps the game in Redis."""
from __future__ import annotations

import os
import subprocess
import sys

import orjson
import pytest
import redis

from service.app import compaction
from tests.api.conftest import Clock, auth
from tests.api.test_compaction import _app, _finish

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _meow(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture
def env(redis_url: str, key_prefix: str) -> dict:
    return dict(os.environ, REDIS_URL=redis_url, MEOW_KEY_PREFIX=key_prefix, PYTHONPATH=ROOT)


def test_archive_exports_verifies_then_evicts(redis_url: str, key_prefix: str, env: dict, tmp_path) -> None:
    clock = Clock(start=1_700_000_000_000)  # in the past: the CLI's clock is the real one
    table = _app(redis_url, key_prefix, clock)
    gid, tokens, _owner = _finish(table, seed=11, seats=3)
    running = table.create()["id"]
    ndjson = table.client.get(f"/v1/games/{gid}/history",
                              headers={**auth(tokens[0]), "Accept": "application/x-ndjson"}).get_data()
    compacted = _meow(env, "compact", "--older-than", "0")
    assert compacted.returncode == 0 and "1 compacted" in compacted.stdout, compacted
    assert table.service.store.form(gid) == "compact"

    kept = _meow(env, "archive", "--out", str(tmp_path / "a"))  # without --evict: exported, kept
    assert kept.returncode == 0, kept.stderr
    path = tmp_path / "a" / f"{gid}.ndjson"
    assert path.read_bytes() == ndjson and f"{gid}:" in kept.stdout and "evicted" not in kept.stdout
    assert not (tmp_path / "a" / f"{running}.ndjson").exists()  # only finished games
    checked = _meow(env, "verify", str(path))
    assert checked.returncode == 0 and checked.stdout.strip().endswith("OK"), checked.stdout
    assert table.view(gid)["status"] == "finished"

    evicted = _meow(env, "archive", "--out", str(tmp_path / "b"), "--evict")
    assert evicted.returncode == 0 and f"{gid}: " in evicted.stdout and "evicted" in evicted.stdout, evicted
    assert (tmp_path / "b" / f"{gid}.ndjson").read_bytes() == ndjson
    fresh = _app(redis_url, key_prefix, clock).client  # a process that never saw the game
    for c in (table.client, fresh):
        r = c.get(f"/v1/games/{gid}")
        assert r.status_code == 404 and r.json["code"] == "not_found"
        for path in ("history", "verify", "state?at=1", "events"):  # as a game that never existed
            gone = c.get(f"/v1/games/{gid}/{path}", headers=auth(tokens[0]))
            never = c.get(f"/v1/games/{'f' * 16}/{path}", headers=auth(tokens[0]))
            assert (gone.status_code, gone.json["code"]) == (never.status_code, never.json["code"]), path
        assert gid not in [g["id"] for g in c.get("/v1/games?limit=100").json["games"]]
    client = redis.Redis.from_url(redis_url)
    assert list(client.scan_iter(match=f"*{gid}*")) == []  # nothing of it is left
    client.close()
    assert c.get(f"/v1/games/{running}").status_code == 200


def test_a_file_that_does_not_verify_keeps_the_game(redis_url: str, key_prefix: str, tmp_path, monkeypatch) -> None:
    table = _app(redis_url, key_prefix, Clock())
    gid, _tokens, _ = _finish(table, seed=12, seats=2)
    real = compaction.history_lines

    def tampered(ctx, game_id):
        state, lines = real(ctx, game_id)
        rows = [orjson.loads(line) for line in lines]
        rows[3]["data"] = {**rows[3]["data"], "forged": True}
        return state, (orjson.dumps(r) + b"\n" for r in rows)

    monkeypatch.setattr(compaction, "history_lines", tampered)
    done = compaction.archive(table.service, gid, str(tmp_path), evict=True)
    assert (done.verified, done.evicted) == (False, False) and "event 4" in done.detail
    assert table.view(gid)["status"] == "finished" and table.service.store.form(gid) == "stream"
