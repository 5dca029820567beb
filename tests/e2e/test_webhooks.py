"""Webhooks on the real stack (issue 30 item 3): gunicorn, a `meow worker` for the tables and one
for the hooks lane only, on a real Redis; receivers on loopback (allowed by MEOW_OUTBOUND_ALLOW_PRIVATE).
A bots-only match owned by an API key ends: its ``match.ended`` arrives signed, once per delivery id,
at a receiver, and at another that answers 500 three times first; a forged signature fails ``verify``.
Issue 37: a receiver of one key that never answers holds back no other key's deliveries (the hooks
lane's threads are shared across keys), and its attempts are counted, backed off and disable it."""
from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime

import pytest
import requests

from service.app import api_keys
from service.outbound.signing import sign, verify
from service.settings import Settings
from service.wiring import build_store
from tests.e2e.conftest import Stack, live_stack
from tools.webhook_receiver import Receiver, Script

FAST = {"bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0, "round_intermission_s": 0,
        "match_end_mode": "single_round"}
HOOK_ENV = {"MEOW_OUTBOUND_ALLOW_PRIVATE": "1", "MEOW_WEBHOOK_RETRY_BASE_MS": "100", "MEOW_WEBHOOK_RETRY_FOR_S": "4",
            "MEOW_WEBHOOK_TIMEOUT_S": "3", "MEOW_WEBHOOK_DISABLE_AFTER": "2", "MEOW_HOOK_THREADS": "4"}
"""Test-sized: an attempt times out after 3 s, a delivery is retried for 4 s (two attempts to a receiver
that never answers), and two deliveries given up in a row disable the endpoint."""


@pytest.fixture(scope="module")
def hooked(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Stack, str, str]]:
    """The stack (tables' worker + hooks worker, metrics shared across processes) and an API key (id, presented)."""
    metrics_dir = str(tmp_path_factory.mktemp("metrics"))
    with live_stack(redis_url, workers=[["--queues", "fast,search"], ["--queues", "hooks", "--no-dispatcher"]],
                    PROMETHEUS_MULTIPROC_DIR=metrics_dir, **HOOK_ENV) as stack:
        key, presented = api_keys.create(build_store(Settings.from_env(stack.env)), "portal",
                                         now_ms=int(time.time() * 1000))
        yield stack, key.id, presented


def _bots_match(s: requests.Session, stack: Stack, key: str) -> str:
    """A started bots-only table of the key (created with its Meow-Key)."""
    g = s.post(f"{stack.base}/v1/games", json={"variant": "prsi", "options": FAST, "max_players": 2},
               headers={"Meow-Key": key}).json()
    gid, owner = g["id"], {"Authorization": f"Bearer {g['owner_token']}"}
    for _ in range(2):
        assert s.post(f"{stack.base}/v1/games/{gid}/seats", json={"bot": {"strength": "easy"}}, headers=owner).ok
    assert s.post(f"{stack.base}/v1/games/{gid}/start", headers=owner).ok
    return gid


def test_a_finished_match_is_delivered_signed_once_and_through_three_500s(hooked: tuple[Stack, str, str]) -> None:
    stack, _, key = hooked
    s = requests.Session()
    with Receiver() as good, Receiver(script=Script(fail_first=3)) as flaky:
        for receiver in (good, flaky):
            made = s.post(f"{stack.base}/v1/webhooks", json={"url": receiver.url, "events": ["match.ended"]},
                          headers={"Meow-Key": key})
            assert made.status_code == 201, made.text
            receiver.set_secret(made.json()["secret"])
        gid = _bots_match(s, stack, key)
        [got] = good.wait_for(lambda kept: len(kept) >= 1, timeout_s=60)
        [late] = flaky.wait_for(lambda kept: len(kept) >= 1, timeout_s=60)
        for r in (got, late):
            assert r.verified and r.json()["type"] == "match.ended" and r.json()["game"]["id"] == gid
            assert "private" not in r.json()["event"] and "secret" not in r.json()["event"]
        assert flaky.state.attempts[late.delivery_id] == 4  # three 500s, then 200
        assert good.state.forged == flaky.state.forged == 0
        # exactly once per delivery id, and a forged signature fails verify
        assert good.state.repeats[got.delivery_id] == 0
        assert not verify("whsec_" + "0" * 48, got.body, got.headers, now=int(time.time()))
        forged = sign("whsec_" + "0" * 48, got.body, timestamp=int(time.time()), delivery_id="dlv_forged")
        assert requests.post(good.url, data=got.body, headers=forged, timeout=5).status_code == 401
        log = s.get(f"{stack.base}/v1/webhooks/deliveries", headers={"Meow-Key": key}).json()["deliveries"]
        assert sorted(d["attempts"] for d in log) == [1, 4] and {d["status"] for d in log} == {"delivered"}
        metrics = s.get(f"{stack.base}/metrics").text
        assert 'meow_webhook_deliveries_total{outcome="delivered"}' in metrics
        assert 'meow_webhook_attempts_total{result="5xx"}' in metrics


def test_a_receiver_that_never_answers_holds_back_no_other_keys_deliveries(hooked: tuple[Stack, str, str]) -> None:
    """Issue 37: key A's receiver never answers; key B's deliveries arrive while A's receiver still
    holds its connections (a hooks worker served one attempt at a time, so B's waited for A's to end),
    and A's attempts are all in A's log: each counted as a timeout, retried after the last one ended,
    the deliveries given up within their window and A's endpoint disabled."""
    stack, _, _ = hooked
    store = build_store(Settings.from_env(stack.env))
    key_a, key_b = (api_keys.create(store, name, now_ms=int(time.time() * 1000))[1] for name in ("a", "b"))
    s = requests.Session()
    with Receiver(script=Script(delay_s=3600)) as hang, Receiver(on_arrival=hang.holding) as good:
        for receiver, key in ((hang, key_a), (good, key_b)):
            made = s.post(f"{stack.base}/v1/webhooks", json={"url": receiver.url, "events": ["seat.joined"]},
                          headers={"Meow-Key": key})
            assert made.status_code == 201, made.text
            receiver.set_secret(made.json()["secret"])
        _bots_match(s, stack, key_a)
        hang.wait_attempts(1, timeout_s=30)  # A's receiver holds its first attempt
        _bots_match(s, stack, key_b)
        got = good.wait_for(lambda kept: len(kept) >= 2, timeout_s=60)
        # A's receiver still held its connections when B's first delivery arrived (one of B's may fall
        # between two of A's attempts; a worker serving one job at a time made every one of B's wait)
        assert min(got, key=lambda r: r.at).noted > 0, [r.noted for r in got]

        def hook_a() -> dict:
            [hook] = s.get(f"{stack.base}/v1/webhooks", headers={"Meow-Key": key_a}).json()["webhooks"]
            return hook

        deadline = time.monotonic() + 60
        while hook_a()["enabled"] and time.monotonic() < deadline:
            time.sleep(0.2)
        hook = hook_a()
        assert not hook["enabled"] and hook["notice"]["code"] == "endpoint_disabled", hook
        log = s.get(f"{stack.base}/v1/webhooks/deliveries", headers={"Meow-Key": key_a}).json()["deliveries"]
        assert len(log) == 2 and {d["status"] for d in log} == {"failed"}, log
        for d in log:  # every attempt that reached the receiver is counted, each a timeout, one after another
            assert d["attempts"] == hang.state.attempts[d["id"]] >= 2, (d, hang.state.attempts)
            assert {t["error"] for t in d["tries"]} <= {"timeout", "interrupted"}, d["tries"]
            at = [datetime.fromisoformat(t["at"].replace("Z", "+00:00")).timestamp() for t in d["tries"]]
            assert all(b >= a + t["ms"] / 1000 for a, b, t in zip(at, at[1:], d["tries"], strict=False)), d["tries"]
