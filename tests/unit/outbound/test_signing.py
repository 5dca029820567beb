"""Contract S, the signer: a known answer, the tolerance window, forged and malformed headers."""
from __future__ import annotations

import hashlib
import hmac

from service.outbound import signing
from service.outbound.signing import sign, verify

SECRET = "whsec_test"
BODY = b'{"event":"match.ended"}'
T = 1_700_000_000
# computed apart from this code: printf '1700000000.{"event":"match.ended"}' | openssl dgst -sha256 -hmac whsec_test
KNOWN = "b5f0e1390264ae5f052e4a188ca9db5125b304b7a6cee84e4004e4137e7a0260"


def test_sign_gives_the_known_answer_and_the_three_headers() -> None:
    headers = sign(SECRET, BODY, timestamp=T, delivery_id="dlv_1")
    assert headers == {"Meow-Timestamp": str(T), "Meow-Delivery": "dlv_1", "Meow-Signature": f"v1={KNOWN}"}


def test_a_receiver_with_plain_hmac_agrees() -> None:
    headers = sign(SECRET, BODY, timestamp=T, delivery_id="d")
    mac = hmac.new(SECRET.encode(), headers["Meow-Timestamp"].encode() + b"." + BODY, hashlib.sha256).hexdigest()
    assert headers["Meow-Signature"] == "v1=" + mac


def test_verify_accepts_within_the_tolerance_window_and_refuses_outside() -> None:
    headers = sign(SECRET, BODY, timestamp=T, delivery_id="d")
    assert verify(SECRET, BODY, headers, now=T)
    assert verify(SECRET, BODY, headers, now=T + 300)
    assert verify(SECRET, BODY, headers, now=T - 300)  # a receiver's clock behind ours
    assert not verify(SECRET, BODY, headers, now=T + 301)
    assert not verify(SECRET, BODY, headers, now=T - 301)
    assert verify(SECRET, BODY, headers, now=T + 1000, tolerance_s=1000)


def test_verify_refuses_a_forgery() -> None:
    headers = sign(SECRET, BODY, timestamp=T, delivery_id="d")
    assert not verify("another secret", BODY, headers, now=T)
    assert not verify(SECRET, BODY + b" ", headers, now=T)
    moved = dict(headers, **{"Meow-Timestamp": str(T + 1)})  # the signature covers the timestamp
    assert not verify(SECRET, BODY, moved, now=T)
    flipped = KNOWN[:-1] + ("0" if KNOWN[-1] != "0" else "1")
    assert not verify(SECRET, BODY, dict(headers, **{"Meow-Signature": f"v1={flipped}"}), now=T)
    assert not verify(SECRET, BODY, dict(headers, **{"Meow-Signature": KNOWN}), now=T)  # no scheme
    assert not verify(SECRET, BODY, dict(headers, **{"Meow-Signature": f"v0={KNOWN}"}), now=T)


def test_verify_refuses_missing_and_malformed_headers() -> None:
    good = sign(SECRET, BODY, timestamp=T, delivery_id="d")
    for name in ("Meow-Timestamp", "Meow-Signature"):
        assert not verify(SECRET, BODY, {k: v for k, v in good.items() if k != name}, now=T)
    for stamp in ("", "-1", "1.5", "abc", "\uff11\uff17", "9" * 40):
        assert not verify(SECRET, BODY, dict(good, **{"Meow-Timestamp": stamp}), now=T)
    assert not verify(SECRET, BODY, dict(good, **{"Meow-Signature": "v1=é"}), now=T)
    many = ",".join([f"v1={'0' * 64}"] * signing.MAX_SIGNATURES + [f"v1={KNOWN}"])
    assert not verify(SECRET, BODY, dict(good, **{"Meow-Signature": many}), now=T)


def test_verify_reads_headers_in_any_case_and_several_candidates() -> None:
    good = sign(SECRET, BODY, timestamp=T, delivery_id="d")
    lower = {k.lower(): v for k, v in good.items()}
    assert verify(SECRET, BODY, lower, now=T)
    rotating = dict(good, **{"Meow-Signature": f"v1={'0' * 64},v1={KNOWN}"})  # old and new secret
    assert verify(SECRET, BODY, rotating, now=T)


def test_verify_compares_in_constant_time(monkeypatch) -> None:
    """Every candidate goes through hmac.compare_digest, never `==` (no early exit on the first byte)."""
    seen: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a, b):
        seen.append((a, b))
        return real(a, b)

    monkeypatch.setattr(signing.hmac, "compare_digest", spy)
    good = sign(SECRET, BODY, timestamp=T, delivery_id="d")
    assert verify(SECRET, BODY, dict(good, **{"Meow-Signature": f"v1={KNOWN},v1={'f' * 64}"}), now=T)
    assert seen == [(KNOWN.encode(), KNOWN.encode()), (KNOWN.encode(), b"f" * 64)]
