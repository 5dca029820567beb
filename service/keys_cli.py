"""`meow keys create|list|rotate|revoke`: the operator's API keys (service/app/api_keys.py), straight
in the store of REDIS_URL, or with none set the store of the `meow run` running from this folder
(service/run_file.py) — the same as /v1/admin/keys, without the admin token: whoever can reach the
store is the operator. A secret is printed once, by create and rotate."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

QUOTAS = ("creates_per_minute", "writes_per_minute", "reads_per_minute", "cost_per_minute", "max_streams")


def add_parser(sub: argparse._SubParsersAction) -> None:
    k = sub.add_parser("keys", help="API keys for integrators: create, list, rotate, revoke (docs/integrators.md)")
    ks = k.add_subparsers(dest="keys_cmd", required=True)
    c = ks.add_parser("create", help="a new key; prints its secret once")
    c.add_argument("name", help="a label for the key (e.g. the integrator's name)")
    for q in QUOTAS:
        c.add_argument(f"--{q.replace('_', '-')}", dest=q, type=int, metavar="N",
                       help=f"this key's own quota (default: MEOW_KEY_{q.upper()})")
    ks.add_parser("list", help="every key (never a secret)")
    r = ks.add_parser("rotate", help="a new secret for a key; prints it once (the old one stops at once)")
    r.add_argument("key_id")
    v = ks.add_parser("revoke", help="refuse a key from now on (its tables play on)")
    v.add_argument("key_id")
    for p in (k, c, r, v):
        p.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace, store: Any = None, settings: Any = None) -> int:
    from service.app import api_keys
    from service.app.errors import AppError
    from service.settings import Settings

    settings = settings or Settings.from_env()
    if store is None:
        from service.wiring import build_service

        store = build_service(settings).api_keys
    now = int(time.time() * 1000)
    as_json = getattr(args, "json", False)
    try:
        if args.keys_cmd == "create":
            quotas = api_keys.Quotas(**{q: getattr(args, q) for q in QUOTAS})
            if any(v is not None and v < 1 for v in (getattr(args, q) for q in QUOTAS)):
                print("a quota is at least 1", file=sys.stderr)
                return 2
            key, secret = api_keys.create(store, args.name, now_ms=now, quotas=quotas, cap=settings.max_api_keys)
            _show(key, secret, as_json)
        elif args.keys_cmd == "list":
            keys = api_keys.all_keys(store)
            if as_json:
                print(json.dumps([k.public() for k in keys]))
            for key in [] if as_json else keys:
                state = "active" if key.active else "revoked"
                own = ", ".join(f"{q}={v}" for q, v in key.public()["quotas"].items() if v is not None) or "default quotas"
                print(f"{key.id}  {state:7}  {key.name}  ({own})")
        elif args.keys_cmd == "rotate":
            key, secret = api_keys.rotate(store, args.key_id, now_ms=now)
            _show(key, secret, as_json)
        else:
            _show(api_keys.revoke(store, args.key_id, now_ms=now), None, as_json)
    except api_keys.TooManyKeys as exc:
        print(f"not created: {exc} (MEOW_MAX_API_KEYS)", file=sys.stderr)
        return 1
    except AppError as exc:
        print(f"{args.key_id}: {exc.detail}", file=sys.stderr)
        return 1
    return 0


def _show(key: Any, secret: str | None, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"key": key.public(), **({"secret": secret} if secret else {})}))
        return
    print(f"{key.id}  {'active' if key.active else 'revoked'}  {key.name}")
    if secret:
        print(f"secret (shown once; send it as 'Meow-Key: <secret>'): {secret}")
