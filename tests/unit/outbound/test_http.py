"""Contract S, the outbound client, against a real HTTP server on loopback."""
from __future__ import annotations

import ipaddress
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from service.outbound.http import OutboundRefused, address_allowed, check_url, post_json
from tools.trickler import Trickler


class Receiver(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.seen: list[tuple[str, dict[str, str], bytes]] = []
        self.release = threading.Event()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def log_message(self, *args) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.seen.append((self.path, dict(self.headers), body))
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", self.server.base + "/ok")
            self.end_headers()
        elif self.path == "/big":
            self.send_response(200)
            self.send_header("Content-Length", "4096")
            self.end_headers()
            self.wfile.write(b"x" * 4096)
        elif self.path == "/big-unannounced":
            self.send_response(200)
            self.end_headers()  # HTTP/1.0: the body runs to the end of the connection
            self.wfile.write(b"x" * 4096)
        elif self.path == "/slow":
            self.server.release.wait(10)
            self.send_response(200)
            self.end_headers()
        else:
            self.send_response(500 if self.path == "/fail" else 200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield server
    server.release.set()
    server.shutdown()
    server.server_close()


def post(url: str, **kw) -> object:
    args = {"timeout_s": 5.0, "max_bytes": 1024, "allow_private": True} | kw
    return post_json(url, b'{"a":1}', {"X-Test": "1"}, **args)


def reason(call) -> str:
    with pytest.raises(OutboundRefused) as refused:
        call()
    return refused.value.reason


@pytest.mark.parametrize("address", [
    "127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.1.1", "100.64.0.1", "169.254.169.254", "::1", "fe80::1",
    "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::", "64:ff9b::a00:1",
])
def test_internal_addresses_are_refused_unless_allowed(address: str) -> None:
    ip = ipaddress.ip_address(address)
    assert not address_allowed(ip, allow_private=False)
    assert address_allowed(ip, allow_private=True)
    host = f"[{address}]" if ":" in address else address
    assert reason(lambda: check_url(f"https://{host}/hook", allow_private=False)) == "address_refused"
    check_url(f"https://{host}/hook", allow_private=True)


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "224.0.0.1", "ff02::1"])
def test_unspecified_and_multicast_are_refused_always(address: str) -> None:
    assert not address_allowed(ipaddress.ip_address(address), allow_private=True)


def test_public_addresses_pass() -> None:
    for address in ("1.1.1.1", "8.8.8.8", "2606:4700:4700::1111"):
        assert address_allowed(ipaddress.ip_address(address), allow_private=False)
    check_url("https://hooks.example.com/x", allow_private=False, resolver=lambda h, p: ["93.184.215.14"])


@pytest.mark.parametrize("url", [
    "ftp://example.com/x", "http:///x", "http://user:pw@example.com/", "example.com/x", "",
    "http://example.com/x#frag", "http://exa mple.com/", "https://example.com/" + "a" * 3000, "http://[::1/",
])
def test_bad_urls_are_refused(url: str) -> None:
    assert reason(lambda: check_url(url, allow_private=True, resolve=False)) == "bad_url"


def test_localhost_by_name_is_refused_without_resolving() -> None:
    assert reason(lambda: check_url("http://localhost:8000/", allow_private=False, resolve=False)) == "address_refused"


def test_a_name_with_any_internal_address_is_refused() -> None:
    mixed = lambda h, p: ["93.184.215.14", "10.0.0.7"]  # noqa: E731
    assert reason(lambda: check_url("https://x.example/", allow_private=False, resolver=mixed)) == "address_refused"
    assert reason(lambda: post("https://x.example/", allow_private=False, resolver=mixed)) == "address_refused"


def test_loopback_is_refused_before_any_connection(receiver: Receiver) -> None:
    assert reason(lambda: post(receiver.base + "/ok", allow_private=False)) == "address_refused"
    assert receiver.seen == []


def test_a_post_reaches_the_receiver_with_its_body_and_headers(receiver: Receiver) -> None:
    reply = post(receiver.base + "/ok")
    assert (reply.status, reply.body) == (200, b"ok") and reply.elapsed_ms >= 0
    path, headers, body = receiver.seen[0]
    assert (path, body, headers["X-Test"], headers["Content-Type"]) == ("/ok", b'{"a":1}', "1", "application/json")
    assert post(receiver.base + "/fail").status == 500  # a status is an answer, not a refusal


def test_the_name_is_resolved_once_and_the_checked_address_is_the_one_connected(receiver: Receiver) -> None:
    """DNS rebinding: a second lookup could answer an internal address; there is no second lookup."""
    port = receiver.server_address[1]
    answers = [["127.0.0.1"], ["10.9.9.9"]]
    calls: list[tuple[str, int]] = []

    def resolver(host: str, p: int) -> list[str]:
        calls.append((host, p))
        return answers[len(calls) - 1]

    reply = post(f"http://hooks.example:{port}/ok", resolver=resolver)
    assert reply.status == 200 and calls == [("hooks.example", port)]
    assert receiver.seen[0][1]["Host"] == f"hooks.example:{port}"  # the name travels, the address is pinned


def test_a_redirect_is_refused_not_followed(receiver: Receiver) -> None:
    assert reason(lambda: post(receiver.base + "/redirect")) == "redirect"
    assert [p for p, _, _ in receiver.seen] == ["/redirect"]


def test_a_large_answer_is_cut(receiver: Receiver) -> None:
    assert reason(lambda: post(receiver.base + "/big")) == "too_large"
    assert reason(lambda: post(receiver.base + "/big-unannounced")) == "too_large"
    assert post(receiver.base + "/big", max_bytes=4096).body == b"x" * 4096


def test_a_slow_receiver_times_out(receiver: Receiver) -> None:
    assert reason(lambda: post(receiver.base + "/slow", timeout_s=0.2)) == "timeout"


def test_a_closed_port_fails_to_connect(receiver: Receiver) -> None:
    port = receiver.server_address[1]
    receiver.shutdown()
    receiver.server_close()
    assert reason(lambda: post(f"http://127.0.0.1:{port}/ok")) == "connect_failed"
    assert reason(lambda: post("http://unresolvable.invalid/ok", resolver=lambda h, p: [])) == "connect_failed"


def test_proxy_settings_are_ignored(receiver: Receiver, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://10.255.255.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://10.255.255.1:9")
    assert post(receiver.base + "/ok").status == 200


def test_https_to_a_pinned_address_checks_the_certificate_against_the_name(tmp_path, monkeypatch) -> None:
    """The request goes to the checked address, yet TLS sends the name (SNI) and verifies the
    certificate against it: a certificate for the name passes, one for another name fails."""
    import shutil
    import ssl
    import subprocess

    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make a certificate")
    from service.outbound import http as outbound

    def cert(name: str) -> tuple[str, str]:
        key, crt = tmp_path / f"{name}.key", tmp_path / f"{name}.crt"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "1", "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}",
                        "-keyout", str(key), "-out", str(crt)],
                       check=True, capture_output=True)
        return str(crt), str(key)

    for name, expected in (("hooks.example", None), ("other.example", "connect_failed")):
        crt, key = cert(name)
        server = Receiver()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(crt, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
        thread.start()
        trusting = ssl.create_default_context(cafile=crt)
        monkeypatch.setattr(outbound, "_tls", lambda trusting=trusting: trusting)
        try:
            url = f"https://hooks.example:{server.server_address[1]}/ok"
            if expected is None:
                assert post(url, resolver=lambda h, p: ["127.0.0.1"]).status == 200
                assert server.seen[0][1]["Host"] == f"hooks.example:{server.server_address[1]}"
            else:
                assert reason(lambda url=url: post(url, resolver=lambda h, p: ["127.0.0.1"])) == expected
        finally:
            server.shutdown()
            server.server_close()


# ---------------------------------------------------------------------------- the total deadline (issue 37)


@pytest.mark.parametrize("part", ["headers", "body"])
def test_a_trickling_server_is_cut_at_the_total_deadline(part: str) -> None:
    """A byte every 0.25 s passes any per-read timeout: the call still ends ``timeout`` at its deadline
    (1 s; the whole answer would take over 100 s), and the server sees its connection closed."""
    server = Trickler(part, every_s=0.25, total_bytes=400, path="/turn")
    try:
        began = time.monotonic()
        assert reason(lambda: post(server.url, timeout_s=1.0)) == "timeout"
        assert time.monotonic() - began < 1.0 + 2.0  # generous: the deadline plus a margin, never 100 s
        deadline = time.monotonic() + 5
        while not server.cut and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.cut and server.finished == 0, (server.cut, server.finished)
    finally:
        server.close()


def test_a_quick_answer_within_the_deadline_is_read_whole() -> None:
    server = Trickler("body", every_s=0.0, total_bytes=10, path="/turn")
    try:
        reply = post(server.url, timeout_s=5.0)
        assert reply.status == 200 and reply.body.startswith(b'{"action"')  # type: ignore[attr-defined]
    finally:
        server.close()


def test_a_slow_name_holds_one_resolver_thread_and_its_callers_time_out() -> None:
    from service.outbound.http import Resolvers

    hang, asked = threading.Event(), []

    def lookup(host: str, port: int) -> list[str]:
        asked.append(host)
        if host == "slow.example":
            hang.wait(10)
        return ["203.0.113.7"]

    resolvers = Resolvers(threads=2, lookup=lookup)
    outcomes: list[str] = []

    def ask() -> None:
        try:
            resolvers.resolve("slow.example", 443, 0.3)
            outcomes.append("answered")
        except OutboundRefused as refused:
            outcomes.append(refused.reason)

    callers = [threading.Thread(target=ask) for _ in range(6)]
    for t in callers:
        t.start()
    try:
        for t in callers:
            t.join(5)
        assert outcomes == ["timeout"] * 6  # its own name's lookup is the caller's time
        assert asked.count("slow.example") == 1  # one thread for the name, however many ask
        assert resolvers.resolve("fast.example", 443, 0.3)[0] == ["203.0.113.7"]  # the other thread is free
    finally:
        hang.set()


def test_waiting_for_a_free_resolver_thread_is_not_the_callers_time() -> None:
    from service.outbound.http import Resolvers

    release = threading.Event()

    def lookup(host: str, port: int) -> list[str]:
        if host == "busy.example":
            release.wait(10)
        return ["203.0.113.8"]

    resolvers = Resolvers(threads=1, lookup=lookup)
    holder = threading.Thread(target=lambda: resolvers.resolve("busy.example", 443, 5.0))
    holder.start()
    threading.Timer(0.6, release.set).start()  # the only thread is free again after 0.6 s
    try:
        addresses, waited = resolvers.resolve("mine.example", 443, 0.3)  # waits 0.6 s, answers at once
        assert addresses == ["203.0.113.8"] and waited > 0.3
    finally:
        release.set()
        holder.join(5)
