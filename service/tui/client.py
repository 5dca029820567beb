"""The terminal client's HTTP side: the public API only (API.md), over httpx, events over SSE."""
from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import aconnect_sse

READ_TIMEOUT_S = 30.0  # above the server's SSE heartbeat (7 s by default)


class ApiError(Exception):
    """A refusal: problem+json's `detail` and stable `code`, or a network failure (status 0)."""

    def __init__(self, status: int, code: str, detail: str, body: dict | None = None) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.body = status, code, detail, body or {}


def problem_of(status: int, text: str) -> ApiError:
    """The ApiError for an answer's body (problem+json, or whatever else came back)."""
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return ApiError(status, "http_error", f"HTTP {status}: {text[:200]}".strip())
    detail = body.get("detail") or body.get("title") or f"HTTP {status}"
    return ApiError(status, str(body.get("code") or "http_error"), str(detail), body)


@dataclass
class Feed:
    """Where an event stream stands: the last `seq` seen (sent back as Last-Event-ID), and the
    type of a match's last event (the catalogue's `end_event`, docs/clients.md)."""
    last_id: int = 0
    end_event: str | None = None
    connections: int = 0
    repeated: int = 0  # events a reconnect sent again (none while Last-Event-ID is honoured)
    over: bool = False
    revoked: bool = False


class MeowClient:
    """One server, one httpx client; tokens are passed per call (a seat, the owner, or none)."""

    def __init__(self, server: str, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.base = server.rstrip("/")
        self.http = httpx.AsyncClient(base_url=self.base + "/v1", transport=transport,
                                      timeout=httpx.Timeout(10.0, read=READ_TIMEOUT_S))

    async def close(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, token: str | None = None, body: Any = None,
                    idempotent: bool = False, params: dict | None = None) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if idempotent:  # a retried POST writes once (API.md, Idempotency)
            headers["Idempotency-Key"] = str(uuid.uuid4())
        try:
            r = await self.http.request(method, path, json=body, headers=headers, params=params)
        except httpx.HTTPError as exc:
            raise ApiError(0, "unreachable", f"cannot reach {self.base}: {exc}") from exc
        if r.status_code >= 400:
            raise problem_of(r.status_code, r.text)
        return r.json() if r.content else {}

    async def variants(self) -> list[dict]:
        return (await self._call("GET", "/variants"))["variants"]

    async def lobby(self, status: str) -> list[dict]:
        return (await self._call("GET", "/games", params={"status": status, "limit": 20})).get("games", [])

    async def create(self, variant: str, options: dict, max_players: int | None = None,
                     name: str | None = None) -> dict:
        body: dict[str, Any] = {"variant": variant, "options": options}
        if max_players:
            body["max_players"] = max_players
        if name:
            body["name"] = name
        return await self._call("POST", "/games", body=body, idempotent=True)

    async def take_seat(self, game: str, token: str | None, name: str | None = None,
                        bot: str | None = None) -> dict:
        body = {"bot": {"strength": bot}} if bot else {"name": name}
        return await self._call("POST", f"/games/{game}/seats", token, body, idempotent=True)

    async def start(self, game: str, owner: str) -> dict:
        return await self._call("POST", f"/games/{game}/start", owner)

    async def view(self, game: str, token: str | None) -> dict:
        return await self._call("GET", f"/games/{game}", token)

    async def page(self, game: str, token: str | None, after: int) -> list[dict]:
        """One page of the event feed as JSON (``listEvents``): the events after ``after``."""
        got = await self._call("GET", f"/games/{game}/events", token, params={"after": after})
        return [e for e in got.get("events") or [] if isinstance(e, dict)]

    async def act(self, game: str, token: str, action: dict) -> dict:
        """One entry of `you.legal_actions`, POSTed as it is; the answer carries the new view."""
        return await self._call("POST", f"/games/{game}/actions", token, action, idempotent=True)

    async def events(self, game: str, token: str | None, feed: Feed,
                     on_connect: Callable[[], None] | None = None) -> AsyncIterator[dict]:
        """The game's events as the caller may see them, for as long as the match runs: a dropped
        or ended connection is reopened with Last-Event-ID, so nothing is missed or repeated."""
        delay = 0.2
        while not (feed.over or feed.revoked):
            headers = {"Last-Event-ID": str(feed.last_id)}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            try:
                async with aconnect_sse(self.http, "GET", f"/games/{game}/events", headers=headers) as source:
                    if source.response.status_code >= 400:
                        await source.response.aread()
                        raise problem_of(source.response.status_code, source.response.text)
                    feed.connections += 1
                    if on_connect:
                        on_connect()
                    async for sse in source.aiter_sse():
                        if sse.event == "revoked":
                            feed.revoked = True
                            break
                        if not sse.id or not sse.data:
                            continue
                        event = json.loads(sse.data)
                        if event["seq"] <= feed.last_id:
                            feed.repeated += 1
                            continue  # never twice
                        feed.last_id = event["seq"]
                        delay = 0.2
                        yield event
                        if feed.end_event and event["type"] == feed.end_event:
                            feed.over = True
                            break
            except ApiError as exc:
                if exc.status not in (429, 503):
                    raise
            except httpx.HTTPError:
                pass  # dropped: reconnect below with the last id seen
            if not (feed.over or feed.revoked):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
