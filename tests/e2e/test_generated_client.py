"""A client generated from the OpenAPI spec (openapi-python-client) plays a Prší match to its end.

The client is generated at test time from the spec the code produces (`meow openapi`), so the
test tracks the code: if the spec stops describing what the service does, or the generator can no
longer read it, this fails. Only the generated functions (by operationId) and model classes talk
to the service; nothing here sends raw HTTP. The play loop never looks inside free-form dicts: a
legal action goes back to the server as `Action.from_dict(legal.to_dict())` (or as it is, when the
spec types `legal_actions` items as `Action`), and Idempotency-Key / If-Match go as the generated
functions' own arguments once the spec declares those headers, as client headers before.
"""
from __future__ import annotations

import importlib
import inspect
import os
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, get_args, get_type_hints

import openapi_python_client  # noqa: F401 - the dev extra: fails loudly when missing
import pytest

from tests.e2e.conftest import ROOT, Stack

CONFIG = Path(__file__).with_name("openapi_client_config.yaml")
PACKAGE = "meow_generated_client"
# Short and fast: one round, bots without think time, no announce grace, no intermission.
FAST = {"match_end_mode": "single_round", "bot_delay_ms": {"easy": [0, 0]}, "announce_grace_ms": 0,
        "round_intermission_s": 0}
MAX_STEPS = 2000
MAX_SECONDS = 90.0


def _live_spec() -> str:
    """The spec as `meow openapi` prints it for the code in this checkout."""
    out = subprocess.run([sys.executable, "-m", "service.cli", "openapi"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, PYTHONPATH=ROOT), check=False)
    assert out.returncode == 0, f"`meow openapi` failed:\n{out.stderr}"
    return out.stdout


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated client package, imported from a tmp dir (and forgotten afterwards)."""
    root = tmp_path_factory.mktemp("generated_client")
    spec = root / "openapi.yaml"
    spec.write_text(_live_spec(), encoding="utf-8")
    gen = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec),
                          "--config", str(CONFIG), "--meta", "none", "--output-path", str(root / PACKAGE)],
                         cwd=root, capture_output=True, text=True, timeout=120, check=False)
    log = gen.stdout + gen.stderr
    assert gen.returncode == 0, f"openapi-python-client failed on the spec:\n{log}"
    # The generator still exits 0 when it skips an endpoint or a schema it cannot express.
    assert "Warning" not in log and "Unable to" not in log, f"openapi-python-client warned:\n{log}"
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _mod(api: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{api.__name__}.{name}")


def _guarded(body_type: Any, legal: Any, version: int) -> tuple[Any, dict[str, str]]:
    """A legal action as `act`'s body model, guarded by the version it was chosen at.

    legal_actions items go back through to_dict()/from_dict(), so this works whether the spec
    gives them a free-form object schema or the Action schema itself (then they are reused).
    """
    members = get_args(body_type) or (body_type,)
    action = legal if isinstance(legal, members) else _as_request(members, legal.to_dict())
    if "expected_version" in {f.name for f in type(action).__attrs_attrs__}:
        action.expected_version = version
        return action, {}
    return action, {"If-Match": f'"{version}"'}


def _as_request(members: tuple[Any, ...], data: dict[str, Any]) -> Any:
    """The request model (one per action type: the spec's `Action` is a oneOf) that takes ``data``."""
    for model in members:
        try:
            return model.from_dict(data)
        except (KeyError, ValueError, TypeError):
            continue
    raise AssertionError(f"no request model of act takes {data}")


# Request headers the API takes, by the keyword a generated function has for them once the spec
# declares them as header parameters.
HEADER_PARAMS = {"Idempotency-Key": "idempotency_key", "If-Match": "if_match"}


def _send(op: ModuleType, *args: Any, client: Any, fresh: Any, headers: dict[str, str], **kwargs: Any) -> Any:
    """op.sync_detailed with these request headers: as its own keyword arguments where the spec
    declares them, else (a spec without them) on a one-off client, `fresh()` + with_headers (on a
    client already in use, with_headers would also change that client's headers)."""
    params = inspect.signature(op.sync_detailed).parameters
    extra = {}
    for header, value in headers.items():
        if HEADER_PARAMS[header] in params:
            kwargs[HEADER_PARAMS[header]] = value
        else:
            extra[header] = value
    if not extra:
        return op.sync_detailed(*args, client=client, **kwargs)
    with fresh().with_headers(extra) as one_off:
        return op.sync_detailed(*args, client=one_off, **kwargs)


def test_committed_spec_is_the_live_spec() -> None:
    committed = (Path(ROOT) / "openapi.yaml").read_text(encoding="utf-8")
    assert committed == _live_spec(), "openapi.yaml differs from `meow openapi`: regenerate it (make openapi)"


def test_generated_client_plays_prsi_to_the_end(api: ModuleType, stack: Stack) -> None:
    started = time.monotonic()
    client_mod = _mod(api, "client")
    types = _mod(api, "types")
    m = _mod(api, "models")
    games = {op: _mod(api, f"api.games.{op}") for op in (
        "list_variants", "create_game", "take_seat", "start_game", "get_game", "act", "list_events",
        "get_history")}
    Unset = types.Unset
    act_body = get_type_hints(games["act"].sync_detailed)["body"]  # the model (or union) `act` takes
    create_body = get_type_hints(games["create_game"].sync_detailed)["body"]  # one model per game (a union)
    # the view: one model per game (`GameView` is their oneOf by variant), or one model
    views = tuple(getattr(m, n) for n in dir(m) if n.endswith("GameView") and isinstance(getattr(m, n), type))
    assert views, "no view model"

    def anonymous() -> Any:
        return client_mod.Client(base_url=stack.base, raise_on_unexpected_status=True)

    def authed(token: str) -> Any:
        return client_mod.AuthenticatedClient(base_url=stack.base, token=token, raise_on_unexpected_status=True)

    anon = anonymous()

    # listVariants: prsi exists and its option schema has what FAST sets.
    r = games["list_variants"].sync_detailed(client=anon)
    assert r.status_code == 200 and isinstance(r.parsed, m.Variants), r.content
    variants = [v.to_dict() for v in r.parsed.variants]  # to_dict: whether items are typed or free-form
    prsi = next((v for v in variants if v["name"] == "prsi"), None)
    assert prsi is not None, [v["name"] for v in variants]
    option_names = {o["name"] for o in prsi["options"]}
    assert set(FAST) <= option_names, set(FAST) - option_names
    assert "easy" in prsi["bot_strengths"]

    # createGame (anonymous; an anonymous create's Idempotency-Key must be strong: a UUID).
    # the model of the variant's game: the others refuse "prsi" (each pins `variant` to its game's)
    body = _as_request(get_args(create_body) or (create_body,),
                       {"variant": "prsi", "options": FAST, "max_players": 2, "name": "gen"})
    assert body.variant == "prsi"
    r = _send(games["create_game"], client=anon, fresh=anonymous, headers={"Idempotency-Key": str(uuid.uuid4())},
              body=body)
    assert r.status_code == 201 and isinstance(r.parsed, m.Created), r.content
    created = r.parsed
    assert isinstance(created.id, str) and created.id and isinstance(created.owner_token, str)
    assert isinstance(created.version, int)
    gid = created.id
    owner = authed(created.owner_token)

    # takeSeat: the owner's own human seat, then an easy bot.
    r = games["take_seat"].sync_detailed(gid, client=owner, body=m.HumanSeat(name="ann"))
    assert r.status_code == 201 and isinstance(r.parsed, m.SeatTaken), r.content
    assert isinstance(r.parsed.token, str) and r.parsed.token
    my_seat, my_token = r.parsed.seat, r.parsed.token
    me = authed(my_token)
    r = games["take_seat"].sync_detailed(gid, client=owner, body=m.BotSeat.from_dict({"bot": {"strength": "easy"}}))
    assert r.status_code == 201 and isinstance(r.parsed, m.SeatTaken), r.content
    bot_seat = r.parsed.seat
    assert bot_seat != my_seat

    # startGame.
    r = games["start_game"].sync_detailed(gid, client=owner)
    assert r.status_code == 200 and isinstance(r.parsed, m.WriteResult), r.content
    assert isinstance(r.parsed.version, int) and r.parsed.version > created.version
    if not isinstance(r.parsed.game, Unset):
        assert r.parsed.game.status == "running", r.parsed.game.status

    rng = random.Random(7)
    deadline = started + MAX_SECONDS
    steps = conflicts = mine = throttled = 0
    view = None
    while steps < MAX_STEPS and time.monotonic() < deadline:
        steps += 1
        r = games["get_game"].sync_detailed(gid, client=me)
        assert r.status_code == 200 and isinstance(r.parsed, views), r.content
        view = r.parsed
        if view.status == "finished":
            break
        assert view.status == "running", view.status
        assert not isinstance(view.you, Unset), "a seat token's view has no `you`"
        assert view.you.seat == my_seat
        legal = list(view.you.legal_actions)
        if not legal:  # the bot's turn, or the scoring job: wait for the next event
            r = games["list_events"].sync_detailed(gid, client=me, after=view.version, wait=5)
            if r.status_code == 429 and isinstance(r.parsed, m.Problem) and r.parsed.code == "rate_limited":
                # Stream slots are given back in batches (~0.2-0.4 s after a long-poll ends), so a
                # client that long-polls one after another, faster than that, can hit the cap of 8.
                throttled += 1
                time.sleep(0.3)
                continue
            assert r.status_code == 200 and isinstance(r.parsed, m.EventsPage), r.content
            continue
        action, headers = _guarded(act_body, rng.choice(legal), view.version)
        r = _send(games["act"], gid, client=me, fresh=lambda: authed(my_token),
                  headers={"Idempotency-Key": uuid.uuid4().hex, **headers}, body=action)
        if r.status_code in (409, 412) and isinstance(r.parsed, m.Problem):
            # The table moved on between our read and our write (the bot played): read again.
            assert r.parsed.code in ("version_conflict", "not_your_turn"), r.content
            conflicts += 1
            continue
        assert r.status_code == 200 and isinstance(r.parsed, m.WriteResult), (action.to_dict(), r.content)
        assert r.parsed.version > view.version and r.parsed.replayed in (False, types.UNSET)
        # events are models (one EventOut, or a model per event type): typed seq, type_ and seat
        assert r.parsed.events and all(isinstance(e.seq, int) and e.seq > view.version for e in r.parsed.events)
        mine += 1
    else:
        pytest.fail(f"the match did not finish within {MAX_STEPS} steps / {MAX_SECONDS:.0f} s: "
                    f"{steps} steps, {mine} actions of ours, {conflicts} conflicts, {throttled} throttled "
                    f"long-polls, last view "
                    f"{view.to_dict() if view is not None else None}")

    assert view is not None and view.status == "finished"
    assert mine > 0, "we never acted"
    assert isinstance(view.standings, list) and view.standings, view.to_dict()
    assert {s.seat for s in view.seats} == {my_seat, bot_seat}
    assert isinstance(view.end_reason, str) and view.end_reason

    # getHistory: a player may read the finished game's log; the bot moved, the log is gapless.
    r = games["get_history"].sync_detailed(gid, client=me)
    assert r.status_code == 200 and isinstance(r.parsed, m.History), r.content
    seqs = [e.seq for e in r.parsed.events]
    assert seqs == list(range(1, len(seqs) + 1))
    assert any(e.seat == bot_seat and e.type_ in ("CardPlayed", "CardDrawn") for e in r.parsed.events)
    assert r.parsed.events[-1].type_ == "SeedsRevealed"
    assert time.monotonic() - started < MAX_SECONDS
