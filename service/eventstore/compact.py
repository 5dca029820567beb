"""The compact form of a finished game's stream (issue 16): one zlib-compressed record of its
events, from which every stored event is rebuilt byte for byte.

A stored event is orjson of its body ending ``..., "n": nonce, "h": chain hash}``. The compact
form keeps each body without its hash (recomputed from the chain: ``chain.link`` of the previous
hash and the event's record, as ``codec.encode_batch`` made it) and its 32-hex-digit nonce as 16
bytes; only the chain head and a checkpoint hash every ``EVERY`` events are kept, so a read of
events ``after+1..`` recomputes at most ``EVERY`` hashes before the first one it returns. An event
that would not come back byte for byte that way (one stored without a hash, say) is kept as it
was stored. ``pack`` checks the whole round trip before anything is written: a compact form that
would change one byte of one event is never made (``Irregular``).

Layout, compressed as a whole: ``MZ1\\n``, a JSON header line
``{"version": n, "head": hash, "checkpoints": [hash after event EVERY, after 2*EVERY, ...]}``,
then per event one kind byte, a 4-byte big-endian length and the body bytes (kind 1: then the
16-byte nonce). Kinds: 0 body (hash recomputed), 1 body + nonce (hash recomputed), 2 as stored.
"""
from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence

import orjson

from service.eventstore import chain

MAGIC = b"MZ1\n"
EVERY = 256
LEVEL = 9
_LEN = struct.Struct(">BI")


class Irregular(Exception):
    """A stream that cannot be compacted as it is (ids not 1..n, or an event that would not round-trip)."""


def _split(raw: bytes, prev: str, seq: int) -> tuple[int, bytes, bytes] | None:
    """(kind, body, nonce) of an event whose bytes and hash the compact form rebuilds exactly."""
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("h"), str) or list(body)[-1] != "h":
        return None
    body.pop("h")
    nonce = body.pop("n", None) if list(body)[-1:] == ["n"] else None
    core = orjson.dumps(body)
    kind, nb = 0, b""
    if nonce is not None:
        if not (isinstance(nonce, str) and len(nonce) == 32 and nonce == nonce.lower()):
            return None
        try:
            nb = bytes.fromhex(nonce)
        except ValueError:
            return None
        kind = 1
    try:
        if len(core) < 3 or _rebuild(kind, core, nb, prev, seq) != (raw, orjson.loads(raw)["h"]):
            return None
    except (ValueError, TypeError, KeyError):  # e.g. a predecessor's hash that is not hex
        return None
    return kind, core, nb


def _rebuild(kind: int, core: bytes, nonce: bytes, prev: str, seq: int) -> tuple[bytes, str]:
    """The stored bytes of a kind 0/1 event and its chain hash, from its body, nonce and predecessor."""
    plain = _plain(kind, core, nonce)
    h = chain.link(prev, chain.audit_record(seq, orjson.loads(plain)))
    return plain[:-1] + b',"h":"' + h.encode() + b'"}', h


def _plain(kind: int, core: bytes, nonce: bytes) -> bytes:
    """The stored body without its hash (what the hash was computed over)."""
    return core[:-1] + b',"n":"' + nonce.hex().encode() + b'"}' if kind == 1 else core


def _stored_hash(raw: bytes) -> str | None:
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    h = body.get("h") if isinstance(body, dict) else None
    return h if isinstance(h, str) else None


def pack(raws: Sequence[bytes]) -> tuple[bytes, str]:
    """The compact form of a stream's events (seqs 1..n, in order) and its chain head; checked:
    unpacking it gives back exactly ``raws``."""
    prev, checkpoints, parts = chain.GENESIS, [], []
    for seq, raw in enumerate(raws, start=1):
        split = _split(raw, prev, seq)
        if split is None:
            parts.append(_LEN.pack(2, len(raw)) + raw)
            prev = _stored_hash(raw) or prev
        else:
            kind, core, nonce = split
            parts.append(_LEN.pack(kind, len(core)) + core + nonce)
            prev = orjson.loads(raw)["h"]
        if seq % EVERY == 0:
            checkpoints.append(prev)
    header = orjson.dumps({"version": len(raws), "head": prev, "checkpoints": checkpoints})
    blob = zlib.compress(MAGIC + header + b"\n" + b"".join(parts), LEVEL)
    if Compacted(blob).rows(0) != list(raws):
        raise Irregular("the compact form does not give back the stored events")
    return blob, prev


class Compacted:
    """A compact form, read: its version, head, and the stored bytes of any run of its events."""

    def __init__(self, blob: bytes) -> None:
        data = zlib.decompress(blob)
        if not data.startswith(MAGIC):
            raise Irregular("not a compact form")
        end = data.index(b"\n", len(MAGIC))
        header = orjson.loads(data[len(MAGIC):end])
        self.version: int = header["version"]
        self.head: str = header["head"]
        self._checkpoints: list[str] = header["checkpoints"]
        self._events: list[tuple[int, bytes, bytes]] = []
        pos = end + 1
        while pos < len(data):
            kind, size = _LEN.unpack_from(data, pos)
            pos += _LEN.size
            body = data[pos:pos + size]
            pos += size
            nonce = data[pos:pos + 16] if kind == 1 else b""
            pos += len(nonce)
            self._events.append((kind, body, nonce))
        if len(self._events) != self.version:
            raise Irregular("the compact form's events do not match its header")
        self._lock = threading.Lock()
        # the chain hash after each event, where known: the start, the checkpoints, what was read
        self._after: list[str | None] = [None] * (self.version + 1)
        self._after[0] = chain.GENESIS
        for i, h in enumerate(self._checkpoints, start=1):
            self._after[i * EVERY] = h

    def rows(self, after: int = 0, count: int | None = None) -> list[bytes]:
        """The stored bytes of events ``after+1 ..`` (up to ``count`` of them)."""
        after = max(after, 0)
        last = self.version if count is None else min(self.version, after + max(count, 0))
        if after >= last:
            return []
        with self._lock:
            start = after
            while self._after[start] is None:  # at most EVERY steps back to a known hash
                start -= 1
            prev = self._after[start]
            assert prev is not None  # the loop above stopped at a known hash
            out = []
            for seq in range(start + 1, last + 1):
                kind, body, nonce = self._events[seq - 1]
                known = self._after[seq]
                if kind == 2:
                    raw, prev = body, _stored_hash(body) or prev
                elif known is not None:
                    raw, prev = _plain(kind, body, nonce)[:-1] + b',"h":"' + known.encode() + b'"}', known
                else:
                    raw, prev = _rebuild(kind, body, nonce, prev, seq)
                self._after[seq] = prev
                if seq > after:
                    out.append(raw)
            return out


class CompactCache:
    """The last few compact forms read, by game and blob digest (immutable: safe to share). A long
    game's costs about 300 bytes per event here while it is held: few are kept."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._held: OrderedDict[tuple[str, int, int], Compacted] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, blob: bytes) -> Compacted:
        key = (game_id, len(blob), zlib.crc32(blob))
        with self._lock:
            found = self._held.get(key)
            if found is not None:
                self._held.move_to_end(key)
                return found
        found = Compacted(blob)
        with self._lock:
            self._held[key] = found
            while len(self._held) > self.size:
                self._held.popitem(last=False)
        return found
