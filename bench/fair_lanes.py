"""Fair lanes beside a trickling bot (issue 37): another key's outcomes while one key's bots trickle.

On the live stack (gunicorn, one `meow worker` with its remote lane, one arena worker, a real Redis),
key A registers two bots that answer every call with their headers one byte every ``--every-s``
seconds (an answer would take minutes; they are never sent away: MEOW_REMOTE_BOT_FAILURES is huge),
seats them at eight Crazy Eights tables (four calls per bot: every remote-lane thread of the default
eight) and enters one in an arena. Then key B registers a prompt bot (examples/remote_bot.py), seats
it at two tables and enters it in an arena of its own. After ``--window-s`` seconds it prints, for
key B: its seats' moves played by its own bot and by defaults, and its arena's games finished; for
key A: calls made to the tricklers and answers they finished. Then, on the same arena worker, key C
runs an arena with a ``hard`` entrant at its default and key D a quick arena (easy bots) of 100
games beside it: after ``--window-s`` it prints the games each finished. Never fails on timing.

    REDIS_URL=redis://127.0.0.1:6379/15 .venv/bin/python bench/fair_lanes.py [--window-s 40] [--every-s 3]
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
import time

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from examples.remote_bot import make_server, random_legal  # noqa: E402
from service.app import api_keys  # noqa: E402
from service.settings import Settings  # noqa: E402
from service.wiring import build_store  # noqa: E402
from tools.stack import live_stack  # noqa: E402
from tools.trickler import Trickler  # noqa: E402

VARIANT = "crazy-eights"
OPTIONS = {"bot_delay_ms": {"easy": [0, 0], "medium": [0, 0]}}
MOVES = {"CardPlayed", "CardDrawn", "TurnPassed"}


def table(s: requests.Session, base: str, key: str, bot_id: str) -> str:
    g = s.post(f"{base}/v1/games", json={"variant": VARIANT, "max_players": 2, "options": OPTIONS}).json()
    owner = {"Authorization": f"Bearer {g['owner_token']}", "Meow-Key": key}
    s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"remote": bot_id}}, headers=owner)
    s.post(f"{base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}}, headers=owner)
    s.post(f"{base}/v1/games/{g['id']}/start", headers=owner)
    return str(g["id"])


def seat_moves(s: requests.Session, base: str, gid: str, seat: int = 0) -> int:
    events = s.get(f"{base}/v1/games/{gid}/events", params={"after": 0}).json().get("events", [])
    return sum(1 for e in events if e.get("seat") == seat and e["type"] in MOVES)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--window-s", type=float, default=40)
    ap.add_argument("--every-s", type=float, default=3.0, help="the tricklers' pace: one header byte this often")
    ap.add_argument("--part", choices=("both", "trickle", "hard"), default="both",
                    help="the trickling bots, the hard arena beside a quick one, or both (in that order, one stack)")
    args = ap.parse_args()
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    tricklers = [Trickler(every_s=args.every_s), Trickler(every_s=args.every_s)]
    holder: dict[str, str] = {}
    server = make_server(lambda: holder.get("secret", ""), 0, random_legal)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    holder2: dict[str, str] = {}
    server2 = make_server(lambda: holder2.get("secret", ""), 0, random_legal)
    threading.Thread(target=server2.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    with live_stack(url, tag="bench-fair", MEOW_OUTBOUND_ALLOW_PRIVATE="1", MEOW_REMOTE_BOT_FAILURES="1000000",
                    MEOW_RATE_LIMITS="off", workers=[[], ["--queues", "arena", "--no-dispatcher"]]) as stack:
        base, s = stack.base, requests.Session()
        store = build_store(Settings(redis_url=url, key_prefix=stack.prefix))
        if args.part in ("both", "trickle"):
            key_a = api_keys.create(store, "trickling", now_ms=int(time.time() * 1000))[1]
            key_b = api_keys.create(store, "patient", now_ms=int(time.time() * 1000))[1]
            slow = [s.post(f"{base}/v1/bots", headers={"Meow-Key": key_a}, json={
                "name": f"trickler {i}", "url": t.url, "games": [VARIANT]}).json()["id"] for i, t in enumerate(tricklers)]
            for bot_id in slow:
                for _ in range(4):
                    table(s, base, key_a, bot_id)
            s.post(f"{base}/v1/arenas", headers={"Meow-Key": key_a}, json={
                "variant": VARIANT, "games": 20, "seats": 2, "entrants": [{"strength": "easy"}, {"remote": slow[0]}]})
            time.sleep(3)  # the tricklers' calls are under way
            good = s.post(f"{base}/v1/bots", headers={"Meow-Key": key_b}, json={
                "name": "patient", "url": f"http://127.0.0.1:{server.server_address[1]}/", "games": [VARIANT]}).json()
            holder["secret"] = good["secret"]
            entrant = s.post(f"{base}/v1/bots", headers={"Meow-Key": key_b}, json={  # the arena's: counted apart
                "name": "entrant", "url": f"http://127.0.0.1:{server2.server_address[1]}/", "games": [VARIANT]}).json()
            holder2["secret"] = entrant["secret"]
            began = time.monotonic()
            games = [table(s, base, key_b, good["id"]) for _ in range(2)]
            arena = s.post(f"{base}/v1/arenas", headers={"Meow-Key": key_b}, json={
                "variant": VARIANT, "games": 100, "seats": 2,
                "entrants": [{"strength": "easy"}, {"remote": entrant["id"]}]}).json()
            time.sleep(max(0.0, args.window_s - (time.monotonic() - began)))
            stats = s.get(f"{base}/v1/bots/{good['id']}", headers={"Meow-Key": key_b}).json()["stats"]
            moved = sum(seat_moves(s, base, g) for g in games)
            done = s.get(f"{base}/v1/arenas/{arena['id']}", headers={"Meow-Key": key_b}).json()["progress"]["done"]
            own = stats["answered"]
            print(f"key B beside key A's two trickling bots (a header byte every {args.every_s:g} s), "
                  f"{args.window_s:g} s window:")
            print(f"  B's two tables: its bot's seat moved {moved} times: {own} by its own bot, {moved - own} by "
                  f"defaults (its calls failed: {stats['failures']})")
            print(f"  B's arena: games finished {done} of 100")
            print(f"  A's tricklers: calls made {sum(t.accepted for t in tricklers)}, answers finished "
                  f"{sum(t.finished for t in tricklers)}")
            for k in (key_a, key_b):
                for arena_id in [a["id"] for a in s.get(f"{base}/v1/arenas", headers={"Meow-Key": k}).json().get("arenas", [])]:
                    s.post(f"{base}/v1/arenas/{arena_id}/cancel", headers={"Meow-Key": k})
            time.sleep(3)  # the cancelled arenas' games stop
        if args.part in ("both", "hard"):
            key_c = api_keys.create(store, "hard", now_ms=int(time.time() * 1000))[1]
            key_d = api_keys.create(store, "quick", now_ms=int(time.time() * 1000))[1]
            two = {"variant": "prsi-traditional", "options": {"announce_grace_ms": 0}, "seats": 2}
            hard = s.post(f"{base}/v1/arenas", headers={"Meow-Key": key_c}, json={
                **two, "games": 100, "entrants": [{"strength": "hard"}, {"strength": "easy"}]}).json()
            quick = s.post(f"{base}/v1/arenas", headers={"Meow-Key": key_d}, json={
                **two, "games": 100, "entrants": [{"strength": "easy"}, {"strength": "easy"}]}).json()
            time.sleep(args.window_s)
            done_c = s.get(f"{base}/v1/arenas/{hard['id']}", headers={"Meow-Key": key_c}).json()["progress"]["done"]
            done_d = s.get(f"{base}/v1/arenas/{quick['id']}", headers={"Meow-Key": key_d}).json()["progress"]["done"]
            print(f"one arena worker, {args.window_s:g} s: key C's arena with a hard entrant finished {done_c} of 100 "
                  f"games, key D's quick arena beside it {done_d} of 100")
            for k, a in ((key_c, hard), (key_d, quick)):
                s.post(f"{base}/v1/arenas/{a['id']}/cancel", headers={"Meow-Key": k})
    for t in tricklers:
        t.close()
    for srv in (server, server2):
        srv.shutdown()
        srv.server_close()


if __name__ == "__main__":
    main()
