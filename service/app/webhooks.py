"""Webhooks (docs/integrators.md "Webhooks"): an API key subscribes URLs to event types; each event
of its tables that a subscription names becomes a delivery, signed (service/outbound/signing.py),
sent by the workers on their own lane (service/app/webhook_jobs.py), retried with backoff, and kept
in the key's bounded delivery log, which the key reads and may ask to replay.

An endpoint's secret is stored as it is (the service signs with it) and is shown only in the answer
that creates or rotates it, never in a list, a log line or a delivery record. A delivery's body is
made once, from the spectator's projection of the event (service/app/redaction.py), and sent byte
for byte the same on every attempt and replay.
"""
from __future__ import annotations

import dataclasses
import hashlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from service.app import api_keys, credentials, table_meta
from service.app.codes import AppCode
from service.app.context import AppContext
from service.app.errors import AppError, not_found
from service.app.idempotency import Precondition
from service.app.redaction import Viewer, project_event, rfc3339
from service.app.table_meta import Meta
from service.eventstore.contract import SHARDS, FollowUp
from service.eventstore.versioned import CONFLICT, MISSING, OK, Changed
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Event
from service.integrations.webhooks.jobs import hook_fan_out, hook_send
from service.outbound.http import OutboundRefused, check_url
from service.settings import Settings

EVENT_TYPES: tuple[str, ...] = ("match.started", "round.scored", "match.ended", "seat.joined", "seat.left",
                                "turn.timed_out", "arena.finished")
"""What a key may subscribe to; ``arena.finished`` is sent by arenas (their own ``deliver`` call)."""
TABLE_EVENTS: Mapping[str, str] = {"SeatJoined": "seat.joined", "SeatLeft": "seat.left", "RoundScored": "round.scored",
                                   "MatchEnded": "match.ended", "TimedOut": "turn.timed_out"}
"""The table events (service/games/kernel/events.py) every game writes, by the webhook type they are."""
MATCH_STARTS = "RoundStarted"  # its first round's start is the match's (``match.started``)
SECRET_PREFIX = "whsec_"
HOOK_ID_PREFIX = "wh_"
DELIVERY_PREFIX = "dlv_"
DESCRIPTION_MAX = 200
ATTEMPTS_KEPT = 5  # a delivery record keeps its last few attempts


def hook_type(event: Event) -> str | None:
    """The webhook type of a stored table event, or None when no webhook names it."""
    if event.type == MATCH_STARTS:
        return "match.started" if event.data.get("round") == 1 else None
    return TABLE_EVENTS.get(event.type)


def hooked(events: Sequence[Event]) -> bool:
    """Whether any of an append's events is one a webhook may name (cheap: the write path asks)."""
    return any(e.type in TABLE_EVENTS or (e.type == MATCH_STARTS and e.data.get("round") == 1) for e in events)


def fan_out_followup(ctx: AppContext, game_id: str, events: Sequence[Event],
                     tokens: Mapping[str, bytes] | None = None) -> list[FollowUp]:
    """The write path's one addition: a due job that turns the append's events into deliveries on
    the hooks lane, written atomically with them (nothing lost between append and enqueue). None when
    no event is one a webhook names, or the table is no key's (anonymous: nothing to deliver); the job
    finds out itself whether the key subscribed. ``tokens``: what the append writes beside the events
    (a new table's key is among them)."""
    if not events or not hooked(events):
        return []
    created = (tokens or {}).get(OWNER_FIELD)
    owner = created.decode() if isinstance(created, bytes) else created if created else owner_of(ctx, game_id)
    if owner is None:
        return []
    return [hook_fan_out(game_id, events[0].seq, events[-1].seq, events[-1].at, owner=owner)]


OWNER_FIELD = table_meta.field(Meta.KEY)  # the token-hash field naming a table's key (contract K)
OWNERS_CACHED = 4096


def owner_of(ctx: AppContext, game_id: str) -> str | None:
    """The key that created the table (``api_keys.table_key``), cached per process: it is written
    with the table's first events and never changes, so the write path reads it once per table at most."""
    cache: OrderedDict[str, str | None] | None = getattr(ctx, "_table_keys", None)
    if cache is None:
        cache = OrderedDict()
        ctx._table_keys = cache  # type: ignore[attr-defined]
    if game_id in cache:
        cache.move_to_end(game_id)
        return cache[game_id]
    owner = api_keys.table_key(ctx, game_id)
    cache[game_id] = owner
    if len(cache) > OWNERS_CACHED:
        cache.popitem(last=False)
    return owner


# ---------------------------------------------------------------------- endpoints
@dataclass(frozen=True, slots=True)
class Hook:
    """One subscribed endpoint as stored (its secret included: never shown but by create/rotate)."""

    id: str
    url: str
    events: tuple[str, ...]
    created_at: int
    secret: str
    description: str = ""
    rotated_at: int | None = None
    previous_secret: str | None = None  # still signed with until ``previous_until`` (ms)
    previous_until: int | None = None
    version: int = 0  # one more with each change (created: 1; service/app/credentials.py)

    def encode(self) -> bytes:
        return orjson.dumps({"id": self.id, "url": self.url, "events": list(self.events), "created_at": self.created_at,
                             "secret": self.secret, "description": self.description, "rotated_at": self.rotated_at,
                             "previous_secret": self.previous_secret, "previous_until": self.previous_until,
                             "version": self.version})

    @classmethod
    def decode(cls, raw: bytes) -> Hook:
        d = orjson.loads(raw)
        return cls(d["id"], d["url"], tuple(d["events"]), int(d["created_at"]), d["secret"], d.get("description", ""),
                   d.get("rotated_at"), d.get("previous_secret"), d.get("previous_until"), int(d.get("version") or 0))

    def secrets(self, now: int) -> list[str]:
        """The secrets a delivery is signed with now: the current one, and the previous one during
        the grace after a rotation (a receiver still holding it keeps verifying)."""
        keep = self.previous_secret and self.previous_until is not None and now < self.previous_until
        return [self.secret, self.previous_secret] if keep and self.previous_secret else [self.secret]


def public(hook: Hook, health: Mapping[str, int], secret: bool = False) -> dict[str, Any]:
    """An endpoint as its key sees it; the secret only when ``secret`` (create, rotate)."""
    disabled = health.get("disabled_at")
    out: dict[str, Any] = {
        "id": hook.id, "url": hook.url, "events": list(hook.events), "description": hook.description,
        "created_at": rfc3339(hook.created_at), "rotated_at": rfc3339(hook.rotated_at) if hook.rotated_at else None,
        "enabled": not disabled, "failing_since": rfc3339(health["failing_since"]) if health.get("failing_since") else None,
        "failed_deliveries": int(health.get("failed", 0)), "notice": None, "version": hook.version,
    }
    if disabled:
        out["notice"] = {"code": "endpoint_disabled", "at": rfc3339(disabled),
                         "detail": f"disabled after {int(health.get('failed', 0))} deliveries in a row were given up; "
                                   "fix the endpoint, then enable it again (POST .../enable)"}
    if secret:
        out["secret"] = hook.secret
    return out


def _new_secret(ctx: AppContext) -> str:
    return SECRET_PREFIX + ctx.random_bytes(24).hex()


def _checked(ctx: AppContext, url: str, events: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    try:
        check_url(url, allow_private=ctx.settings.outbound_allow_private)  # resolved, as a bot's URL is
    except OutboundRefused as refused:
        raise AppError(AppCode.WEBHOOK_URL_REFUSED, f"this URL cannot be a webhook ({refused.reason})",
                       reason=refused.reason) from None
    unknown = sorted(set(events) - set(EVENT_TYPES))
    if unknown or not events:
        raise AppError(KernelCode.INVALID_REQUEST, f"events must name at least one of {', '.join(EVENT_TYPES)}")
    return url, tuple(t for t in EVENT_TYPES if t in set(events))


def create(ctx: AppContext, owner: str, url: str, events: Sequence[str], description: str = "") -> dict[str, Any]:
    """A new endpoint of ``owner``, its secret shown this once; ``webhook_limit`` beyond the cap."""
    url, kinds = _checked(ctx, url, events)
    hook = Hook(HOOK_ID_PREFIX + ctx.random_bytes(6).hex(), url, kinds, ctx.clock(), _new_secret(ctx),
                description.strip()[:DESCRIPTION_MAX], version=1)
    if not ctx.webhooks.hook_create(owner, hook.id, hook.encode(), cap=ctx.settings.webhooks_per_key,
                                    entry=credentials.entry(hook.created_at, "created", 1, owner),
                                    keep=credentials.LOG_KEEP):
        raise AppError(AppCode.WEBHOOK_LIMIT, f"a key has at most {ctx.settings.webhooks_per_key} webhooks; "
                                              "delete one first", limit=ctx.settings.webhooks_per_key)
    return public(hook, {}, secret=True)


def get(ctx: AppContext, owner: str, hook_id: str) -> Hook:
    raw = ctx.webhooks.hook_get(owner, hook_id) if hook_id.startswith(HOOK_ID_PREFIX) else None
    if raw is None:
        raise not_found("webhook")
    return Hook.decode(raw)


def list_hooks(ctx: AppContext, owner: str) -> list[dict[str, Any]]:
    """The owner's endpoints, oldest first, without their secrets."""
    hooks = sorted((Hook.decode(raw) for raw in ctx.webhooks.hook_all(owner).values()), key=lambda h: (h.created_at, h.id))
    return [public(h, ctx.webhooks.hook_health(owner, h.id)) for h in hooks]


def _changed(done: Changed, pre: Precondition | None) -> None:
    """Refuse a change the store did not make: the endpoint is gone (404) or moved on (409/412)."""
    if done.status == CONFLICT and done.record is not None:
        raise credentials.conflict("webhook", Hook.decode(done.record).version, pre)
    if done.status != OK:
        raise not_found("webhook")


def delete(ctx: AppContext, owner: str, hook_id: str, pre: Precondition | None = None) -> dict[str, Any]:
    """The endpoint goes, for good (as it was, answered); deliveries still due to it are dropped when
    their turn comes. Needs only that it exists (or, with ``pre``, that it is at that version)."""
    for _ in range(credentials.RETRIES):
        hook = get(ctx, owner, hook_id)
        credentials.expect("webhook", hook.version, pre)
        health = ctx.webhooks.hook_health(owner, hook_id)
        done = ctx.webhooks.hook_change(owner, hook_id, hook.version, None,
                                        credentials.entry(ctx.clock(), "deleted", hook.version + 1, owner),
                                        credentials.LOG_KEEP)
        if done.status == OK:
            return public(hook, health)
        if done.status == MISSING:
            raise not_found("webhook")
    raise credentials.conflict("webhook", get(ctx, owner, hook_id).version, pre)


def rotate(ctx: AppContext, owner: str, hook_id: str, pre: Precondition | None = None) -> dict[str, Any]:
    """A new secret, shown this once; the old one still signs deliveries for the grace period. By
    compare-and-set on the version read (or ``pre``): of concurrent rotations one succeeds."""
    hook = get(ctx, owner, hook_id)
    credentials.expect("webhook", hook.version, pre)
    now = ctx.clock()
    new = dataclasses.replace(hook, secret=_new_secret(ctx), rotated_at=now, previous_secret=hook.secret,
                              previous_until=now + ctx.settings.webhook_rotate_grace_s * 1000, version=hook.version + 1)
    _changed(ctx.webhooks.hook_change(owner, hook_id, hook.version, new.encode(),
                                      credentials.entry(now, "rotated", new.version, owner), credentials.LOG_KEEP), pre)
    return public(new, ctx.webhooks.hook_health(owner, hook_id), secret=True)


HEALTH_CLEARED = {"disabled_at": 0, "failed": 0, "streak": 0, "hold_until": 0, "failing_since": 0}


def enable(ctx: AppContext, owner: str, hook_id: str, pre: Precondition | None = None) -> dict[str, Any]:
    """A disabled endpoint back in service, its failures forgotten (a change of its version, logged);
    an enabled one only has its failures forgotten."""
    hook = get(ctx, owner, hook_id)
    credentials.expect("webhook", hook.version, pre)
    if not ctx.webhooks.hook_health(owner, hook_id).get("disabled_at"):
        ctx.webhooks.hook_health_set(owner, hook_id, HEALTH_CLEARED)
        return public(hook, ctx.webhooks.hook_health(owner, hook_id))
    new = dataclasses.replace(hook, version=hook.version + 1)
    _changed(ctx.webhooks.hook_change(owner, hook_id, hook.version, new.encode(),
                                      credentials.entry(ctx.clock(), "enabled", new.version, owner),
                                      credentials.LOG_KEEP, health=HEALTH_CLEARED), pre)
    return public(new, ctx.webhooks.hook_health(owner, hook_id))


def disable(ctx: AppContext, owner: str, hook_id: str, now: int, by: str = credentials.DELIVERIES) -> bool:
    """Disable an enabled endpoint (after deliveries given up in a row): a change of its version,
    logged, made against the state it needs (enabled), read again if another change came first.
    Whether this call disabled it (False: gone, or disabled already)."""
    for _ in range(credentials.RETRIES):
        raw = ctx.webhooks.hook_get(owner, hook_id)
        if raw is None or ctx.webhooks.hook_health(owner, hook_id).get("disabled_at"):
            return False
        hook = Hook.decode(raw)
        new = dataclasses.replace(hook, version=hook.version + 1)
        done = ctx.webhooks.hook_change(owner, hook_id, hook.version, new.encode(),
                                        credentials.entry(now, "disabled", new.version, by), credentials.LOG_KEEP,
                                        health={"disabled_at": now})
        if done.status != CONFLICT:
            return done.status == OK
    return False


def audit_log(ctx: AppContext, owner: str, hook_id: str) -> list[dict[str, Any]]:
    """The endpoint's audit log, newest first; a deleted endpoint's while it is kept (``LOG_TTL_S``);
    another key's, or none: not found."""
    raws = ctx.webhooks.hook_log(owner, hook_id, credentials.LOG_KEEP) if hook_id.startswith(HOOK_ID_PREFIX) else []
    if not raws:
        get(ctx, owner, hook_id)  # an endpoint created before the logs: an empty log
    return credentials.log(raws)


# ---------------------------------------------------------------------- deliveries
def delivery_id(hook_id: str, dedup: str) -> str:
    """Deterministic: the same event to the same endpoint is one delivery however often it is made."""
    return DELIVERY_PREFIX + hashlib.sha256(f"{hook_id}/{dedup}".encode()).hexdigest()[:24]


JOB_MARGIN_S = 2.0
"""How much longer an attempt's job may run than its outbound call (signing, reading and writing its
record): the call's own deadline always fires before the job could be taken for dead."""


def attempt_timeout_s(settings: Settings) -> float:
    """One attempt's total outbound deadline: ``webhook_timeout_s``, bounded so that it and the margin
    fit in the lease of the attempt's due job (a job still within its lease is never run twice)."""
    return max(0.1, min(settings.webhook_timeout_s, settings.lease_ms / 1000 - JOB_MARGIN_S))


def job_timeout_s(settings: Settings) -> float:
    """An attempt's job timeout: its outbound deadline plus the margin."""
    return attempt_timeout_s(settings) + JOB_MARGIN_S


def send_followup(ctx: AppContext, owner: str, record: Mapping[str, Any], attempt: int, at: int,
                  tag: str = "") -> FollowUp:
    """The due job of one attempt of a delivery (``tag``: another job for the same attempt), with
    its job timeout."""
    did = str(record["id"])
    route = str(record.get("route") or "")
    if route[:1] not in SHARDS:
        route = did[len(DELIVERY_PREFIX)]  # the due set of a shard (any: the delivery id's own hex)
    return hook_send(did, route, owner, attempt, at, tag, timeout_s=job_timeout_s(ctx.settings))


def deliver(ctx: AppContext, owner: str, kind: str, data: Mapping[str, Any], *, dedup: str, route: str,
            at: int, hooks: Sequence[Hook] | None = None) -> list[str]:
    """Deliveries of one event of ``kind`` to each of ``owner``'s enabled endpoints that subscribed
    to it: ``data`` (already what a spectator may see) joins the id, type and time in the body.
    Idempotent by ``dedup`` (a re-run makes no second delivery, and schedules a lost first attempt
    again). ``route``: a game id (its shard's due set), or any id. Each first attempt is a due job of
    its own, due at ``at`` (nothing is sent here). The ids of the deliveries whose first attempt is due."""
    assert kind in EVENT_TYPES, kind
    due: list[str] = []
    for hook in hooks if hooks is not None else enabled_hooks(ctx, owner):
        if kind not in hook.events:
            continue
        did = delivery_id(hook.id, dedup)
        body = orjson.dumps({"id": did, "type": kind, "created_at": rfc3339(at), **data})
        record = {"id": did, "hook": hook.id, "type": kind, "route": route, "created_at": at, "status": "pending",
                  "attempts": 0, "window_from": at, "next_at": at, "tries": [], "body": body.decode()}
        if not ctx.webhooks.delivery_add(owner, did, orjson.dumps(record), keep=ctx.settings.webhook_log_size):
            raw = ctx.webhooks.delivery_get(owner, did)  # made before (a re-run): its first attempt may be lost
            record = orjson.loads(raw) if raw is not None else {}
            if record.get("status") != "pending" or record.get("attempts") != 0:
                continue
        ctx.due_queue.schedule(send_followup(ctx, owner, record, 0, at))
        due.append(did)
    return due


def enabled_hooks(ctx: AppContext, owner: str) -> list[Hook]:
    hooks = [Hook.decode(raw) for raw in ctx.webhooks.hook_all(owner).values()]
    return [h for h in hooks if not ctx.webhooks.hook_health(owner, h.id).get("disabled_at")]


def table_event_data(game_id: str, variant: str, event: Event) -> dict[str, Any]:
    """A table event's body: the game and the event as a spectator sees it (the redaction layer)."""
    return {"game": {"id": game_id, "variant": variant, "version": event.seq},
            "event": project_event(event, Viewer())}


def public_delivery(record: Mapping[str, Any]) -> dict[str, Any]:
    """A delivery as the log shows it (its body, which the key's receiver got, included)."""
    return {"id": record["id"], "webhook": record["hook"], "type": record["type"],
            "status": record["status"], "created_at": rfc3339(int(record["created_at"])),
            "attempts": int(record["attempts"]) + (1 if record["status"] != "pending" or record.get("sending") else 0),
            "next_attempt_at": rfc3339(int(record["next_at"])) if record["status"] == "pending" else None,
            "tries": [dict(t, at=rfc3339(int(t["at"]))) for t in record.get("tries", [])],
            "body": orjson.loads(record["body"])}


def log_page(ctx: AppContext, owner: str, before: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None]:
    """A page of the key's delivery log, newest first, and the cursor of the next (None at the end)."""
    rows = ctx.webhooks.delivery_page(owner, before, limit)
    page = [public_delivery(orjson.loads(raw)) for _, raw in rows]
    return page, (rows[-1][0] if len(rows) == limit and rows[-1][0] > 1 else None)


def replay(ctx: AppContext, owner: str, did: str) -> dict[str, Any]:
    """Send a logged delivery again, byte for byte, under its id (a receiver that has it drops it);
    one still pending is on its way already and is left as it is."""
    raw = ctx.webhooks.delivery_get(owner, did) if did.startswith(DELIVERY_PREFIX) else None
    if raw is None:
        raise not_found("delivery")
    record = orjson.loads(raw)
    if record["status"] != "pending":
        now = ctx.clock()
        attempt = int(record["attempts"]) + 1
        record.update(status="pending", attempts=attempt, window_from=now, next_at=now)
        if not ctx.webhooks.delivery_put(owner, did, orjson.dumps(record)):
            raise not_found("delivery")
        ctx.due_queue.schedule(send_followup(ctx, owner, record, attempt, now, tag="-r"))
    return public_delivery(record)
