"""`meow play`'s arguments: what to do (create, join, watch) and where; a bare `meow play` lists
the variants and the open tables of the server instead."""
from __future__ import annotations

import argparse
import asyncio
import json
import sys

from service.tui.session import Plan

DEFAULT_SERVER = "http://127.0.0.1:8000"  # where `make run` serves (PORT's default)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play or watch a table in the terminal (textual), on the public API")
    p.add_argument("--server", default=DEFAULT_SERVER, help=f"the service's URL (default {DEFAULT_SERVER})")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--variant", help="create a table of this variant (GET /v1/variants)")
    mode.add_argument("--join", metavar="GAME", help="take a seat at this table (or return to it with --token)")
    mode.add_argument("--watch", metavar="GAME", help="watch this table as a spectator")
    p.add_argument("--bots", default="", help="with --variant: bot seats by strength, e.g. easy,medium")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="with --variant: a table option (VALUE as JSON, else as text); repeatable")
    p.add_argument("--max-players", type=int, help="with --variant: seats at the table")
    p.add_argument("--no-start", action="store_true", help="with --variant: wait for others; press s to start")
    p.add_argument("--name", default="me", help="your name at the table")
    p.add_argument("--token", help="with --join: the seat token you hold")


def parse_options(pairs: list[str]) -> dict:
    """`hand_size=4`, `bot_delay_ms={"easy":[0,300]}`, `announce_word=Mau` → an options object."""
    out: dict = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"--option wants NAME=VALUE, not {pair!r}")
        try:
            out[name.strip()] = json.loads(raw)
        except ValueError:
            out[name.strip()] = raw
    return out


def plan_of(args: argparse.Namespace) -> Plan:
    return Plan(variant=args.variant, bots=tuple(b for b in args.bots.split(",") if b),
                options=parse_options(args.option), max_players=args.max_players, join=args.join,
                watch=args.watch, token=args.token, name=args.name, start=not args.no_start)


async def lobby_text(server: str) -> str:
    from service.tui import render
    from service.tui.client import MeowClient

    client = MeowClient(server)
    try:
        variants = await client.variants()
        tables = await client.lobby("open") + await client.lobby("running")
    finally:
        await client.close()
    lines = ["variants (meow play --variant NAME --bots easy,medium):"]
    for v in variants:
        lines.append(f"  {v['name']:<22} {v['min_players']}-{v['max_players']} players, "
                     f"bots: {', '.join(v.get('bot_strengths') or [])}")
    lines.append("tables (meow play --join GAME, or --watch GAME):")
    lines += [f"  {t['id']}  {t['variant']:<22} {t['status']:<8} {t['players']}/{t['max_players']}"
              for t in tables] or ["  none"]
    return "\n".join(render.printable(line) for line in lines)  # no terminal escape from the server


def run(args: argparse.Namespace) -> int:
    from service.tui.client import ApiError

    plan = plan_of(args)
    if not (plan.variant or plan.join or plan.watch):
        try:
            print(asyncio.run(lobby_text(args.server)))
        except ApiError as exc:
            from service.tui.render import printable

            print(f"meow play: {printable(str(exc.detail))}", file=sys.stderr)
            return 1
        return 0
    from service.tui.app import play

    seat = asyncio.run(play(args.server, plan))
    if seat and seat.token:
        print(f"table {seat.game}; back to your seat: meow play --server {args.server} "
              f"--join {seat.game} --token {seat.token}")
    if seat and seat.owner:
        print(f"owner token (start, bots, history): {seat.owner}")
    return 0
