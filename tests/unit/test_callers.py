"""Who a caller is at each event (live feeds), and who the client is behind proxies (caps)."""
from __future__ import annotations

from service.api.client import client_address
from service.app.auth import Caller, caller_after
from service.games.kernel.model import Event


def _left(seat: int) -> Event:
    return Event(seq=9, type="SeatLeft", at=0, round=1, seat=seat, data={"seat": seat, "reason": "left"})


def test_a_seat_token_is_revoked_at_its_own_seats_leave_only() -> None:
    me = Caller("seat", 2, "h")
    assert caller_after(me, _left(2)) is None
    assert caller_after(me, _left(1)) == me
    assert caller_after(me, Event(seq=9, type="CardPlayed", at=0, round=1, seat=2, data={"seat": 2})) == me


def test_an_owner_loses_the_seat_not_the_role_and_others_are_untouched() -> None:
    assert caller_after(Caller("owner", 0, "o"), _left(0)) == Caller("owner", None, "o")
    assert caller_after(Caller("owner", None, "o"), _left(0)) == Caller("owner", None, "o")
    assert caller_after(Caller("spectator"), _left(0)) == Caller("spectator")
    assert caller_after(Caller("audit", None, "a"), _left(0)) == Caller("audit", None, "a")


def test_the_client_address_is_the_peer_unless_the_peer_is_a_trusted_proxy() -> None:
    env = {"REMOTE_ADDR": "10.0.0.5", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.9"}
    assert client_address(env) == "10.0.0.5"  # no trusted proxies: forwarded headers are ignored
    assert client_address(env, ["10.0.0.0/8"]) == "203.0.113.9"  # the nearest untrusted hop
    assert client_address(env, ["10.0.0.0/8", "203.0.113.0/24"]) == "1.2.3.4"
    assert client_address({**env, "HTTP_X_FORWARDED_FOR": "junk"}, ["10.0.0.0/8"]) == "10.0.0.5"
    assert client_address({"REMOTE_ADDR": "192.0.2.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4"}, ["10.0.0.0/8"]) == "192.0.2.1"
    assert client_address({}) == "unknown"
