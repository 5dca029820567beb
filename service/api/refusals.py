"""What the HTTP server (gunicorn) refuses, named as domain codes.

gunicorn parses the request line and the headers before the app runs, and refuses what it cannot
parse or what exceeds its limits; it parses a chunked body while the app reads it. ``refusal``
gives each of those refusals a stable code (its status comes from api/codes.py, like every other
code's) and a fixed detail that echoes nothing the client sent. service/serving.py answers them as
problem+json before the app runs; api/errors.py does when reading a body fails inside the app.
``RESPONSES`` lists them in the spec: every operation refers to them (api/operations.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from ssl import SSLError

from gunicorn.http import errors as g

from service.api.codes import ApiCode, status_of
from service.app.codes import AppCode
from service.games.kernel.codes import DomainCode


class ReadTimeout(Exception):
    """A request's line and headers, or its body, did not arrive within the server's timeout
    (service/serving.py: MEOW_HEADER_TIMEOUT_S, MEOW_BODY_TIMEOUT_S)."""

    def __init__(self, part: str, seconds: float) -> None:
        super().__init__(f"the request's {part} did not arrive within {seconds:g} s")
        self.part, self.seconds = part, seconds


# gunicorn's defaults (limit_request_line, limit_request_fields, limit_request_field_size)
LINE, FIELDS, FIELD_SIZE = 4094, 100, 8190

_MALFORMED = ApiCode.MALFORMED_REQUEST
_TABLE: tuple[tuple[type[BaseException], DomainCode | None, str], ...] = (
    # the app's own faults first: gunicorn's response-header errors subclass its request ones
    # (types-gunicorn 26 predates these two, which gunicorn 27 added)
    (g.InvalidResponseHeader, None, ""),  # type: ignore[attr-defined]
    (g.InvalidResponseHeaderName, None, ""),  # type: ignore[attr-defined]
    (g.LimitRequestLine, ApiCode.URI_TOO_LONG, "the request line (method, target and version) is longer than {line} bytes"),
    (g.LimitRequestHeaders, ApiCode.HEADERS_TOO_LARGE,
     "the request has more than {fields} header fields, or one longer than {field_size} bytes"),
    (g.InvalidRequestLine, _MALFORMED, "the request line is not `METHOD target HTTP/1.1`"),
    (g.InvalidRequestMethod, _MALFORMED, "the method is not an upper-case token such as GET, POST or DELETE"),
    (g.InvalidHTTPVersion, _MALFORMED, "the HTTP version is not HTTP/1.0 or HTTP/1.1"),
    (g.InvalidHeaderName, _MALFORMED, "a header field's name is not a token"),
    (g.InvalidHeader, _MALFORMED, "a header field is malformed"),
    (g.ObsoleteFolding, _MALFORMED, "a header field is folded over several lines (RFC 9112 §5.2)"),
    (g.InvalidChunkSize, _MALFORMED, "the chunked body is malformed: a chunk size is not hexadecimal"),
    (g.ChunkMissingTerminator, _MALFORMED, "the chunked body is malformed: a chunk does not end in CRLF"),
    (g.InvalidChunkExtension, _MALFORMED, "the chunked body is malformed: a chunk extension is invalid"),
    (g.InvalidProxyLine, _MALFORMED, "the PROXY protocol line is malformed"),
    (g.InvalidProxyHeader, _MALFORMED, "the PROXY protocol header is malformed"),  # gunicorn: 500
    (g.InvalidSchemeHeaders, _MALFORMED, "the headers naming the scheme contradict each other"),
    (g.InvalidH2CPreface, _MALFORMED, "the connection does not start with the HTTP/2 preface"),
    (g.ExpectationFailed, ApiCode.EXPECTATION_FAILED, "the only expectation served is `Expect: 100-continue`"),
    (g.UnsupportedTransferCoding, ApiCode.NOT_IMPLEMENTED, "the Transfer-Encoding is not one the server decodes"),
    (g.ForbiddenProxyRequest, AppCode.FORBIDDEN, "PROXY protocol lines are not accepted from this address"),
    (SSLError, AppCode.FORBIDDEN, "the TLS handshake failed"),
    (g.ConfigurationProblem, ApiCode.INTERNAL_ERROR, "the server's configuration refuses this request"),
)
_FRAMING = {  # gunicorn names the header when Content-Length or Transfer-Encoding frames no body
    "CONTENT-LENGTH": "the Content-Length header is not one non-negative decimal number, or "
                      "contradicts Transfer-Encoding",
    "TRANSFER-ENCODING": "the Transfer-Encoding header is invalid (chunked must come last, and once)",
}


@dataclass(frozen=True)
class Refusal:
    code: DomainCode
    detail: str

    @property
    def status(self) -> int:
        return status_of(self.code)


def refusal(exc: BaseException, line: int = LINE, fields: int = FIELDS, field_size: int = FIELD_SIZE) -> Refusal | None:
    """The refusal a gunicorn parse error stands for, with the server's limits in its detail;
    None for anything else (an error of the app or of the server itself: 500 ``internal_error``)."""
    if isinstance(exc, ReadTimeout):
        return Refusal(ApiCode.REQUEST_TIMEOUT, str(exc))
    for kind, code, detail in _TABLE:
        if isinstance(exc, kind):
            if code is None:
                return None
            if isinstance(exc, g.InvalidHeader) and str(getattr(exc, "hdr", "")) in _FRAMING:
                detail = _FRAMING[str(exc.hdr)]
            return Refusal(code, detail.format(line=line, fields=fields, field_size=field_size))
    return None


def body_refusal(exc: BaseException) -> Refusal | None:
    """The refusal of a body gunicorn failed to parse while the app read it (a chunked body); None
    for anything else, an ``SSLError`` too: inside the app that is its own TLS (to Redis), not the
    client's. A body that does not arrive in time is 408 ``request_timeout``."""
    return refusal(exc) if isinstance(exc, (g.ParseException, ReadTimeout)) else None


@dataclass(frozen=True)
class Documented:
    """A refusal every operation of the spec lists: ``name`` in components/responses, with the
    refusal of ``sample`` (a gunicorn error, or the refusal itself) as its example."""
    name: str
    sample: BaseException | Refusal
    description: str

    @property
    def example(self) -> Refusal:
        if isinstance(self.sample, Refusal):
            return self.sample
        found = refusal(self.sample)
        assert found is not None, self.sample
        return found


TOO_MANY_CONNECTIONS = Refusal(ApiCode.TOO_MANY_CONNECTIONS, "too many open connections from this address's "
                               "network (512): close one, or retry when one has closed")
_AGAIN = "retry later (with the same Idempotency-Key, a write that did go through returns its first answer)"


RESPONSES: tuple[Documented, ...] = (
    Documented("BadRequest", g.InvalidRequestLine("GET /"),
               "`malformed_request`: the HTTP server could not parse the request (its line, method, HTTP "
               "version, a header, Content-Length or Transfer-Encoding, a chunked body); `invalid_json`: "
               "the body is not JSON"),
    Documented("UriTooLong", g.LimitRequestLine(LINE + 1, LINE),
               f"`uri_too_long`: the request line is longer than {LINE} bytes"),
    Documented("HeadersTooLarge", g.LimitRequestHeaders("limit request headers fields"),
               f"`headers_too_large`: more than {FIELDS} header fields, or one longer than {FIELD_SIZE} bytes"),
    Documented("RequestTimeout", ReadTimeout("body", 10),
               "`request_timeout`: the request's line and headers, or its body, did not arrive within the "
               "server's timeout (MEOW_HEADER_TIMEOUT_S, MEOW_BODY_TIMEOUT_S); the connection closes"),
    Documented("TooManyRequests", TOO_MANY_CONNECTIONS,
               "`rate_limited`: over a rate limit or the open streams' cap (with `Retry-After`); "
               "`too_many_connections`: the client's address or network (IPv4 /24, IPv6 /64) holds too many "
               "open connections (refused as it connects, and closed)"),
    Documented("BadGateway", Refusal(ApiCode.BAD_GATEWAY, f"the API did not answer: {_AGAIN}"),
               "`bad_gateway`: the reverse proxy in front (deploy/nginx) could not reach the API"),
    Documented("GatewayTimeout", Refusal(ApiCode.GATEWAY_TIMEOUT, f"the API did not answer in time: {_AGAIN}"),
               "`gateway_timeout`: the reverse proxy in front (deploy/nginx) waited too long for the API"),
)
"""The server's refusals that every operation lists (417 and 501, rare, fall under ``default``)."""

DEFAULT = ("any other error, such as the HTTP server's 417 `expectation_failed` (an Expect other than "
           "100-continue) or 501 `not_implemented` (a Transfer-Encoding it does not decode)")
"""The description of every operation's ``default`` response."""
