"""Record golden histories: `python -m tests.golden.record [preset ...]` (bots-only matches, in memory).

Golden files must replay to identical states forever: re-record only on purpose, never to make
a test pass after a rules change (add an upcaster instead).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.api.conftest import Clock, Table

HERE = Path(__file__).parent
SETUP = {
    "prsi": (3, {"penalty_limit": 50}),
    "mau-mau-classic": (3, {"penalty_limit": 50}),
    "mau-mau-classic-full": (3, {"penalty_limit": 50}),
    "prsi-traditional": (3, {}),
    "sakapuss": (3, {"rounds": 2, "pass_timeout_s": 5, "slap_window_ms": 1000, "max_pass_steps_per_round": 40}),
    "crazy-eights": (3, {"use_special_cards": True, "reshuffle": True, "max_draw_cards": 3, "bot_strength": "medium"}),
}


def play(preset: str) -> dict:
    from service.api.app import create_app
    from service.eventstore.memory import MemoryEventStore
    from service.settings import Settings

    bots, options = SETUP[preset]
    app = create_app(Settings(), store=MemoryEventStore())
    clock = Clock()
    app.extensions["meow.service"].clock = clock
    table = Table(app, clock)
    g = table.create(preset, options)
    for _ in range(bots):
        table.add_bot(g["id"], g["owner_token"])
    table.start(g["id"], g["owner_token"])
    for _ in range(100_000):
        if not table.drain():
            if table.view(g["id"])["status"] == "finished":
                break
            clock.advance(500)
    view = table.view(g["id"])
    assert view["status"] == "finished", view
    history = table.client.get(f"/v1/games/{g['id']}/history", headers={"Authorization": f"Bearer {g['owner_token']}"}).json
    return {"preset": preset, "history": history["events"],
            "expected": {"scores": view["scores"], "standings": view["standings"]}}


def main(presets: list[str]) -> None:
    for preset in presets or ["prsi"]:
        golden = play(preset)
        (HERE / f"{preset}.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        print(f"{preset}: {len(golden['history'])} events")


if __name__ == "__main__":
    main(sys.argv[1:])
