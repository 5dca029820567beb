"""API keys on the real stack (gunicorn on a real Redis, flask-limiter's counters in it): a key's
quota is its own, apart from its address's — the key is refused 429 while anonymous requests from
the same address still go, and the other way round — and a private table is invisible in the
public lobby and unjoinable without its invite code; rotate and revoke take effect at once."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
import requests

from tools.stack import Stack, live_stack

ADMIN = "e2e-admin-token-0123456789abcdefghij"  # MEOW_ADMIN_TOKEN: at least 32 characters


@pytest.fixture(scope="module")
def stack(redis_url: str) -> Iterator[Stack]:
    with live_stack(redis_url, workers=0, api_workers=1, tag="keys", MEOW_ADMIN_TOKEN=ADMIN,
                    MEOW_RATE_CREATES_PER_ADDRESS="3/minute") as s:
        yield s


def _admin(s: requests.Session, stack: Stack, method: str, path: str, **kw: object) -> requests.Response:
    return s.request(method, f"{stack.base}/v1/admin/keys{path}", headers={"Authorization": f"Bearer {ADMIN}"},
                     timeout=10, **kw)  # type: ignore[arg-type]


def _create(s: requests.Session, stack: Stack, key: str | None, **body: object) -> requests.Response:
    return s.post(f"{stack.base}/v1/games", json={"variant": "prsi", **body},
                  headers={"Meow-Key": key} if key else {}, timeout=10)


def test_a_keys_quota_is_apart_from_its_addresss(stack: Stack) -> None:
    s = requests.Session()
    small = _admin(s, stack, "POST", "", json={"name": "small", "quotas": {"creates_per_minute": 2}}).json()
    big = _admin(s, stack, "POST", "", json={"name": "big"}).json()
    # the key's 2 creates, then 429 for the key, while the address still has its own 3
    for _ in range(2):
        r = _create(s, stack, small["secret"])
        assert r.status_code == 201, r.text
        assert r.headers["RateLimit-Limit"] == "2"
    r = _create(s, stack, small["secret"])
    assert (r.status_code, r.json()["code"]) == (429, "rate_limited") and r.headers["RateLimit-Remaining"] == "0"
    for _ in range(3):
        r = _create(s, stack, None)
        assert r.status_code == 201, r.text
        assert r.headers["RateLimit-Limit"] == "3"
    # and the other way round: the address is spent, a key from the same address still creates
    assert _create(s, stack, None).status_code == 429
    r = _create(s, stack, big["secret"])
    assert r.status_code == 201 and int(r.headers["RateLimit-Limit"]) > 3
    usage = s.get(f"{stack.base}/metrics", timeout=10).text
    sid = small["key"]["id"]
    assert f'meow_key_requests_total{{key="{sid}",kind="creates",outcome="limited"}} 1.0' in usage
    assert f'meow_key_requests_total{{key="{sid}",kind="creates",outcome="ok"}} 2.0' in usage


def test_a_private_table_is_unlisted_and_unjoinable_without_its_code(stack: Stack) -> None:
    s = requests.Session()
    made = _admin(s, stack, "POST", "", json={"name": "portal"}).json()
    key = made["secret"]
    g = _create(s, stack, key, private=True).json()
    gid = g["id"]
    lobby = s.get(f"{stack.base}/v1/games", params={"limit": 100}, timeout=10).json()["games"]
    assert gid not in {row["id"] for row in lobby}
    assert s.get(f"{stack.base}/v1/games/{gid}", timeout=10).status_code == 404
    seats = f"{stack.base}/v1/games/{gid}/seats"
    assert s.post(seats, json={"name": "eve"}, timeout=10).status_code == 404
    assert s.post(seats, json={"name": "eve", "invite": "guess"}, timeout=10).json()["code"] == "invite_invalid"
    assert s.post(seats, json={"name": "ann", "invite": g["invite_code"]}, timeout=10).status_code == 201
    mine = s.get(f"{stack.base}/v1/keys/me/games", headers={"Meow-Key": key}, timeout=10).json()["games"]
    assert [(row["id"], row["private"], row["players"]) for row in mine] == [(gid, True, 1)]
    # rotate: the old secret is refused at once, the new one works; revoke: refused
    new = _admin(s, stack, "POST", f"/{made['key']['id']}/rotate").json()["secret"]
    assert s.get(f"{stack.base}/v1/keys/me", headers={"Meow-Key": key}, timeout=10).json()["code"] == "key_invalid"
    assert s.get(f"{stack.base}/v1/keys/me", headers={"Meow-Key": new}, timeout=10).status_code == 200
    assert _admin(s, stack, "POST", f"/{made['key']['id']}/revoke").json()["active"] is False
    assert s.get(f"{stack.base}/v1/keys/me", headers={"Meow-Key": new}, timeout=10).json()["code"] == "key_invalid"


def test_a_revoke_racing_three_rotations_stays_revoked_over_http(stack: Stack) -> None:
    """20 trials behind a barrier (issue 37: on main 115 of 200 keys came back): revoke answers 200,
    the key ends revoked, no secret a rotation handed out works, and no two rotations that answered
    200 made the same version (the others: 409 ``version_conflict`` or ``key_revoked``)."""
    import threading
    from collections import Counter

    seen: Counter[str] = Counter()
    sessions = [requests.Session() for _ in range(4)]
    for _ in range(20):
        kid = _admin(sessions[0], stack, "POST", "", json={"name": "race"}).json()["key"]["id"]
        barrier = threading.Barrier(4)
        answers: list[requests.Response | None] = [None] * 4

        def run(i: int, kid: str = kid, barrier: threading.Barrier = barrier,
                answers: list[requests.Response | None] = answers) -> None:
            barrier.wait()
            answers[i] = _admin(sessions[i], stack, "POST", f"/{kid}/{'revoke' if i == 0 else 'rotate'}")

        threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert answers[0] is not None and answers[0].status_code == 200, answers[0]
        rotated = [a.json() for a in answers[1:] if a is not None and a.status_code == 200]
        seen.update(a.json()["code"] for a in answers[1:] if a is not None and a.status_code != 200)
        seen["rotate_200"] += len(rotated)
        assert _admin(sessions[0], stack, "GET", f"/{kid}").json()["active"] is False
        for r in rotated:
            me = sessions[0].get(f"{stack.base}/v1/keys/me", headers={"Meow-Key": r["secret"]}, timeout=10)
            assert me.json()["code"] == "key_invalid"
        assert len({r["key"]["version"] for r in rotated}) == len(rotated)
    assert set(seen) <= {"rotate_200", "version_conflict", "key_revoked"}, seen
    print(f"\n20 trials of revoke vs 3 rotates over HTTP: {dict(seen)}; every key stayed revoked")
