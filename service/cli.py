"""The `meow` console script: run (API + worker + embedded Redis), worker, verify, compact, archive,
cluster-init, openapi, play, keys."""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from service.games.kernel.due import Lane
from service.supervisor import Child, Supervisor

if TYPE_CHECKING:
    from service.settings import Settings

STORE_COMMANDS = ("keys", "worker", "compact", "archive")
"""Commands that work on the service's store: with no REDIS_URL they use the running `meow run`'s
(service/run_file.py)."""


def main(argv: list[str] | None = None) -> int:
    """``meow``: a setting it cannot start with (service/settings.py ``SettingsError``) ends it with
    status 2 and a one-line message, not a traceback."""
    from service.settings import SettingsError

    try:
        return _main(argv)
    except SettingsError as exc:
        print(f"meow: cannot start: {exc}", file=sys.stderr, flush=True)
        return 2


def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="meow")
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="start Redis (embedded if REDIS_URL is unset), gunicorn and one worker")
    r.add_argument("--host", help="the address to listen on (default MEOW_HOST, else 127.0.0.1: this machine "
                                  "only; 0.0.0.0 for every interface, as in a container)")
    r.add_argument("--port", type=int, help="the port to listen on (default PORT, else 8000)")
    w = sub.add_parser("worker", help="an RQ worker with the follow-up dispatcher")
    w.add_argument("--burst", action="store_true")
    lanes = ",".join(Lane)
    w.add_argument("--queues", default=lanes,
                   help=f"lanes to take work from, in priority order: {Lane.FAST} (scoring, deals, timers, easy "
                        f"and medium bots), {Lane.SEARCH} (hard bots), {Lane.HOOKS} (webhook deliveries), "
                        f"{Lane.REMOTE} (remote bots' calls, on threads of their own) and arena (arena games, one "
                        f"whole game a job: docs/arenas.md; only when named); default {lanes}")
    w.add_argument("--no-dispatcher", action="store_true", help="do not run the due-set dispatcher in this worker")
    from service.verifier.cli import add_arguments as add_verify

    add_verify(sub.add_parser("verify", help="check a finished game's history (file or URL) independently"))
    ci = sub.add_parser("cluster-init", help="form a Redis Cluster of fresh nodes: primaries and their replicas "
                                             "(docker-compose.cluster.yml)")
    ci.add_argument("nodes", nargs="+", metavar="HOST:PORT",
                    help="the primaries first, then their replicas (the first replica for the first primary, ...)")
    ci.add_argument("--replicas", type=int, default=0, metavar="R",
                    help="replicas per primary: of N nodes, the first N/(1+R) are primaries (default 0)")
    c = sub.add_parser("compact", help="compact finished games whose match ended MEOW_COMPACT_AFTER seconds ago "
                                       "(the job the end of a match schedules does it too)")
    c.add_argument("--older-than", type=int, metavar="SECONDS", help="instead of MEOW_COMPACT_AFTER")
    a = sub.add_parser("archive", help="export finished games' histories as NDJSON that `meow verify` accepts; "
                                       "--evict removes each from Redis once its file verified")
    a.add_argument("--out", required=True, metavar="DIR", help="where <game id>.ndjson files go")
    a.add_argument("--game", action="append", default=[], metavar="ID", help="this game only (repeatable); "
                                                                              "default: every finished game")
    a.add_argument("--older-than", type=int, default=0, metavar="SECONDS",
                   help="only games whose match ended at least this long ago")
    a.add_argument("--evict", action="store_true", help="delete each verified game from Redis (it answers 404)")
    o = sub.add_parser("openapi", help="print the OpenAPI spec (YAML)")
    o.add_argument("--check", metavar="FILE", help="exit 1 if FILE differs from the generated spec")
    from service.tui.cli import add_parser as add_play

    add_play(sub)
    from service.keys_cli import add_parser as add_keys

    add_keys(sub)
    args = parser.parse_args(argv)
    if args.cmd in STORE_COMMANDS:
        from service import run_file

        run_file.adopt(os.environ)  # beside a running `meow run`: its store, prefix and queues
        if not os.environ.get("REDIS_URL"):
            print(f"meow {args.cmd}: {run_file.missing(os.environ)}", file=sys.stderr, flush=True)
            return 2
    if args.cmd == "play":
        from service.tui.cli import run as play

        return play(args)
    if args.cmd == "run":
        return run(host=args.host, port=args.port)
    if args.cmd == "keys":
        from service.keys_cli import run as keys_main

        return keys_main(args)
    if args.cmd == "verify":
        from service.verifier.cli import main as verify_main

        return verify_main(args.source, args.token, replay=not args.independent, as_json=args.json, head=args.head)
    if args.cmd == "cluster-init":
        from service.embedded_cluster import init_cluster

        print(init_cluster(args.nodes, replicas=args.replicas))
        return 0
    if args.cmd == "compact":
        return compact(args.older_than)
    if args.cmd == "archive":
        return archive(args.out, args.game, args.older_than, args.evict)
    if args.cmd == "worker":
        from workers.main import run_worker

        run_worker(burst=args.burst, lanes=tuple(q for q in args.queues.split(",") if q),
                   dispatch=not args.no_dispatcher)
        return 0
    return openapi(args.check)


def compact(older_than: int | None) -> int:
    from service.app import compaction
    from service.settings import Settings
    from service.wiring import build_service

    counts = compaction.sweep(build_service(Settings.from_env()), older_than)
    print(", ".join(f"{n} {what}" for what, n in sorted(counts.items())) or "nothing to compact")
    return 0


def archive(out_dir: str, games: list[str], older_than: int, evict: bool) -> int:
    """Export, verify and (with --evict) evict finished games; exit 1 if any file did not verify."""
    from service.app import compaction
    from service.app.errors import AppError
    from service.settings import Settings
    from service.wiring import build_service

    svc = build_service(Settings.from_env())
    os.makedirs(out_dir, exist_ok=True)
    if not games:
        horizon = svc.clock() - older_than * 1000
        games = [row["id"] for row in compaction.finished_games(svc)
                 if not older_than or compaction.finished_at(svc, row["id"], int(row["version"])) <= horizon]
    failed = 0
    for gid in games:
        try:
            done = compaction.archive(svc, gid, out_dir, evict)
        except AppError as exc:
            print(f"{gid}: not archived: {exc.code}: {exc.detail}", file=sys.stderr)
            failed += 1
            continue
        if not done.verified:
            print(f"{gid}: {done.path} did not verify ({done.detail}); kept in Redis", file=sys.stderr)
            failed += 1
            continue
        print(f"{gid}: {done.events} events -> {done.path}, verified" + (", evicted" if done.evicted else ""))
    return 1 if failed else 0


def openapi_yaml() -> str:
    from service.api.app import create_app
    from service.api.docs_page import spec_yaml
    from service.settings import Settings

    app = create_app(Settings(redis_url=None))
    return spec_yaml(app.extensions["meow.api"].spec)


def openapi(check: str | None) -> int:
    text = openapi_yaml()
    if check:
        with open(check, encoding="utf-8") as fh:
            if fh.read() != text:
                print(f"{check} is stale: regenerate it with `meow openapi > {check}`", file=sys.stderr)
                return 1
        return 0
    sys.stdout.write(text)
    return 0


def raise_open_files_limit() -> None:
    """Open streams are sockets: let the API processes (children inherit it) open as many as allowed."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def _loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def run(host: str | None = None, port: int | None = None) -> int:
    """The launcher: owns every process it starts, starts again any that dies (service/supervisor.py)
    and stops them all on Ctrl-C. It listens on 127.0.0.1 unless MEOW_HOST or ``host`` says otherwise;
    a port already taken, or a process that keeps stopping, ends it with status 1 and says why."""
    from dataclasses import replace

    from service import run_file
    from service.embedded_redis import EmbeddedRedis
    from service.listen import bind_address, browse_host, port_in_use
    from service.settings import Settings
    from service.web.page import page_url

    settings = Settings.from_env()
    settings = replace(settings, host=host or settings.host, port=settings.port if port is None else port)
    why = port_in_use(settings.host, settings.port)
    if why:
        print(f"meow: cannot start: {why}; stop what holds it or choose another with --port (or PORT)",
              file=sys.stderr, flush=True)
        return 1
    print("meow: starting… (the address to play at follows once the API answers)", flush=True)
    env = dict(os.environ, MEOW_HOST=settings.host, PORT=str(settings.port))
    redis_server = None
    if not settings.redis_url:
        redis_server = EmbeddedRedis.start(data_dir=os.path.join(settings.data_dir, "redis"), aof=True,
                                           own_session=True)
        env["REDIS_URL"] = redis_server.url
        print(f"meow: embedded Redis on {redis_server.url} (data and AOF in {settings.data_dir}/redis)", flush=True)
    metrics_dir = os.path.abspath(os.path.join(settings.data_dir, "metrics"))
    shutil.rmtree(metrics_dir, ignore_errors=True)
    os.makedirs(metrics_dir)
    env.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
    raise_open_files_limit()
    shown = browse_host(settings.host)
    api = f"http://{shown}:{settings.port}"
    sup = Supervisor(_children(settings), env, redis_server,
                     on_change=lambda: run_file.write(settings.data_dir, env, api, children=sup.pids()))
    signal.signal(signal.SIGINT, sup.stop)
    signal.signal(signal.SIGTERM, sup.stop)
    status = 0
    try:
        sup.start()
        written = run_file.path(settings.data_dir)
        _announce_when_ready(f"http://{shown}:{settings.port}/readyz", f"meow: play in the browser at "
                             f"{page_url(settings.port, shown)}", lambda: sup.stopping)
        print(f"meow: listening on {bind_address(settings.host, settings.port)} (MEOW_HOST / --host)", flush=True)
        if not _loopback(settings.host):
            print("meow: reachable beyond this machine with gunicorn alone: on the internet put the bundled nginx in "
                  "front, it holds slow clients and floods of connections the API's own guards only just hold "
                  "(deploy/nginx/meow.conf; docs/scaling.md, \"nginx in front of meow run\")", flush=True)
        print(f"meow: API on {api}/v1 ({settings.web_workers} {settings.web_worker_class} "
              f"processes), {settings.fast_workers} fast + {settings.search_workers} search + {settings.hook_workers} "
              f"webhook + {settings.arena_workers} arena worker(s), each started again if it stops; "
              "Ctrl-C stops everything", flush=True)
        print(f"meow: `meow keys`, `meow worker`, `meow compact` and `meow archive` run from this folder (or with this "
              f"MEOW_DATA_DIR) use this service: its settings are in {written} while it runs", flush=True)
        status = sup.watch()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not cut the stop short
        sup.shutdown()
        run_file.remove(settings.data_dir)
        print("meow: stopped", flush=True)
    return status


def _announce_when_ready(readyz: str, line: str, stopping: Callable[[], bool], wait_s: float = 0.25,
                         note_after_s: float = 60.0) -> threading.Thread:
    """Print ``line`` (the address to play at) once ``readyz`` answers 200, never before: a thread, so
    the supervisor watches its children meanwhile. After ``note_after_s`` without an answer it says it
    still waits, once."""
    import urllib.error
    import urllib.request

    def wait() -> None:
        started, noted = time.monotonic(), False
        while not stopping():
            try:
                with urllib.request.urlopen(readyz, timeout=2) as answer:  # our own loopback URL
                    if answer.status == 200:
                        print(line, flush=True)
                        return
            except (urllib.error.URLError, OSError, ValueError):
                pass  # not listening yet, or not ready (503): ask again
            if not noted and time.monotonic() - started > note_after_s:
                print(f"meow: the API does not answer {readyz} yet; still waiting", flush=True)
                noted = True
            time.sleep(wait_s)

    thread = threading.Thread(target=wait, name="announce", daemon=True)
    thread.start()
    return thread


def _children(settings: Settings) -> list[Child]:
    """The API and the workers `meow run` starts (docs/architecture.md, "Fair workers")."""
    from service.listen import bind_address

    def worker(queues: str, *extra: str) -> list[str]:
        return [sys.executable, "-m", "service.cli", "worker", "--queues", queues, *extra]

    out = [Child("the API", [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf",
                             "--bind", bind_address(settings.host, settings.port), "--access-logfile", "-",
                             "service.api.app:create_app()"], role="api")]
    # the first fast worker also serves remote bots' calls (on threads)
    out += [Child(f"fast worker {i + 1}", worker(f"{Lane.FAST},{Lane.REMOTE}" if not i else Lane.FAST))
            for i in range(settings.fast_workers)]
    out += [Child(f"search worker {i + 1}", worker(f"{Lane.SEARCH},{Lane.FAST}", "--no-dispatcher"))
            for i in range(settings.search_workers)]
    out += [Child(f"webhook worker {i + 1}", worker(Lane.HOOKS, "--no-dispatcher")) for i in range(settings.hook_workers)]
    out += [Child(f"arena worker {i + 1}", worker("arena", "--no-dispatcher")) for i in range(settings.arena_workers)]
    return out


if __name__ == "__main__":
    sys.exit(main())
