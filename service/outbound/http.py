"""The one safe outbound HTTP client (contract S): address checks, no redirects, size and time caps.

A URL's host is resolved once; every address it resolves to must be allowed (a name that also
points inside the network is refused), and the request connects to the checked address itself
(the URL's host is replaced by the address, the `Host` header and TLS SNI/verification keep the
name), so a second, different DNS answer can never be used (DNS rebinding). The environment's
proxy settings are ignored for the same reason. A 3xx answer is refused, never followed.

Every call has a total deadline, ``timeout_s``, for the whole exchange (issue 37): resolving the name,
connecting, TLS, sending, the answer's headers and body. A watchdog timer shuts the connection's
socket down at the deadline, so a server trickling its answer a byte at a time (each read well within
any per-read timeout) is cut there, and the call ends ``timeout`` within moments of it.

Names are resolved on a small pool of resolver threads (``RESOLVER_THREADS``), at most one at a time
per name: callers asking for a name being resolved wait for that lookup, so a name whose DNS hangs
holds one resolver thread, never the pool. Waiting for a free resolver thread is not counted against
the caller's deadline (a slow name of someone else's is no fault of this call; the deadline moves by
that wait, at most ``RESOLVER_QUEUE_S``), while its own name's lookup is: no answer within the
deadline is a ``timeout``.
"""
from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import httpcore
import httpx

logging.getLogger("httpx").setLevel(logging.WARNING)  # no line per request: a URL may carry a receiver's token
REASONS = ("address_refused", "redirect", "too_large", "timeout", "connect_failed", "bad_url")
MAX_URL_CHARS = 2048
REDIRECTS = frozenset({301, 302, 303, 307, 308})
NAT64 = ipaddress.ip_network("64:ff9b::/96")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]  # (host, port) -> addresses, as strings


class OutboundRefused(Exception):
    """An outbound request not made or not completed; `reason` is one of REASONS."""

    def __init__(self, reason: str) -> None:
        assert reason in REASONS, reason
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Reply:
    status: int
    body: bytes
    elapsed_ms: int


def _embedded(ip: IPAddress) -> IPAddress | None:
    """The IPv4 address an IPv6 one carries (mapped, 6to4, Teredo, NAT64), if any."""
    if isinstance(ip, ipaddress.IPv4Address):
        return None
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def address_allowed(ip: IPAddress, *, allow_private: bool) -> bool:
    """Whether a request may connect to `ip`: a public unicast address, or any unicast one if allowed."""
    inner = _embedded(ip)
    if inner is not None and not address_allowed(inner, allow_private=allow_private):
        return False
    if ip.is_unspecified or ip.is_multicast:
        return False
    if allow_private:
        return True
    return ip.is_global and not ip.is_reserved and not ip.is_private


def _getaddrinfo(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


RESOLVER_THREADS = 8  # names resolved at once, process-wide (one thread per name at most)
RESOLVER_QUEUE_S = 30.0  # the longest a call waits for a free resolver thread (not counted as its own time)


@dataclass
class _Lookup:
    """One name's lookup in flight: every caller asking for that name waits for it."""

    started: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    addresses: list[str] = field(default_factory=list)
    error: BaseException | None = None


class Resolvers:
    """Resolver threads shared by every host name, at most one per name at once."""

    def __init__(self, threads: int = RESOLVER_THREADS, lookup: Resolver = _getaddrinfo) -> None:
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="meow-resolve")
        self._lookup = lookup
        self._lock = threading.Lock()
        self._inflight: dict[str, _Lookup] = {}

    def resolve(self, host: str, port: int, timeout_s: float) -> tuple[list[str], float]:
        """The name's addresses, and how long the call waited for a resolver thread (not its own
        time); OutboundRefused ``timeout`` when its lookup gives no answer within ``timeout_s``."""
        name = host.lower()
        with self._lock:
            job = self._inflight.get(name)
            if job is None:
                job = self._inflight[name] = _Lookup()
                self._pool.submit(self._run, name, host, port, job)
        asked = time.monotonic()
        if not job.started.wait(RESOLVER_QUEUE_S):
            raise OutboundRefused("timeout")
        waited = max(0.0, time.monotonic() - asked)
        if not job.done.wait(timeout_s):
            raise OutboundRefused("timeout")
        if job.error is not None:
            raise OutboundRefused("connect_failed")
        return list(job.addresses), waited

    def _run(self, name: str, host: str, port: int, job: _Lookup) -> None:
        job.started.set()
        try:
            job.addresses = self._lookup(host, port)
        except BaseException as exc:  # noqa: BLE001 - any failure is the callers' connect_failed
            job.error = exc
        finally:
            with self._lock:
                self._inflight.pop(name, None)
            job.done.set()


_RESOLVERS = Resolvers()


def _resolve(host: str, port: int, timeout_s: float, resolver: Resolver | None) -> tuple[list[str], float]:
    if resolver is not None:
        return resolver(host, port), 0.0
    return _RESOLVERS.resolve(host, port, timeout_s)


def _parse(url: str) -> httpx.URL:
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS or any(c.isspace() for c in url):
        raise OutboundRefused("bad_url")
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, UnicodeError):
        raise OutboundRefused("bad_url") from None
    if parsed.scheme not in ("http", "https") or not parsed.host or parsed.userinfo or parsed.fragment:
        raise OutboundRefused("bad_url")
    return parsed


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _pin(parsed: httpx.URL, *, allow_private: bool, timeout_s: float, resolver: Resolver | None) -> tuple[str, float]:
    """The one checked address this request will connect to (raises OutboundRefused), and how long
    it waited for a resolver thread."""
    host = parsed.raw_host.decode("ascii")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    literal = _literal(host)
    raw, waited = ([host], 0.0) if literal is not None else _resolve(host, port, timeout_s, resolver)
    addresses: list[IPAddress] = []
    for a in raw:
        ip = _literal(a.split("%", 1)[0])  # a scoped IPv6 answer (fe80::1%eth0) is link-local anyway
        if ip is None:
            raise OutboundRefused("connect_failed")
        addresses.append(ip)
    if not addresses:
        raise OutboundRefused("connect_failed")
    if not all(address_allowed(ip, allow_private=allow_private) for ip in addresses):
        raise OutboundRefused("address_refused")
    return str(addresses[0]), waited


def check_url(url: str, *, allow_private: bool, resolve: bool = True, timeout_s: float = 5.0,
              resolver: Resolver | None = None) -> None:
    """Refuse (OutboundRefused) a URL this client would not request; `resolve=False` checks only its form
    and a literal address (a name is then checked again when it is requested)."""
    parsed = _parse(url)
    host = parsed.raw_host.decode("ascii")
    literal = _literal(host)
    if literal is not None:
        if not address_allowed(literal, allow_private=allow_private):
            raise OutboundRefused("address_refused")
        return
    name = host.rstrip(".").lower()  # "localhost." is localhost (a fully qualified name)
    if not allow_private and (name == "localhost" or name.endswith(".localhost")):
        raise OutboundRefused("address_refused")
    if resolve:
        _pin(parsed, allow_private=allow_private, timeout_s=timeout_s, resolver=resolver)


@lru_cache(maxsize=1)
def _tls() -> ssl.SSLContext:
    return httpx.create_ssl_context()  # built once: loading the CA bundle costs milliseconds


class _Watchdog(httpcore.NetworkBackend):
    """The network backend of one call: it keeps a duplicate of the connection's socket, and shuts the
    connection down at the deadline (whatever the call is doing: connecting TLS, sending, waiting for
    a byte); ``fired`` says it did."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.fired = False
        self._inner = httpcore.SyncBackend()
        self._lock = threading.Lock()
        self._socks: list[socket.socket] = []
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), self.fire)
        self._timer.daemon = True
        self._timer.start()

    def fire(self) -> None:
        with self._lock:
            self.fired = True
            for sock in self._socks:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._timer.cancel()
        with self._lock:
            for sock in self._socks:
                with contextlib.suppress(OSError):
                    sock.close()
            self._socks.clear()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise httpcore.ConnectTimeout("the call's deadline passed")
        stream = self._inner.connect_tcp(host, port, min(timeout or left, left), local_address, socket_options)
        sock = stream.get_extra_info("socket")
        with self._lock:
            if isinstance(sock, socket.socket):
                self._socks.append(sock.dup())  # shut down, the duplicate ends the connection (TLS too)
            fired = self.fired
        if fired:
            stream.close()
            raise httpcore.ConnectTimeout("the call's deadline passed")
        return stream

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        raise httpcore.ConnectError("no unix sockets")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _Transport(httpx.HTTPTransport):
    """httpx's transport over one call's watchdog backend (its own pool of one connection)."""

    def __init__(self, backend: _Watchdog) -> None:
        super().__init__(verify=_tls(), trust_env=False, limits=httpx.Limits(max_connections=1))
        self._pool = httpcore.ConnectionPool(ssl_context=_tls(), max_connections=1, max_keepalive_connections=0,
                                             network_backend=backend)


def _read(response: httpx.Response, max_bytes: int, deadline: float) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise OutboundRefused("too_large")
    chunks, size = [], 0
    for chunk in response.iter_raw():
        size += len(chunk)
        if size > max_bytes:
            raise OutboundRefused("too_large")
        if time.monotonic() > deadline:
            raise OutboundRefused("timeout")
        chunks.append(chunk)
    return b"".join(chunks)


def post_json(url: str, body: bytes, headers: Mapping[str, str], *, timeout_s: float, max_bytes: int,
              allow_private: bool, resolver: Resolver | None = None) -> Reply:
    """POST `body` as JSON to `url` through the checks above; the answer, whatever its status, or OutboundRefused."""
    started = time.monotonic()
    parsed = _parse(url)
    address, waited = _pin(parsed, allow_private=allow_private, timeout_s=timeout_s, resolver=resolver)
    deadline = started + waited + timeout_s  # waiting for a resolver thread is not this call's time
    pinned = parsed.copy_with(host=address)
    sent = {k: v for k, v in headers.items() if k.lower() not in ("host", "content-length", "transfer-encoding")}
    sent.update({"Host": parsed.netloc.decode("ascii"), "Content-Type": "application/json",
                 "Accept-Encoding": "identity"})
    extensions = {"sni_hostname": parsed.raw_host.decode("ascii")} if parsed.scheme == "https" else {}
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise OutboundRefused("timeout")
    watchdog = _Watchdog(deadline)
    try:
        with httpx.Client(transport=_Transport(watchdog), trust_env=False, follow_redirects=False,
                          timeout=httpx.Timeout(remaining)) as client:
            request = client.build_request("POST", pinned, content=body, headers=sent, extensions=extensions)
            response = client.send(request, stream=True)
            try:
                if response.status_code in REDIRECTS:
                    raise OutboundRefused("redirect")
                data = _read(response, max_bytes, deadline)
            finally:
                response.close()
    except OutboundRefused as refused:
        raise OutboundRefused("timeout" if watchdog.fired and refused.reason != "too_large" else refused.reason) from None
    except httpx.TimeoutException:
        raise OutboundRefused("timeout") from None
    except (httpx.HTTPError, OSError, ssl.SSLError):
        raise OutboundRefused("timeout" if watchdog.fired else "connect_failed") from None
    finally:
        watchdog.close()
    return Reply(status=response.status_code, body=data, elapsed_ms=int((time.monotonic() - started) * 1000))
