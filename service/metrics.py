"""Prometheus metrics. With PROMETHEUS_MULTIPROC_DIR set (the launcher and compose set it),
every gunicorn worker and `meow worker` writes to it and /metrics aggregates them."""
from __future__ import annotations

import os
import threading
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest

REQUESTS = Counter("meow_http_requests_total", "HTTP requests", ["method", "route", "status"])
LATENCY = Histogram("meow_http_request_seconds", "HTTP request latency", ["method", "route"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
APPENDS = Counter("meow_appends_total", "Append attempts by outcome", ["outcome"])
UNREPLICATED = Counter("meow_writes_unreplicated_total", "Writes answered without waiting for a replica: "
                       "their primary had none connected (MEOW_WAIT_REPLICAS; docs/reliability.md)")
FOLLOWUPS = Counter("meow_followups_total", "Follow-up jobs served", ["kind", "outcome"])
KEY_REQUESTS = Counter("meow_key_requests_total", "Requests made with an API key, by key id (docs/integrators.md)",
                       ["key", "kind", "outcome"])
OTHER_KEYS = "other"  # the label of the keys beyond a process's cap on key labels
_KEY_LABELS: set[str] = set()  # key ids that have their own label in this process (capped)
_KEY_LOCK = threading.Lock()
# webhooks (service/app/webhook_jobs.py): outcome in webhook_jobs.OUTCOMES, result in webhook_jobs.RESULTS
WEBHOOK_DELIVERIES = Counter("meow_webhook_deliveries_total", "Webhook deliveries by outcome", ["outcome"])
WEBHOOK_ATTEMPTS = Counter("meow_webhook_attempts_total", "Webhook delivery attempts by result", ["result"])
WEBHOOK_LATENCY = Histogram("meow_webhook_delivery_seconds", "From the event to its delivery's success",
                            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600))


def exposition() -> tuple[bytes, str]:
    """The text exposition, aggregated over processes when running multi-process."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    from prometheus_client import REGISTRY

    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    REQUESTS.labels(method, route, str(status)).inc()
    LATENCY.labels(method, route).observe(seconds)


def key_outcome(status: int) -> str:
    """ok (2xx, 3xx), limited (429), refused (other 4xx), error (5xx)."""
    if status == 429:
        return "limited"
    return "ok" if status < 400 else "refused" if status < 500 else "error"


def observe_key(key_id: str, kind: str, status: int, cap: int) -> None:
    """One answer to a request made with an existing, active key (only those are counted): its
    own label for the first ``cap`` key ids this process sees, ``other`` beyond. The label set is
    bounded by the keys the operator created (settings.max_api_keys) and by ``cap`` per process,
    times 4 kinds x 4 outcomes."""
    with _KEY_LOCK:
        if key_id not in _KEY_LABELS:
            if len(_KEY_LABELS) >= cap:
                key_id = OTHER_KEYS
            else:
                _KEY_LABELS.add(key_id)
    KEY_REQUESTS.labels(key_id, kind, key_outcome(status)).inc()


def child_exit(server: Any, worker: Any) -> None:
    """gunicorn hook: drop a dead worker's live gauges (none yet; kept for multi-process hygiene)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
