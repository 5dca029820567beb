"""A game is one package behind one registry entry: the rest of the service knows games only
through the registry (issue 13). These checks fail when code outside a game's package branches
on a game's name or type, or when a game leaves the API, the commands or the events behind."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from service.games import engine, registry
from service.games.kernel.game import Game

ROOT = Path(__file__).resolve().parents[1]
GAME_NAMES = {"shedding", "sakapuss", "prsi", "mau-mau", "mau-mau-classic", "mau-mau-classic-full",
              "prsi-traditional"}
# the independent verifier re-implements the rules on purpose (docs/audit.md): it is not the service
OUTSIDE = [p for p in (ROOT / "service").rglob("*.py")
           if "games" not in p.relative_to(ROOT / "service").parts[:1]
           and p.relative_to(ROOT / "service").parts[0] != "verifier"] + list((ROOT / "workers").rglob("*.py"))


def _code_strings_and_names(path: Path) -> tuple[set[str], set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    examples = {id(v) for n in ast.walk(tree) if isinstance(n, ast.Dict)  # {"example": ...} documents
                for k, v in zip(n.keys, n.values) if isinstance(k, ast.Constant) and k.value == "example"}
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
               and id(n) not in docs and id(n) not in examples}
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return strings, names, modules


def test_the_scan_covers_the_service():
    names = {str(p.relative_to(ROOT)) for p in OUTSIDE}
    assert {"service/app/games.py", "service/api/schemas.py", "workers/main.py"} <= names


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_outside_the_games_names_a_game(path: Path):
    strings, names, modules = _code_strings_and_names(path)
    assert not strings & GAME_NAMES, f"branches on a game's name: {strings & GAME_NAMES}"
    assert not {n for n in names if n in ("Match", "SakapussMatch")}, "names a game's state type"
    into = {m for m in modules if m.startswith(("service.games.shedding", "service.games.sakapuss"))}
    assert not into, f"imports a game package directly: {into}"


def test_every_variant_names_its_game_and_every_game_is_complete():
    names = [g.name for g in registry.GAMES]
    assert len(names) == len(set(names)) and {"shedding", "sakapuss", "crazy_eights"} <= set(names)
    catalogue = registry.variants_catalog()
    assert {c["name"] for c in catalogue} == set(registry.BY_VARIANT)
    for g in registry.GAMES:
        assert isinstance(g, Game)
        for f in dataclasses.fields(Game):
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                assert getattr(g, f.name) is not None, f"{g.name} lacks {f.name}"
        assert "easy" in g.bots  # it plays absent seats (RULES §2.7)
        for entry in g.catalogue():  # every strength a variant offers has a bot, and no other
            assert set(entry["bot_strengths"]) <= set(g.bots), entry["name"]
            strength = next((o for o in entry["options"] if o["name"] == "bot_strength"), None)
            assert strength is not None and set(strength["enum"]) <= set(entry["bot_strengths"])
        assert {"MatchCreated", "MatchEnded"} <= set(g.event_types)
        for name, spec in g.actions.items():
            assert registry.SEAT_ACTIONS[name] is spec.command
        for v in g.variants:
            assert registry.for_variant(v) is g
            assert g.resolve_options(v, {}, g.preset_defaults(v)["max_players"])[0]


def test_the_api_accepts_every_games_actions():
    from service.api import schemas
    from service.app.commands import COMMANDS

    assert set(schemas.ACTION_TYPES) == set(registry.ACTIONS)
    for g in registry.GAMES:
        for spec in g.actions.values():
            assert COMMANDS[spec.command.__name__] is spec.command


def test_an_unknown_variant_is_a_domain_refusal():
    from service.games.kernel.model import Context, CreateMatch, RuleViolation

    with pytest.raises(RuleViolation) as exc:
        engine.decide(None, CreateMatch("g", "crazy-nines", {}, 4), Context(0, (b"x" * 32,)))
    assert exc.value.code == "unknown_variant"


def test_event_versions_are_per_game():
    for g in registry.GAMES:
        assert registry.event_versions(g.name) is g.event_types
    shedding, sakapuss = registry.BY_NAME["shedding"], registry.BY_NAME["sakapuss"]
    assert "CardPlayed" in shedding.event_types and "CardPlayed" not in sakapuss.event_types
    assert "SlapMade" in sakapuss.event_types and "SlapMade" not in shedding.event_types


def test_every_game_describes_its_events_and_actions_for_the_spec():
    """A game's spec.py covers every event type it writes and every action it has (the API's
    components are built from it: service/api/components.py)."""
    for g in registry.GAMES:
        assert g.spec is not None, g.name
        assert set(g.spec.events) == set(g.event_types), (g.name, set(g.event_types) ^ set(g.spec.events))
        assert set(g.spec.actions) == set(g.actions), g.name
        assert set(g.spec.private) | set(g.spec.secret) <= set(g.event_types), g.name
        for schema in (g.spec.table, g.spec.turn, *g.spec.events.values(), *g.spec.actions.values()):
            assert schema.get("additionalProperties") is False, (g.name, schema)  # closed objects
