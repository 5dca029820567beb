"""The one safe outbound HTTP client (contract S): address checks, no redirects, size and time caps.

A URL's host is resolved once; every address it resolves to must be allowed (a name that also
points inside the network is refused), and the request connects to the checked address itself
(the URL's host is replaced by the address, the `Host` header and TLS SNI/verification keep the
name), so a second, different DNS answer can never be used (DNS rebinding). The environment's
proxy settings are ignored for the same reason. A 3xx answer is refused, never followed.
"""
from __future__ import annotations

import ipaddress
import logging
import socket
import ssl
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import lru_cache

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


_RESOLVERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="meow-resolve")


def _resolve(host: str, port: int, timeout_s: float, resolver: Resolver | None) -> list[str]:
    if resolver is not None:
        return resolver(host, port)
    future = _RESOLVERS.submit(_getaddrinfo, host, port)
    try:
        return future.result(timeout=timeout_s)
    except FutureTimeout:
        future.cancel()
        raise OutboundRefused("timeout") from None
    except (OSError, UnicodeError):
        raise OutboundRefused("connect_failed") from None


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


def _pin(parsed: httpx.URL, *, allow_private: bool, timeout_s: float, resolver: Resolver | None) -> str:
    """The one checked address this request will connect to (raises OutboundRefused)."""
    host = parsed.raw_host.decode("ascii")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    literal = _literal(host)
    raw = [host] if literal is not None else _resolve(host, port, timeout_s, resolver)
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
    return str(addresses[0])


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
    deadline = started + timeout_s
    parsed = _parse(url)
    address = _pin(parsed, allow_private=allow_private, timeout_s=timeout_s, resolver=resolver)
    pinned = parsed.copy_with(host=address)
    sent = {k: v for k, v in headers.items() if k.lower() not in ("host", "content-length", "transfer-encoding")}
    sent.update({"Host": parsed.netloc.decode("ascii"), "Content-Type": "application/json",
                 "Accept-Encoding": "identity"})
    extensions = {"sni_hostname": parsed.raw_host.decode("ascii")} if parsed.scheme == "https" else {}
    remaining = max(0.001, deadline - time.monotonic())
    try:
        with httpx.Client(verify=_tls(), trust_env=False, follow_redirects=False,
                          timeout=httpx.Timeout(remaining), limits=httpx.Limits(max_connections=1)) as client:
            request = client.build_request("POST", pinned, content=body, headers=sent, extensions=extensions)
            response = client.send(request, stream=True)
            try:
                if response.status_code in REDIRECTS:
                    raise OutboundRefused("redirect")
                data = _read(response, max_bytes, deadline)
            finally:
                response.close()
    except httpx.TimeoutException:
        raise OutboundRefused("timeout") from None
    except (httpx.HTTPError, OSError, ssl.SSLError):
        raise OutboundRefused("connect_failed") from None
    return Reply(status=response.status_code, body=data, elapsed_ms=int((time.monotonic() - started) * 1000))
