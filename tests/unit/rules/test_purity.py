"""The games are pure: no I/O, no clock, no hidden randomness, in every module of every game
package, of the kernel and of the playout cores (recursively: a new game is checked unasked)."""
import ast
import importlib
import pathlib

from service.games import registry

ROOT = pathlib.Path(__file__).resolve().parents[3] / "service"
GAMES = ROOT / "games"
FORBIDDEN = {"flask", "redis", "rq", "marshmallow", "time", "random", "socket", "os", "requests",
             "threading", "subprocess", "datetime", "secrets", "service.app", "service.api",
             "service.eventstore", "service.settings", "service.wiring", "workers"}
RNG_TYPED = ("bots", "playout.py", "resample.py")  # take a passed-in random.Random, never the module's own


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        mods: list[str] = []
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            mods = [node.module]
        for mod in mods:
            parts = mod.split(".")
            names.update(".".join(parts[:i]) for i in range(1, min(len(parts), 2) + 1))
    return names


def _files() -> list[pathlib.Path]:
    return sorted(GAMES.rglob("*.py"))


def _package(game: registry.Game) -> str:
    """A registered game's package directory under service/games (where its state type lives)."""
    return game.state_type.__module__.split(".")[2]


def _module_file(module: str) -> str:
    return "/".join(module.split(".")[2:]) + ".py"


def test_every_game_module_is_checked():
    """The walk reaches the kernel, the engine and every registered game's entry, state, bots and playout core."""
    names = {str(f.relative_to(GAMES)) for f in _files()}
    must = {"kernel/model.py", "engine.py"}
    for g in registry.GAMES:
        must |= {f"{_package(g)}/game.py", _module_file(g.state_type.__module__)}
        must |= {_module_file(b.__module__) for b in g.bots.values()}
        if g.playout is not None:
            must.add(_module_file(g.playout.__name__))
    assert must <= names, must - names


def test_game_packages_import_no_io():
    for f in _files():
        bad = _imports(f) & FORBIDDEN
        rel = f.relative_to(GAMES)
        if any(p in RNG_TYPED for p in rel.parts):
            bad -= {"random"}
        assert not bad, f"{rel} imports {bad}"


def test_bots_and_playouts_never_call_module_level_random():
    for f in _files():
        rel = f.relative_to(GAMES)
        if not any(p in RNG_TYPED for p in rel.parts):
            continue
        src = f.read_text()
        for fn in ("random.random(", "random.choice(", "random.randint(", "random.shuffle(", "random.seed(",
                   "random.sample(", "random.uniform("):
            assert fn not in src, f"{rel} calls {fn}"


GAME_PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists() and p.name != "kernel")
BUILDS_ON = {g: getattr(importlib.import_module(f"service.games.{g}"), "BUILDS_ON", {}) for g in GAME_PACKAGES}
"""The games one game builds on, and the modules it may take from each, as the game's own package
declares them (``BUILDS_ON`` in its ``__init__.py``: Crazy Eights takes the shedding games' card ids,
play/draw/pass, faces and words): a game that builds on another changes nothing outside its package."""


def test_the_kernel_knows_no_game():
    games = tuple(f"service.games.{g}" for g in GAME_PACKAGES) + ("service.games.registry", "service.games.engine")
    assert {f"service.games.{_package(g)}" for g in registry.GAMES} <= set(games)
    for f in sorted((GAMES / "kernel").rglob("*.py")):
        tree = ast.parse(f.read_text())
        mods = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        mods |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        bad = {m for m in mods if m.startswith(games)}
        assert not bad, f"kernel/{f.name} imports {bad}"


def test_a_game_imports_no_other_game_but_those_it_builds_on():
    assert {_package(g) for g in registry.GAMES} <= set(GAME_PACKAGES)
    for game in GAME_PACKAGES:
        for f in sorted((GAMES / game).rglob("*.py")):
            tree = ast.parse(f.read_text())
            mods = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
            mods |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            for other in GAME_PACKAGES:
                if other == game:
                    continue
                used = {m.split(".")[3] if m.count(".") >= 3 else "" for m in mods
                        if m == f"service.games.{other}" or m.startswith(f"service.games.{other}.")}
                allowed = BUILDS_ON.get(game, {}).get(other, set())
                assert used <= allowed, f"{game}/{f.relative_to(GAMES / game)} imports {other}: {used - allowed}"
