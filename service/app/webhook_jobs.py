"""The webhook jobs, served on the workers' hooks lane (never a table's lane, never the write path):

- ``fan_out`` (``HookKind.HOOK``, written by the append with the events): the events a webhook names
  become deliveries to the table's key's endpoints that subscribed to them (service/app/webhooks.py);
  it sends nothing itself: each attempt is a job of its own;
- ``send`` (``HookKind.HOOK_SEND``): one attempt of one delivery through the safe outbound client
  (service/outbound/http.py), signed (service/outbound/signing.py), within ``attempt_timeout_s``; its
  job's timeout is that plus ``JOB_MARGIN_S`` (the outbound call's own deadline always fires first).

An attempt is recorded before it is sent (the delivery's ``sending`` mark) and its outcome after. An
attempt whose outcome never came (its worker died, or its job was killed) is found by the next run of
its job, once it cannot be under way any more, and counted as a failed attempt (``interrupted``), as a
timeout is: either backs off and counts towards giving up and disabling the endpoint.

At least once: a delivery's record is written before the job of its next attempt is scheduled, and
the due job of an attempt is finished only after its outcome is recorded, so a worker that dies
mid-send leaves the attempt due again when its lease runs out; the receiver drops a repeat by its
``Meow-Delivery`` id. A failed attempt is retried after 1, 2, 4, ... times
``webhook_retry_base_ms`` (at most ``webhook_retry_max_ms``) for ``webhook_retry_for_s``, then given
up. A failing endpoint is held back (its deliveries wait out its own backoff instead of each trying
it) and, after ``webhook_disable_after`` deliveries given up in a row, disabled with a notice.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import orjson

from service import metrics
from service.app import api_keys, webhooks as wh
from service.app.api_keys import table_key
from service.app.context import AppContext
from service.app.errors import AppError
from service.games.kernel.codes import KernelCode
from service.integrations.webhooks.jobs import HookKind
from service.outbound import signing
from service.outbound.http import REASONS, OutboundRefused, post_json

log = logging.getLogger("meow.webhooks")
OUTCOMES = ("delivered", "retrying", "given_up", "dropped")
"""A delivery's outcomes in /metrics (``meow_webhook_deliveries_total{outcome}``)."""
INTERRUPTED = "interrupted"
"""An attempt's error when its outcome never came back (its worker died or its job was killed)."""
RESULTS = ("2xx", "3xx", "4xx", "5xx", *REASONS, INTERRUPTED)
"""An attempt's results in /metrics (``meow_webhook_attempts_total{result}``): a status class or a refusal."""
USER_AGENT = "meow-webhooks/1"


def fan_out(ctx: AppContext, payload: dict[str, Any]) -> str:
    """The deliveries one append's events call for (idempotent: a re-run makes none twice). It sends
    nothing: each first attempt is a job of its own, due at once, so one slow receiver never holds
    this job (nor the deliveries to the key's other endpoints) behind it."""
    game_id, first, last = str(payload["game"]), int(payload["first"]), int(payload["last"])
    owner = table_key(ctx, game_id)
    if owner is None:
        return "anonymous"
    key = api_keys.get(ctx.api_keys, owner)
    if key is None or not key.active:
        return "revoked"  # a revoked key's tables play on; nothing more is sent for them
    hooks = wh.enabled_hooks(ctx, owner)
    if not hooks:
        return "unsubscribed"
    wanted = {t for h in hooks for t in h.events}
    stored = ctx.event_log.read_stored(game_id, after=first - 1, count=last - first + 1)
    events = [(s.event, kind) for s in stored if (kind := wh.hook_type(s.event)) in wanted]
    if not events:
        return "unsubscribed"
    try:
        variant = ctx.load(game_id).variant
    except AppError as exc:
        if exc.code == KernelCode.NOT_FOUND:
            return "closed"
        raise
    for event, kind in events:
        assert kind is not None  # (filtered above)
        wh.deliver(ctx, owner, kind, wh.table_event_data(game_id, variant, event),
                   dedup=f"{game_id}/{event.seq}", route=game_id, at=event.at, hooks=hooks)
    return "fanned"


def owner_of_job(ctx: AppContext, payload: Mapping[str, Any]) -> str:
    """The API key a hooks-lane job belongs to ("" when none): an attempt's endpoint's owner, or the
    key of the table a fan-out serves. The hooks lane shares its threads across these keys
    (workers/hooks_lane.py)."""
    if payload.get("owner"):
        return str(payload["owner"])
    if payload.get("kind") == HookKind.HOOK:  # (a fan-out scheduled before it named its owner)
        return wh.owner_of(ctx, str(payload.get("game", ""))) or ""
    return ""


def backoff_ms(ctx: AppContext, n: int) -> int:
    """The wait before retry ``n`` (1, 2, ...): base x 2^(n-1), at most the max."""
    s = ctx.settings
    return int(min(s.webhook_retry_max_ms, s.webhook_retry_base_ms * 2 ** min(max(0, n - 1), 40)))


def send(ctx: AppContext, payload: dict[str, Any]) -> str:
    """One attempt of one delivery, recorded before it is sent and its outcome after; a no-op when
    that attempt's outcome is recorded already."""
    owner, did, attempt = str(payload["owner"]), str(payload["key"]), int(payload["attempt"])
    raw = ctx.webhooks.delivery_get(owner, did)
    if raw is None:
        return "closed"  # gone from the bounded log
    record = orjson.loads(raw)
    if record["status"] != "pending" or int(record["attempts"]) < attempt:
        return "closed"
    if int(record["attempts"]) > attempt:  # recorded, but this job died before it scheduled the next
        ctx.due_queue.schedule(wh.send_followup(ctx, owner, record, int(record["attempts"]), int(record["next_at"])))
        return "closed"
    raw_hook = ctx.webhooks.hook_get(owner, record["hook"])
    health = ctx.webhooks.hook_health(owner, record["hook"])
    if raw_hook is None or health.get("disabled_at"):
        return _finish(ctx, owner, record, "failed", "dropped", None,
                       "endpoint_deleted" if raw_hook is None else "endpoint_disabled")
    hook, now = wh.Hook.decode(raw_hook), ctx.clock()
    flight = record.get("sending")
    if flight is not None:  # this attempt was sent before, and its outcome never recorded
        if now < int(flight["until"]):  # another run of this job may still be at it: look once it cannot be
            ctx.due_queue.schedule(wh.send_followup(ctx, owner, record, attempt, int(flight["until"]),
                                                    tag=f"-s{flight['until']}"))
            return "in_flight"
        metrics.WEBHOOK_ATTEMPTS.labels(INTERRUPTED).inc()
        log.warning("webhook %s of key %s: attempt %d of %s was cut before its outcome came", hook.id, owner,
                    attempt + 1, did)
        return _failed(ctx, owner, hook.id, health, record, attempt,
                       {"at": int(flight["at"]), "status": None, "error": INTERRUPTED,
                        "ms": max(0, now - int(flight["at"]))})
    hold = int(health.get("hold_until", 0))
    if hold > now:  # the endpoint is failing: wait for its own backoff rather than knock again
        ctx.due_queue.schedule(wh.send_followup(ctx, owner, record, attempt, hold, tag=f"-h{hold}"))
        return "held"
    mark = {"at": now, "until": now + int(wh.job_timeout_s(ctx.settings) * 1000)}
    # recorded before it is sent: a run that dies from here on leaves the mark behind
    if not ctx.webhooks.delivery_put(owner, did, orjson.dumps({**record, "sending": mark})):
        return "closed"  # gone from the bounded log
    status, error, took = _post(ctx, hook, record, now)
    latest = ctx.webhooks.delivery_get(owner, did)
    if latest is None or orjson.loads(latest).get("sending") != mark:
        return "superseded"  # another run of this job took it as cut meanwhile, and went on
    try_ = {"at": now, "status": status, "error": error, "ms": took}
    if error is None:
        record["tries"] = [*record.get("tries", []), try_][-wh.ATTEMPTS_KEPT:]
        ctx.webhooks.hook_health_set(owner, hook.id, {"streak": 0, "hold_until": 0, "failed": 0, "failing_since": 0})
        metrics.WEBHOOK_LATENCY.observe(max(0, ctx.clock() - int(record["created_at"])) / 1000)
        return _finish(ctx, owner, record, "delivered", "delivered")
    return _failed(ctx, owner, hook.id, health, record, attempt, try_)


def _failed(ctx: AppContext, owner: str, hook_id: str, health: dict[str, int], record: dict[str, Any],
            attempt: int, try_: dict[str, Any]) -> str:
    """A failed attempt (an error status, a refusal, a timeout, or cut): counted in the log, the
    endpoint held back for its streak's backoff, the next attempt scheduled after the delivery's own
    backoff, or the delivery given up once that falls beyond its retry window."""
    record.pop("sending", None)
    record["tries"] = [*record.get("tries", []), try_][-wh.ATTEMPTS_KEPT:]
    now = ctx.clock()  # backoffs count from the outcome: a timeout's wait is not part of them
    streak = ctx.webhooks.hook_health_add(owner, hook_id, "streak", 1)
    ctx.webhooks.hook_health_set(owner, hook_id, {"hold_until": now + backoff_ms(ctx, streak),
                                                  "failing_since": health.get("failing_since") or int(try_["at"])})
    nxt = now + backoff_ms(ctx, attempt + 1)
    if nxt - int(record["window_from"]) > ctx.settings.webhook_retry_for_s * 1000:
        failed = ctx.webhooks.hook_health_add(owner, hook_id, "failed", 1)
        if failed >= ctx.settings.webhook_disable_after > 0:
            disable(ctx, owner, hook_id, now, failed)
        return _finish(ctx, owner, record, "failed", "given_up")
    record.update(attempts=attempt + 1, next_at=nxt)
    if ctx.webhooks.delivery_put(owner, record["id"], orjson.dumps(record)):  # recorded first, then scheduled
        ctx.due_queue.schedule(wh.send_followup(ctx, owner, record, attempt + 1, nxt))
    metrics.WEBHOOK_DELIVERIES.labels("retrying").inc()
    return "retrying"


def disable(ctx: AppContext, owner: str, hook_id: str, now: int, failed: int) -> None:
    """The endpoint out of service after ``failed`` deliveries given up in a row (the one place that
    disables for failures)."""
    if wh.disable(ctx, owner, hook_id, now):  # versioned and logged (service/app/webhooks.py)
        log.warning("webhook %s of key %s disabled after %d deliveries given up in a row", hook_id, owner, failed)


def _post(ctx: AppContext, hook: wh.Hook, record: dict[str, Any], now: int) -> tuple[int | None, str | None, int]:
    """(HTTP status or None, error or None, ms) of one POST of the delivery's body."""
    body = record["body"].encode()
    headers = signing.sign(hook.secret, body, timestamp=now // 1000, delivery_id=record["id"])
    for old in hook.secrets(now)[1:]:  # during a rotation's grace: one signature per secret
        headers[signing.SIGNATURE] += "," + signing.sign(old, body, timestamp=now // 1000,
                                                          delivery_id=record["id"])[signing.SIGNATURE]
    headers.update({"User-Agent": USER_AGENT, "Meow-Event": record["type"]})
    s = ctx.settings
    try:
        reply = post_json(hook.url, body, headers, timeout_s=wh.attempt_timeout_s(s),
                          max_bytes=s.webhook_max_response_bytes, allow_private=s.outbound_allow_private)
    except OutboundRefused as refused:
        metrics.WEBHOOK_ATTEMPTS.labels(refused.reason).inc()
        return None, refused.reason, int(ctx.clock() - now)
    result = f"{min(5, max(2, reply.status // 100))}xx"
    metrics.WEBHOOK_ATTEMPTS.labels(result).inc()
    return reply.status, None if 200 <= reply.status < 300 else "status", reply.elapsed_ms


def _finish(ctx: AppContext, owner: str, record: dict[str, Any], status: str, outcome: str,
            error_try: int | None = None, error: str | None = None) -> str:
    """A delivery done with: delivered, or failed (given up, or its endpoint gone or disabled)."""
    if error is not None:
        record["tries"] = [*record.get("tries", []), {"at": ctx.clock(), "status": error_try, "error": error,
                                                        "ms": 0}][-wh.ATTEMPTS_KEPT:]
    record.pop("sending", None)
    record.update(status=status, next_at=None)
    ctx.webhooks.delivery_put(owner, record["id"], orjson.dumps(record))
    metrics.WEBHOOK_DELIVERIES.labels(outcome).inc()
    return outcome
