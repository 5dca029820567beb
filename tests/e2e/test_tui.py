"""`meow play` against the live stack (gunicorn + a real worker + Redis), driven by textual's own
harness: keys pressed through the UI, the screen read back from its widgets."""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
import requests
from textual.widgets import Static

from service.games import registry
from service.tui import render
from service.tui.app import TableApp
from service.tui.client import MeowClient
from service.tui.session import Plan
from tests.e2e.conftest import Stack

# a short single-round Prší match: the bot answers at once, the match ends with the round
QUICK = {"bot_delay_ms": {"easy": [0, 50]}, "announce_grace_ms": 0, "hand_size": 4,
         "match_end_mode": "single_round", "round_intermission_s": 0}
SIZE = (140, 45)


async def until(pilot, cond: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.05)


def text(app: TableApp, widget: str) -> str:
    return str(app.query_one(f"#{widget}", Static).content)


async def choose_a_legal_action(pilot, app: TableApp, by_arrows: bool) -> None:
    """As a person would: a playable card by its number (or the arrow keys) and Enter, or `+` where
    it may announce (so the announcement never costs a second question), then a choice if the card
    still offers several (a suit); else a free action's key."""
    playable = [i for i, card in enumerate(app.hand) if render.actions_for(app.game, card, app.legal)]
    if playable:
        target = playable[0]
        if by_arrows or target > 8:
            while app.selected != target:
                await pilot.press("right")
        else:
            await pilot.press(str(target + 1))
        assert app.selected == target
        saying = render.split_by_flags(app.game, render.actions_for(app.game, app.hand[target], app.legal))[1]
        await pilot.press("plus" if saying else "enter")  # `+`: the play that announces, in one key
        if app.choosing:
            assert not saying or all(a.get("announce") for a in app.choosing)  # asked only the rest (a suit)
            await pilot.press("1")
        return
    key, action = next(iter(app.keys.items()))
    assert action in app.legal
    await pilot.press(key)


def test_a_prsi_round_against_an_easy_bot_played_with_keys(stack: Stack) -> None:
    async def scenario() -> None:
        client = MeowClient(stack.base)
        app = TableApp(client, Plan(variant="prsi", bots=("easy",), options=QUICK, name="ann"))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.view.get("status") in ("running", "finished"), "the deal")
            assert "ann (you)" in text(app, "seats") and "bot easy" in text(app, "seats")
            moves, kinds = 0, set()
            while app.view.get("status") != "finished":
                await until(pilot, lambda: app.legal or app.view.get("status") == "finished", "my turn")
                if app.view.get("status") == "finished":
                    break
                assert "your turn" in text(app, "turn")
                version = app.view["version"]
                kinds |= {a["type"] for a in app.legal}
                await choose_a_legal_action(pilot, app, by_arrows=moves % 2 == 1)
                await until(pilot, lambda: app.view["version"] > version or app.message, "the move")  # noqa: B023 - awaited here
                assert not app.message, app.message  # the server refused nothing the UI offered
                moves += 1
                assert moves < 200
            await until(pilot, lambda: app.feed.over, "the end of the feed")
            # the feed ended at the event the catalogue names (the API's and the web page's end too)
            ends = {e["name"]: e["end_event"] for e in requests.get(f"{stack.base}/v1/variants", timeout=10).json()["variants"]}
            assert app.feed.end_event == ends["prsi"] and app.feed.end_event
            print(f"{moves} moves, {kinds}, {app.seen[0]}..{app.seen[-1]}")
            assert moves >= 1 and "play" in kinds
            scores, summary, standings = text(app, "scores"), text(app, "table"), app.view["standings"]
            assert "total" in scores and summary.startswith("Game over")  # the match's end, told
            first = next(row for row in standings if row["rank"] == 1)
            said = "you win" if first["seat"] == app.me else f"{first['name']} wins"  # your own win: "you win"
            assert f": {said}" in summary.splitlines()[0], summary
            for row in standings:
                assert f"{row['rank']}. {row['name']} — {row['total']}" in summary
            assert text(app, "turn") == "the match is over"
            # every event once, in order, from the version first fetched to the end of the match
            assert app.seen == list(range(app.seen[0], app.seen[-1] + 1))
            assert app.seen[-1] == app.view["version"]
        await client.close()

    asyncio.run(scenario())


class Cutter:
    """A TCP relay in front of the API whose connections the test can cut mid-stream."""

    def __init__(self, port: int) -> None:
        self.port, self.server, self.writers = port, None, []

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _serve(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writers += [writer, up_writer]

        async def pump(src, dst) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    def cut(self) -> None:
        for w in self.writers:
            w.transport.abort()
        self.writers = []

    async def stop(self) -> None:
        self.server.close()
        self.cut()
        await self.server.wait_closed()
        await asyncio.sleep(0.1)  # the relays see their sockets go and end


def _bots_only_table(stack: Stack) -> str:
    s = requests.Session()
    options = dict(QUICK, hand_size=7, bot_delay_ms={"easy": [150, 300]})
    g = s.post(f"{stack.base}/v1/games", json={"variant": "prsi", "options": options}).json()
    owner = {"Authorization": f"Bearer {g['owner_token']}"}
    for _ in range(2):
        assert s.post(f"{stack.base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}},
                      headers=owner).status_code == 201
    assert s.post(f"{stack.base}/v1/games/{g['id']}/start", headers=owner).status_code == 200
    return g["id"]


def test_a_spectator_sees_the_table_move_and_resumes_after_a_dropped_connection(stack: Stack) -> None:
    gid = _bots_only_table(stack)

    async def scenario() -> None:
        cutter = Cutter(int(stack.base.rsplit(":", 1)[1]))
        client = MeowClient(await cutter.start())
        app = TableApp(client, Plan(watch=gid))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: len(app.seen) >= 3, "the first events")
            first = app.view["version"]
            assert text(app, "hand") == "watching: no hand" and "you: spectator" in text(app, "title")
            assert not app.keys  # a spectator has nothing to press
            cutter.cut()  # the open stream dies mid-match
            seen_at_cut = len(app.seen)
            await until(pilot, lambda: app.feed.connections >= 2 and len(app.seen) >= seen_at_cut + 3,
                        "events after the reconnect")
            await until(pilot, lambda: app.view["version"] >= app.feed.last_id, "the view to catch up")
            assert app.view["version"] > first
            assert f"v{app.view['version']}" in text(app, "title")  # drawn, not only fetched
            # resumed from Last-Event-ID: no event lost or repeated across the cut
            assert app.seen == list(range(app.seen[0], app.seen[-1] + 1))
            assert app.feed.repeated == 0
            counts = [row["hand_count"] for row in app.view["seats"]]
            assert all(f"{c} cards" in text(app, "seats") for c in counts)
        await client.close()
        await cutter.stop()

    asyncio.run(scenario())


def test_a_missing_table_shows_the_servers_detail(stack: Stack) -> None:
    async def scenario() -> None:
        client = MeowClient(stack.base)
        app = TableApp(client, Plan(watch="0123456789abcdef"))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.message, "the error")
            assert "(not_found)" in text(app, "status")
        await client.close()

    asyncio.run(scenario())


def test_the_owner_starts_with_a_key_and_a_joiner_is_dealt_in(stack: Stack) -> None:
    async def scenario() -> None:
        client = MeowClient(stack.base)
        app = TableApp(client, Plan(variant="prsi", bots=("easy",), options=QUICK, start=False))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.view.get("status") == "open", "the open table")
            assert text(app, "turn") == "waiting to start: 2 seated"
            assert app.keys == {"s": {"type": "start"}}
            assert "[s] start the game" in str(app.query_one("#actions").children[0].label)
            gid = app.view["id"]
            joiner = MeowClient(stack.base)  # someone else joins the open table through the API
            seat = await joiner.take_seat(gid, None, name="bea")
            await joiner.close()
            await until(pilot, lambda: len(app.view["seats"]) == 3, "the joiner on screen")
            assert f"{seat['seat']}: bea · " in text(app, "seats")
            await pilot.press("s")
            await until(pilot, lambda: app.view.get("status") == "running", "the deal")
            assert len(app.hand) == QUICK["hand_size"] and "your hand:" in str(text(app, "hand"))
            assert not app.message
        await client.close()

    asyncio.run(scenario())


def test_joining_a_table_by_id_takes_a_seat(stack: Stack) -> None:
    s = requests.Session()
    g = s.post(f"{stack.base}/v1/games", json={"variant": "prsi", "options": QUICK}).json()
    owner = {"Authorization": f"Bearer {g['owner_token']}"}
    assert s.post(f"{stack.base}/v1/games/{g['id']}/seats", json={"bot": {"strength": "easy"}},
                  headers=owner).status_code == 201

    async def scenario() -> None:
        client = MeowClient(stack.base)
        app = TableApp(client, Plan(join=g["id"], name="cy"))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.view.get("you"), "the seat")
            assert app.seat.token and app.me == 1 and "1: cy (you)" in text(app, "seats")
            assert not app.keys  # not the owner: nothing to start
            assert s.post(f"{stack.base}/v1/games/{g['id']}/start", headers=owner).status_code == 200
            await until(pilot, lambda: app.view.get("status") == "running", "the deal, live")
            await until(pilot, lambda: len(app.hand) == QUICK["hand_size"], "the hand")
        await client.close()

    asyncio.run(scenario())


def test_a_bare_meow_play_lists_the_variants_and_the_tables(stack: Stack) -> None:
    import subprocess
    import sys

    gid = requests.post(f"{stack.base}/v1/games", json={"variant": "sakapuss", "options": {}}).json()["id"]
    out = subprocess.run([sys.executable, "-m", "service.cli", "play", "--server", stack.base],
                         capture_output=True, text=True, timeout=60, env=stack.env, check=False)
    assert out.returncode == 0, out.stderr
    for v in requests.get(f"{stack.base}/v1/variants").json()["variants"]:
        assert f"  {v['name']} " in out.stdout
    assert f"  {gid}  sakapuss" in out.stdout


def test_a_sakapuss_pass_step_by_keys(stack: Stack) -> None:
    """The same screen plays another game: pass a cat with its number and Enter, see the step
    resolve (nothing in the client knows Sakapuss)."""
    async def scenario() -> None:
        client = MeowClient(stack.base)
        app = TableApp(client, Plan(variant="sakapuss", bots=("easy", "easy")))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: any(a["type"] == "pass_card" for a in app.legal), "the passing step")
            step = app.view["table"]["step"]
            assert text(app, "turn").lower().startswith("everyone")  # the game's words for a step everyone plays at once
            card = next(i for i, c in enumerate(app.hand) if render.actions_for(app.game, c, app.legal))
            await pilot.press(str(card + 1), "enter")
            # (a step is null between steps, e.g. while a slap race runs: wait for a later one)
            await until(pilot, lambda: isinstance(now := (app.view.get("table") or {}).get("step"), int) and now > step,
                        "the step resolving")
            assert not app.message, app.message
            assert f"({app.view['table']['step']})" in text(app, "turn").replace("step ", "")  # the turn line names the step
            assert f"{app.game.field_label('pass_log')}: " in str(text(app, "hand"))  # the game's words for it
        await client.close()

    asyncio.run(scenario())


VARIANTS = registry.variants_catalog()


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v["name"])
def test_every_variant_in_the_registry_plays_by_keys(stack: Stack, variant: dict) -> None:
    """Each variant the service offers (a game added later included, with no change here): a
    table with the fewest easy bots, two actions chosen through the UI (by number, by arrows), each accepted."""
    names = {o["name"] for o in variant["options"]}
    options = {"bot_delay_ms": {"easy": [0, 50]}} if "bot_delay_ms" in names else {}
    bots = ("easy",) * max(1, variant["min_players"] - 1)

    async def scenario() -> None:
        client = MeowClient(stack.base)
        app = TableApp(client, Plan(variant=variant["name"], bots=bots, options=options))
        async with app.run_test(size=SIZE) as pilot:
            for move in range(2):
                await until(pilot, lambda: app.legal or app.message, f"something to do ({move})")
                assert not app.message, app.message
                version = app.view["version"]
                await choose_a_legal_action(pilot, app, by_arrows=move == 1)
                await until(pilot, lambda: app.view["version"] > version or app.message, "the move")  # noqa: B023 - awaited here
                assert not app.message, app.message
            assert variant["name"] in text(app, "title")
        await client.close()

    asyncio.run(scenario())
