"""Record golden histories: `python -m tests.golden.record preset ...` (bots-only matches, in memory).

Golden files must replay to identical states forever: re-record only on purpose, never to make
a test pass after a rules change (add an upcaster instead).

A preset's setup comes from its golden file when it has one (the options its ``CreateMatch``
recorded that differ from the preset's defaults, and its bot seats), so nothing here names a game;
a new preset is recorded with ``--bots N --options JSON`` (default: 3 bots, the preset's defaults).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from service.games import registry
from tests.api.conftest import Clock, Table

HERE = Path(__file__).parent


def recorded_setup(preset: str) -> tuple[int, dict[str, Any]] | None:
    """(bot seats, options that differ from the preset's defaults) of the preset's golden file."""
    path = HERE / f"{preset}.json"
    if not path.exists():
        return None
    history = json.loads(path.read_text())["history"]
    options = history[0]["command"]["options"]
    defaults = registry.preset_defaults(preset)
    bots = sum(1 for e in history if e["type"] == "SeatJoined")
    return bots, {k: v for k, v in options.items() if defaults.get(k) != v}


def play(preset: str, bots: int, options: dict[str, Any]) -> dict:
    from service.api.app import create_app
    from service.eventstore.memory import MemoryEventStore
    from service.settings import Settings

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("presets", nargs="+", choices=sorted(registry.BY_VARIANT))
    ap.add_argument("--bots", type=int, help="bot seats of a preset without a golden file (default 3)")
    ap.add_argument("--options", type=json.loads, help="option overrides of a preset without a golden file")
    args = ap.parse_args()
    for preset in args.presets:
        bots, options = recorded_setup(preset) or (args.bots or 3, args.options or {})
        golden = play(preset, bots, options)
        (HERE / f"{preset}.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        print(f"{preset}: {len(golden['history'])} events")


if __name__ == "__main__":
    main()
