"""A game is one package behind one registry entry: the rest of the service knows games only
through the registry (issue 13). These checks fail when code outside a game's package branches
on a game's name or a variant's, names its state type or imports its package, or when a game
leaves the API, the commands or the events behind. Every name they look for comes from the
registry (issue 23): a new game is guarded the moment it is registered."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from service.games import engine, registry
from service.games.kernel.codes import KernelCode
from service.games.kernel.game import Game

ROOT = Path(__file__).resolve().parents[1]
GAMES_DIR = ROOT / "service" / "games"
VERIFIER = ROOT / "service" / "verifier"
# the independent verifier's driver is not the service (docs/audit.md): test_the_verifier_keys_on_the_record_not_on_a_game
# says what it may know, and tests/test_game_verifiers.py holds the games' own verifier modules
OUTSIDE = [p for p in (ROOT / "service").rglob("*.py")
           if p.relative_to(ROOT / "service").parts[0] not in ("games", "verifier")] + list((ROOT / "workers").rglob("*.py"))


def package_of(game: Game) -> str:
    """A game's package, from its entry: where its state type lives (``service.games.<pkg>``)."""
    return game.state_type.__module__.rsplit(".", 1)[0]


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@dataclasses.dataclass(frozen=True)
class Source:
    """What a module's code (not its docstrings or documented examples) says: its string constants,
    the names it uses and the modules it imports (relative imports resolved against ``module``)."""

    strings: frozenset[str]
    names: frozenset[str]
    modules: frozenset[str]

    @classmethod
    def parse(cls, text: str, module: str = "", is_package: bool = False) -> Source:
        tree = ast.parse(text)
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        examples = {id(v) for n in ast.walk(tree) if isinstance(n, ast.Dict)  # {"example": ...} documents
                    for k, v in zip(n.keys, n.values) if isinstance(k, ast.Constant) and k.value == "example"}
        strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and id(n) not in docs and id(n) not in examples}
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names |= {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        base = module.split(".") if is_package else module.split(".")[:-1]
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom):
                mod = n.module or ""
                if n.level:
                    mod = ".".join(base[:len(base) - n.level + 1] + ([mod] if mod else []))
                modules |= {mod} | {f"{mod}.{a.name}" for a in n.names}
        return cls(frozenset(strings), frozenset(names), frozenset(modules))


def violations(src: Source, game: Game) -> list[str]:
    """How this source names ``game`` (empty when it knows the game only through the registry)."""
    pkg = package_of(game)

    def inside(m: str) -> bool:
        return m == pkg or m.startswith(pkg + ".")

    found = [f"branches on the name {s!r}" for s in sorted(src.strings & {game.name, *game.variants})]
    if game.state_type.__name__ in src.names:
        found.append(f"names the state type {game.state_type.__name__}")
    found += [f"imports {m}" for m in sorted(src.modules) if inside(m)]
    found += [f"names the module {s!r}" for s in sorted(src.strings) if inside(s)]  # importlib
    return found


def scan(path: Path) -> dict[str, list[str]]:
    src = Source.parse(path.read_text(encoding="utf-8"), module_of(path), path.name == "__init__.py")
    return {g.name: v for g in registry.GAMES if (v := violations(src, g))}


def test_the_scan_covers_the_service():
    names = {str(p.relative_to(ROOT)) for p in OUTSIDE}
    assert {"service/app/games.py", "service/api/schemas.py", "workers/main.py"} <= names


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_outside_the_games_names_a_game(path: Path):
    assert not scan(path)


def test_the_verifier_keys_on_the_record_not_on_a_game():
    """The verifier's driver re-implements the documented chain and shuffle and leaves each game's
    cards to the game's own verifier module, which it finds by file: it branches on no game's or
    variant's name, names no state type and imports no game package (it reaches the rules only
    through service.games.engine and service.app.audit, for the replay check)."""
    assert {str(p.relative_to(ROOT)): v for p in VERIFIER.rglob("*.py") if (v := scan(p))} == {}


def test_every_game_package_is_registered_and_its_entry_lives_there():
    """The packages under service/games (all but the kernel) are the registry's games, one each."""
    packages = {p.parent.name for p in GAMES_DIR.glob("*/__init__.py")} - {"kernel"}
    assert packages == {package_of(g).rsplit(".", 1)[1] for g in registry.GAMES}
    for g in registry.GAMES:
        assert g.playout.__name__.startswith(package_of(g) + "."), g.name
        assert g.codes.__module__.startswith((package_of(g) + ".", "service.games.kernel.")), g.name


# ---------------------------------------------------------------- the scan fails on planted code

def _planted(text: str, module: str = "service.app.planted") -> Source:
    return Source.parse(text, module)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_a_branch_on_a_game_name_is_caught(game: Game):
    assert violations(_planted(f"def pick(state):\n    return 1 if state.game == {game.name!r} else 0\n"), game)


@pytest.mark.parametrize("variant", sorted(registry.BY_VARIANT))
def test_a_branch_on_a_variant_name_is_caught(variant: str):
    src = _planted(f"def pick(state):\n    if state.variant in ({variant!r},):\n        return 1\n")
    assert violations(src, registry.BY_VARIANT[variant]) == [f"branches on the name {variant!r}"]


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_naming_a_state_type_is_caught(game: Game):
    name = game.state_type.__name__
    assert violations(_planted(f"def mine(state):\n    return isinstance(state, {name})\n"), game)
    assert violations(_planted(f"def mine(state, types):\n    return type(state) is types.{name}\n"), game)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_importing_a_game_package_is_caught(game: Game):
    pkg = package_of(game)
    parent, last = pkg.rsplit(".", 1)
    for text in (f"import {pkg}.state\n", f"from {pkg}.rules import step\n", f"from {parent} import {last}\n",
                 f"import importlib\nrules = importlib.import_module({pkg!r})\n",
                 f"from ..games.{last} import views\n"):  # relative, from service/app/planted.py
        assert violations(_planted(text), game), text


def test_the_scan_passes_code_that_knows_games_through_the_registry():
    text = ('"""Mentions every game and variant in prose only: ' + " ".join(registry.BY_VARIANT) + '"""\n'
            "from service.games import registry\n\n"
            "def catalogue():\n    return [g.catalogue() for g in registry.GAMES]\n")
    assert all(not violations(_planted(text), g) for g in registry.GAMES)


def test_every_game_refuses_through_the_kernels_refuser():
    """One refusal shape (RULES §2.6(2)): ``refuse(m, seat, now, code, detail)`` from
    kernel/refusal.py; no game attaches legal actions to a RuleViolation itself."""
    for g in registry.GAMES:
        calls = [(f, n) for f in (GAMES_DIR / package_of(g).rsplit(".", 1)[1]).rglob("*.py")
                 for n in ast.walk(ast.parse(f.read_text())) if isinstance(n, ast.Call)]
        assert any(getattr(n.func, "id", None) == "refuser" for _, n in calls), f"{g.name} has no refuser"
        own = [f"{f.name}: {ast.unparse(n)}" for f, n in calls if getattr(n.func, "id", None) == "RuleViolation"
               and any(k.arg == "legal_actions" and not (isinstance(k.value, ast.List) and not k.value.elts)
                       for k in n.keywords)]
        assert not own, own


def test_every_variant_names_its_game_and_every_game_is_complete():
    names = [g.name for g in registry.GAMES]
    assert len(names) == len(set(names)) == len(registry.BY_NAME)
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
    from service.app.commands import COMMANDS, NAMES

    assert set(schemas.ACTION_TYPES) == set(registry.ACTIONS)
    for g in registry.GAMES:
        for spec in g.actions.values():  # recorded under its wire name (tests/test_recorded_commands.py)
            assert COMMANDS[NAMES[spec.command]].command is spec.command


def test_an_unknown_variant_is_a_domain_refusal():
    from service.games.kernel.model import Context, CreateMatch, RuleViolation

    unknown = "-".join(registry.BY_VARIANT) + "-nines"
    with pytest.raises(RuleViolation) as exc:
        engine.decide(None, CreateMatch("g", unknown, {}, 4), Context(0, (b"x" * 32,)))
    assert exc.value.code == KernelCode.UNKNOWN_VARIANT


def test_event_versions_are_per_game():
    for g in registry.GAMES:
        assert registry.event_versions(g.name) is g.event_types
        others = set().union(*(o.event_types for o in registry.GAMES if o is not g))
        assert set(g.event_types) != others, g.name  # the games' event sets are their own


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
