"""Record the golden history of the ``uno`` preset as printed (rules version 4, issue 42 item 9).

`python -m tests.golden.record_uno_printed` plays bots-only 10-seat ``uno`` matches to 100 points
(in memory, seeds and ids from a counter) until one holds both printed rules: a reshuffle that keeps
the top card on the table (``StockReshuffled.kept``) and a hand that ends on a draw two or wild draw
four whose cards the next player still draws. It is written to uno-printed.json; like every golden
it must replay (and verify) identically forever.
"""
from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

from tests.api.conftest import Clock, Table

HERE = Path(__file__).parent
OUT = HERE / "uno-printed.json"
OPTIONS = {"target_points": 100, "round_intermission_s": 0}
SEATS = 10


def printed_cases(events: list[dict]) -> tuple[bool, bool]:
    """(a reshuffle kept the top card, a hand ended on a +2/+4 whose cards were still drawn)."""
    kept = any(e["type"] == "StockReshuffled" and e["data"].get("kept") for e in events)
    went_out = any(a["type"] == "CardPlayed" and a["data"]["hand_size"] == 0
                   and a["data"]["card"].split(":")[0] in ("wild_draw_4",) + tuple(f"{c}-draw_2" for c in "RGBY")
                   and b["type"] == "CardDrawn" and b["data"]["reason"] == "penalty"
                   for a, b in itertools.pairwise(events))
    return kept, went_out


def attempt(seed: int) -> dict | None:
    from service.api.app import create_app
    from service.eventstore.memory import MemoryEventStore
    from service.settings import Settings

    counter = iter(range(10**9))
    fake = lambda n=32: hashlib.sha256(f"golden-uno/{seed}/{next(counter)}".encode()).digest()[:n]  # noqa: E731
    app = create_app(Settings(), store=MemoryEventStore())
    clock = Clock()
    app.extensions["meow.service"].clock = clock
    app.extensions["meow.service"].random_bytes = fake
    t = Table(app, clock)
    g = t.create("uno", OPTIONS, max_players=SEATS)
    for _ in range(SEATS):
        t.add_bot(g["id"], g["owner_token"])
    if t.view(g["id"])["status"] == "open":
        t.start(g["id"], g["owner_token"])
    for _ in range(100_000):
        if not t.drain():
            if t.view(g["id"])["status"] == "finished":
                break
            clock.advance(500)
    view = t.view(g["id"])
    history = t.client.get(f"/v1/games/{g['id']}/history", headers={"Authorization": f"Bearer {g['owner_token']}"}).json
    if view["status"] != "finished" or not all(printed_cases(history["events"])):
        return None
    return {"preset": "uno", "history": history["events"],
            "expected": {"scores": view["scores"], "standings": view["standings"]}}


def main() -> None:
    for seed in range(200):
        golden = attempt(seed)
        if golden:
            OUT.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
            print(f"seed {seed}: {len(golden['history'])} events -> {OUT.name}")
            return
    raise SystemExit("no seed reached both printed rules")


if __name__ == "__main__":
    main()
