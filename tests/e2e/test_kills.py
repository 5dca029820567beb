"""Issue 39 item 7: four seeded kills on one supervised stack (`meow run`), one per lane (tables, remote,
arena, hooks): each process SIGKILLed at a seeded moment mid-play and started again by the supervisor,
its work retaken through its lease (tools/kills.py). Outcomes, awaited up to 120 s: every table finished
with a history 1..N that verifies (a doubled move would not replay), the arena finished with no read of
it, every webhook delivery arrived at least once; the recovery time per lane is printed."""
from __future__ import annotations

import pytest

from tools import kills
from tools.stack import supervised_stack

pytestmark = pytest.mark.xdist_group("e2e-kills")


def test_one_kill_per_lane_on_one_stack_and_everything_ends(redis_url: str, node_seed: int,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    with supervised_stack(redis_url, tag="kills", **kills.ENV) as run:
        scene = kills.Scene(run)
        try:
            rnd = scene.start()
            pids = run.children()
            recovered = scene.strike(rnd, kills.seeded(node_seed))
            restarted = {lane: run.children().get(name) not in (None, pids[name]) for lane, name in kills.LANES.items()}
            problems = scene.outcomes(rnd)
        finally:
            scene.close()
    with capsys.disabled():
        print("\nrecovery after a SIGKILL (s): " + ", ".join(
            f"{lane} {recovered[lane]:.1f}" if lane in recovered else f"{lane} (its work was done)"
            for lane in kills.LANES))
    assert all(restarted.values()), restarted
    assert set(recovered) | rnd.idle == set(kills.LANES), (recovered, rnd.idle)
    assert len(recovered) >= 3, recovered  # the round's work outlasts most kills
    assert problems == [], problems
