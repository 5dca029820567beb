"""Every cross-layer string has one owner (issue 27): the timer keys, the follow-up kinds, lanes and
job ids, the end-of-match event, and the games' own event types. Each family is read from its owner
module; the scan fails when code outside that owner spells one of its strings instead of asking the
owner, and the planted tests below show it failing."""
from __future__ import annotations

import ast
import dataclasses
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from service.app import followups
from service.games import registry
from service.games.kernel import absence, due, events, spec, turn_timer
from service.integrations.players.jobs import players_job
from service.integrations.quickplay.jobs import quickplay_job
from service.integrations.remote_bots.jobs import health_check
from service.integrations.webhooks.jobs import hook_fan_out, hook_send
from service.wiring import integrations

ROOT = Path(__file__).resolve().parents[1]
SCANNED = [p for d in ("service", "workers", "bench", "tools") for p in (ROOT / d).rglob("*.py")]
# the clients are drawn from data by their own issue-27 work, with their own guard; the verifier is
# independent of the engine on purpose (docs/audit.md) and reads the record's event types
CLIENTS = ("service/tui/", "service/web/")
VERIFIER = ("service/verifier/",)


def owner_of(module: ModuleType) -> str:
    return str(Path(module.__file__ or "").relative_to(ROOT))


# ------------------------------------------------------------------ the families, from their owners

def _key_prefix(key: str, *parts: int) -> str:
    """The fixed head of a key the owner built from ``parts`` (``absent-`` of ``absent-1-2``)."""
    tail = "-" + "-".join(map(str, parts))
    assert key.endswith(tail), key
    return key[: -len(tail)] + "-"


ABSENCE_PREFIX = _key_prefix(absence.absence_key(1, 2), 1, 2)
TURN_PREFIX = _key_prefix(turn_timer.turn_key(SimpleNamespace(round_no=1, rnd=SimpleNamespace(turn_id=2))), 1, 2)
# the integrations' kinds come from the registry (service/app/plugins.py): each is owned by the module
# that declares it (its enum's module), which also builds its job ids
PLUGGED = integrations()
PLUGGED_KIND_OWNERS = {str(k): owner_of(sys.modules[type(k).__module__]) for k in PLUGGED.jobs}
KINDS = frozenset(k.value for k in due.Kind) | frozenset(PLUGGED_KIND_OWNERS)
LANES = frozenset(lane.value for lane in due.Lane) | frozenset(PLUGGED.lane_names)
JOB_PREFIXES = frozenset({f"{k}-" for k in KINDS} | {f"{followups.BOT_MOVE}-"})
SEAT_KINDS = frozenset(spec.SEAT_KINDS["enum"])  # "bot" is also a seat's kind: a seat's ``.kind`` may say it
GAME_EVENTS = frozenset(t for g in registry.GAMES for t in g.event_types) - frozenset(events.TABLE_EVENTS)


@dataclasses.dataclass(frozen=True)
class Code:
    """A module's syntax tree, walked once: its nodes and the string constants of its code."""

    nodes: tuple[ast.AST, ...]
    strings: tuple[ast.Constant, ...]  # not docstrings

    @classmethod
    def parse(cls, text: str) -> Code:
        nodes = tuple(ast.walk(ast.parse(text)))
        docs = {id(n.body[0].value) for n in nodes
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        return cls(nodes, tuple(n for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)
                                and id(n) not in docs))


@dataclasses.dataclass(frozen=True)
class Family:
    name: str
    owner: str  # the one module that may spell it
    find: Callable[[Code], Iterator[str]]  # what a module's code spells of it
    skip: tuple[str, ...] = ()  # other places it does not apply to
    also: tuple[str, ...] = ()  # other owners (the integrations' modules that own some of its strings)


def _prefixed(prefixes: frozenset[str]) -> Callable[[Code], Iterator[str]]:
    """A string (or the head of an f-string) that starts a key or an id by hand."""
    def find(code: Code) -> Iterator[str]:
        for n in code.strings:
            hit = next((p for p in prefixes if n.value.startswith(p)), None)
            if hit is not None:
                yield f"line {n.lineno}: {n.value!r} spells {hit!r}"
    return find


def _literal(n: ast.AST, words: frozenset[str]) -> str | None:
    return n.value if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in words else None


def _literals(n: ast.AST, words: frozenset[str]) -> list[str]:
    if isinstance(n, (ast.Tuple, ast.List, ast.Set)):
        return [w for e in n.elts if (w := _literal(e, words))]
    w = _literal(n, words)
    return [w] if w else []


def _names_field(n: ast.AST, fields: tuple[str, ...]) -> tuple[str, str] | None:
    """(field, how) when ``n`` reads a kind/lane: ``kind``, ``x.kind``, ``x["kind"]``, ``x.get("kind")``."""
    if isinstance(n, ast.Name) and n.id in fields:
        return n.id, "name"
    if isinstance(n, ast.Attribute) and n.attr in fields:
        return n.attr, "attribute"
    if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and n.slice.value in fields:
        return str(n.slice.value), _base(n.value)
    if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" and n.args
            and isinstance(n.args[0], ast.Constant) and n.args[0].value in fields):
        return str(n.args[0].value), _base(n.func.value)
    return None


def _base(n: ast.AST) -> str:
    return "payload" if isinstance(n, ast.Name) and n.id == "payload" else "mapping"


def _queues(n: ast.AST) -> bool:
    return (isinstance(n, ast.Name) and n.id.endswith("queues")) or (isinstance(n, ast.Attribute) and n.attr.endswith("queues"))


def _followup_words(code: Code) -> Iterator[str]:
    """A follow-up's kind or lane spelled in a follow-up's place: a ``Due``'s kind, a payload's
    ``kind`` or ``lane``, a comparison with one, a queue picked by its lane. A seat's ``.kind`` (or
    a row's ``kind``) may still say ``bot``: that word is also a seat's kind."""
    words = KINDS | LANES
    for n in code.nodes:
        if isinstance(n, ast.Call):
            f = n.func
            if (isinstance(f, ast.Name) and f.id == "Due") or (isinstance(f, ast.Attribute) and f.attr == "Due"):
                for a in [*n.args, *(k.value for k in n.keywords)]:
                    if (w := _literal(a, KINDS)):
                        yield f"line {n.lineno}: Due({w!r}, ...)"
            for k in n.keywords:
                if k.arg == "lane" and (w := _literal(k.value, LANES)):
                    yield f"line {n.lineno}: lane={w!r}"
            if (isinstance(f, ast.Attribute) and f.attr == "get" and n.args and _queues(f.value)
                    and (w := _literal(n.args[0], LANES))):
                yield f"line {n.lineno}: a queue picked by {w!r}"
            if (isinstance(f, ast.Attribute) and f.attr == "get" and len(n.args) == 2 and _names_field(n, ("kind", "lane"))
                    and (w := _literal(n.args[1], words))):
                yield f"line {n.lineno}: a default {w!r}"
        elif isinstance(n, ast.Dict):
            keys = {k.value: v for k, v in zip(n.keys, n.values) if isinstance(k, ast.Constant)}
            if "game" in keys and "kind" in keys and (w := _literal(keys["kind"], KINDS)):
                yield f"line {n.lineno}: a payload of kind {w!r}"
            if "lane" in keys and (w := _literal(keys["lane"], LANES)):
                yield f"line {n.lineno}: a payload on lane {w!r}"
        elif isinstance(n, ast.Subscript) and _queues(n.value) and (w := _literal(n.slice, LANES)):
            yield f"line {n.lineno}: a queue picked by {w!r}"
        elif isinstance(n, ast.Compare):
            sides = [n.left, *n.comparators]
            if any(_queues(s) for s in sides):
                for s in sides:
                    for w in _literals(s, LANES):
                        yield f"line {n.lineno}: {w!r} looked up in the queues"
                continue
            read = next((r for s in sides if (r := _names_field(s, ("kind", "lane")))), None)
            if read is None:
                continue
            field, how = read
            allowed = SEAT_KINDS if field == "kind" and how not in ("name", "payload") else frozenset()
            pool = (KINDS if field == "kind" else LANES) - allowed
            for s in sides:
                for w in _literals(s, pool):
                    yield f"line {n.lineno}: {field} compared with {w!r}"


def _job_ids(code: Code) -> Iterator[str]:
    """A job id built by hand: a prefixed string, or an f-string that opens with a kind then ``-``."""
    yield from _prefixed(JOB_PREFIXES)(code)
    for n in code.nodes:
        if (isinstance(n, ast.JoinedStr) and len(n.values) > 1 and isinstance(n.values[0], ast.FormattedValue)
                and isinstance(n.values[1], ast.Constant) and str(n.values[1].value).startswith("-")
                and "Kind" in ast.unparse(n.values[0].value)):
            yield f"line {n.lineno}: a job id {ast.unparse(n)}"


def _words(words: frozenset[str]) -> Callable[[Code], Iterator[str]]:
    def find(code: Code) -> Iterator[str]:
        for n in code.strings:
            if n.value in words:
                yield f"line {n.lineno}: {n.value!r}"
    return find


FAMILIES = (
    Family("the absence timer's key", owner_of(absence), _prefixed(frozenset({ABSENCE_PREFIX}))),
    Family("the turn timer's key", owner_of(turn_timer), _prefixed(frozenset({TURN_PREFIX}))),
    Family("follow-up kinds and lanes", owner_of(due), _followup_words),
    Family("follow-up job ids", owner_of(followups), _job_ids, also=tuple(sorted(set(PLUGGED_KIND_OWNERS.values())))),
    # the games write and fold their events by name; outside them, one constant names the end
    Family("the end-of-match event", owner_of(events), _words(frozenset({events.END_OF_MATCH})),
           skip=("service/games/", *CLIENTS, *VERIFIER)),
    # the benches and their tools measure named games (their game knowledge is the seam's to remove)
    Family("a game's own event types", "service/games/", _words(GAME_EVENTS),
           skip=("service/games/", "bench/", "tools/", *CLIENTS, *VERIFIER)),
)


def spelled(text: str, path: str) -> dict[str, list[str]]:
    """The families this module's code spells outside their owners, with where."""
    code = Code.parse(text)
    out: dict[str, list[str]] = {}
    for fam in FAMILIES:
        owned = path == fam.owner or path in fam.also or (fam.owner.endswith("/") and path.startswith(fam.owner))
        if owned or path.startswith(fam.skip):
            continue
        found = list(fam.find(code))
        if found:
            out[fam.name] = found
    return out


def test_the_families_come_from_their_owners():
    # the registry's kinds are in the scan: a planted players job id or hooks-lane payload is caught
    assert {"players", "hook", "health"} <= KINDS and "hooks" in LANES
    assert "service/integrations/webhooks/jobs.py" in FAMILIES[3].also
    assert ABSENCE_PREFIX != TURN_PREFIX
    assert {"bot", "timer", "fast", "search"} <= KINDS | LANES  # the scan knows the words it looks for
    assert GAME_EVENTS and not GAME_EVENTS & set(events.TABLE_EVENTS)
    assert events.END_OF_MATCH in events.TABLE_EVENTS


def test_the_scan_covers_the_service_and_the_workers():
    names = {str(p.relative_to(ROOT)) for p in SCANNED}
    assert {"service/app/jobs.py", "service/app/seats.py", "service/api/games.py", "workers/dispatcher.py",
            "service/games/shedding/timeouts.py", "service/games/crazy_eights/table.py"} <= names


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_cross_layer_string_is_spelled_outside_its_owner(path: Path):
    assert spelled(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))) == {}


# ------------------------------------------------------------------ the scan fails on planted code

PLANTED = {
    "the absence timer's key": [
        'def seat(key):\n    return int(key.split("-")[1]) if key.startswith("absent-") else None\n',
        'def key(s):\n    return f"absent-{s.seat}-{s.absences}"\n'],
    "the turn timer's key": ['def key(m):\n    return f"turn-{m.round_no}-{m.rnd.turn_id}"\n'],
    "follow-up kinds and lanes": [
        'def work(m):\n    return Due("timer", "k", 0, None, 0)\n',
        'def run(payload):\n    kind = payload["kind"]\n    return 1 if kind == "bot" else 0\n',
        'def run(payload):\n    return payload.get("kind") in ("score", "deal")\n',
        'def pick(d):\n    return d.kind == "timer"\n',
        'def pick(payload, queues):\n    return queues[payload.get("lane", "fast")]\n',
        'def search(payload):\n    return payload.get("lane") == "search"\n',
        'def pay(g):\n    return {"kind": "expire", "game": g, "key": "open"}\n',
        'def up(p):\n    p.update(lane="search")\n',
        'def pay(g):\n    return {"kind": "quickplay", "game": g, "key": "wait"}\n'],  # an integration's kind
    "follow-up job ids": [
        'def jid(g, s, n):\n    return f"botmove-{g}-{s}-{n}"\n',
        'def jid(g):\n    return f"{Kind.COMPACT}-{g}"\n',
        'def jid(g):\n    return f"players-{g}"\n',  # an integration's job id, outside its owner
        'def jid(g):\n    return f"{HookKind.HOOK}-{g}"\n'],
    "the end-of-match event": [f'def over(e):\n    return e.type == {events.END_OF_MATCH!r}\n'],
    "a game's own event types": [
        f'def seat(events):\n    return [e for e in events if e.type == {t!r}]\n' for t in sorted(GAME_EVENTS)[:3]],
}


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_a_planted_string_is_caught(family: str):
    for text in PLANTED[family]:
        assert family in spelled(text, "service/app/planted.py"), text


def test_the_scan_passes_code_that_asks_the_owners():
    text = ("from service.games.kernel.absence import absence_key, parse_absence_key\n"
            "from service.games.kernel.due import Kind, Lane\n"
            "from service.games.kernel.events import END_OF_MATCH\n\n"
            "def run(payload, queues, seat, state):\n"
            "    if payload['kind'] == Kind.BOT and seat.kind == 'bot':\n"
            "        return queues[payload.get('lane', Lane.FAST)]\n"
            "    return parse_absence_key(payload['key']), state.status == 'finished', END_OF_MATCH\n")
    assert spelled(text, "service/app/planted.py") == {}


def test_each_owner_may_spell_its_own_family():
    for fam in FAMILIES:
        if not fam.owner.endswith("/"):
            text = (ROOT / fam.owner).read_text(encoding="utf-8")
            assert fam.name not in spelled(text, fam.owner)


def test_the_stored_names_never_change():
    """These strings outlive a deploy (the due set, RQ's job ids and queues, recorded ``TimedOut``
    events, clients' code): their owners may move, their values may not."""
    state = SimpleNamespace(round_no=3, rnd=SimpleNamespace(turn_id=7))
    assert (absence.absence_key(1, 2), turn_timer.turn_key(state)) == ("absent-1-2", "turn-3-7")
    assert absence.parse_absence_key("absent-1-2") == (1, 2)
    assert absence.parse_absence_key("turn-1-2") is None and absence.parse_absence_key("absent-1") is None
    assert {k.name: k.value for k in due.Kind} == {"BOT": "bot", "SCORE": "score", "DEAL": "deal", "TIMER": "timer",
                                                  "EXPIRE": "expire", "COMPACT": "compact"}
    assert {type(k).__name__ + "." + k.name: k.value for k in PLUGGED.jobs}.items() >= {
        "PlayersKind.PLAYERS": "players", "QuickplayKind.QUICKPLAY": "quickplay", "HookKind.HOOK": "hook",
        "HookKind.HOOK_SEND": "hooksend", "RemoteKind.HEALTH": "health"}.items()  # (more may come)
    assert {lane.name: lane.value for lane in due.Lane} == {"FAST": "fast", "SEARCH": "search", "HOOKS": "hooks",
                                                            "REMOTE": "remote"}
    bot = due.Due(due.Kind.BOT, due.bot_key(2, 9), 0, 2, 9)
    timer = due.Due(due.Kind.TIMER, "turn-3-7", 5, 2, 9)
    assert (followups.job_id("g", bot), followups.job_id("g", timer)) == ("bot-g-2-9", "timer-g-turn-3-7")
    assert followups.bot_move("g", 2, 9, 10, {}, 4).job_id == "botmove-g-2-9"
    assert followups.deferred_bot("g", 2, 9, 10, 20).job_id == "bot-g-2-9-g10"
    assert followups.rearmed_timer("g", timer).job_id == "timer-g-turn-3-7-w5"
    assert (followups.expiry("g", 0).job_id, followups.compaction("g", 0).job_id) == ("expire-g", "compact-g")
    assert (players_job("g", 0).job_id, quickplay_job("g", 0).job_id) == ("players-g", "quickplay-g")
    assert hook_fan_out("g", 5, 7, 0).job_id == "hook-g-5"
    assert hook_send("dlv_1", "g", "k1", 2, 0, "-r").job_id == "hooksend-dlv_1-2-r"
    assert health_check("b1", 7).job_id == "health-b1-7"
    assert events.END_OF_MATCH == "SeedsRevealed"
