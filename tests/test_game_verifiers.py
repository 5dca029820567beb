"""The independent verifier stays independent (issue 27, docs/audit.md): every registered game ships
a verifier module in its package (``Game.verifier``, service/games/<game>/verifier.py) that imports
the standard library and service/verifier/primitives only, `meow verify` finds the same modules by
file without the registry, and the driver (service/verifier) names no game's own event. Every list
here comes from the registry; the planted cases show each check failing."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from service.games import registry
from service.games.kernel.events import TABLE_EVENTS
from service.games.kernel.game import Game
from service.verifier import games as found
from tests.audit.goldens import GOLDENS

ROOT = Path(__file__).resolve().parents[1]
DRIVER = ROOT / "service" / "verifier"
PRIMITIVES = "service.verifier.primitives"
DYNAMIC = frozenset({"importlib", "__import__", "runpy", "pkgutil", "exec", "eval"})
"""Names that import behind an ``import`` statement's back."""


def package_of(game: Game) -> str:
    """A game's package, from its entry: where its state type lives (``service.games.<pkg>``)."""
    return game.state_type.__module__.rsplit(".", 1)[0]


def outside_imports(text: str, module: str) -> list[str]:
    """What a verifier module (``module``, its dotted name) imports beyond the standard library and
    the primitives, relative imports resolved, and any import machinery it names."""
    tree = ast.parse(text)
    package = module.rsplit(".", 1)[0].split(".")
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            imported.append(".".join(base + ([node.module] if node.module else [])))
    bad = [f"imports {m}" for m in imported
           if (m != PRIMITIVES and m.split(".")[0] not in sys.stdlib_module_names) or m.split(".")[0] in DYNAMIC]
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    return bad + [f"names {n}" for n in sorted(names & DYNAMIC)]


def own_events() -> frozenset[str]:
    """The event types some game writes beyond the kernel's table events."""
    return frozenset().union(*(g.event_types for g in registry.GAMES)) - set(TABLE_EVENTS)


def names_a_games_event(text: str) -> list[str]:
    strings = {n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return sorted(strings & own_events())


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_every_registered_game_has_its_verifier_module(game: Game) -> None:
    module = game.verifier
    assert isinstance(module, ModuleType), f"{game.name} has no verifier module ({package_of(game)}/verifier.py)"
    assert module.__name__ == f"{package_of(game)}.verifier"
    assert set(module.VARIANTS) == set(game.variants), "it must check exactly the game's presets"
    shuffles = module.Shuffles(game.preset_defaults(game.variants[0]))
    assert callable(shuffles.expected) and callable(shuffles.see)


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_each_verifier_imports_only_the_standard_library_and_the_primitives(game: Game) -> None:
    assert game.verifier is not None and game.verifier.__file__ is not None
    assert outside_imports(Path(game.verifier.__file__).read_text(encoding="utf-8"), game.verifier.__name__) == []


def test_the_driver_finds_the_registrys_verifiers_by_file() -> None:
    assert set(found.modules()) == {g.verifier for g in registry.GAMES}
    for variant, game in registry.BY_VARIANT.items():
        assert found.for_variant(variant) is game.verifier, variant
    assert found.for_variant("-".join(registry.BY_VARIANT)) is None


def test_the_driver_names_no_games_own_event() -> None:
    """The driver keys on the record and the game modules, never on a game's events (no game branch)."""
    assert {p.name: v for p in DRIVER.glob("*.py") if (v := names_a_games_event(p.read_text(encoding="utf-8")))} == {}


def test_the_independent_checks_run_on_the_standard_library_alone(tmp_path: Path) -> None:
    """`meow verify --independent` on every golden, in a Python without site-packages (``-S``): it
    passes, and the service modules it loaded are the driver, the primitives and the games' verifier
    modules with their docstring-only packages: nothing of the engine, the kernel or the registry."""
    histories = []
    for path in GOLDENS:
        out = tmp_path / path.name
        out.write_text(json.dumps({"events": json.loads(path.read_text())["history"]}))
        histories.append(str(out))
    script = ("import sys; sys.path.insert(0, sys.argv[1])\n"
              "from service.verifier.cli import run\n"
              "codes = [run([h, '--independent']) for h in sys.argv[2:]]\n"
              "print('LOADED', sorted(sys.modules)); sys.exit(max(codes))\n")
    done = subprocess.run([sys.executable, "-S", "-c", script, str(ROOT), *histories],
                          check=False, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines().count("OK") == len(GOLDENS), done.stdout
    loaded = ast.literal_eval(done.stdout.rsplit("LOADED ", 1)[1])
    service = {m for m in loaded if m.split(".")[0] == "service"}
    allowed = {"service", "service.verifier", "service.verifier.cli", "service.verifier.check",
               "service.verifier.games", "service.verifier.read", "service.verifier.report", PRIMITIVES,
               "service.games"}
    allowed |= {m for g in registry.GAMES for m in (package_of(g), f"{package_of(g)}.verifier")}
    assert service <= allowed, sorted(service - allowed)
    assert {f"{package_of(g)}.verifier" for g in registry.GAMES} <= service
    loaded = [m for m in loaded if m != "__main__"]  # the -c script itself
    assert all(m.split(".")[0] in sys.stdlib_module_names or m in service for m in loaded), \
        sorted(m for m in loaded if m.split(".")[0] not in sys.stdlib_module_names and m not in service)


# ---------------------------------------------------------------- the checks fail on planted code

MODULE = "service.games.planted.verifier"


@pytest.mark.parametrize("text", [
    "from service.games.kernel.model import Event\n",  # the kernel
    "import service.games.engine\n",  # the engine
    "from service.games import registry\n",  # the registry
    "from . import cards\n",  # its own package's engine modules
    "from .options import PRESETS\n",
    "from ..shedding import cards\n",  # another game
    "from service.verifier import check\n",  # the driver
    "import orjson\n",  # a third-party package
    "import importlib\nrules = importlib.import_module('service.games.engine')\n",
    "rules = __import__('service.games.engine')\n",
])
def test_a_verifier_importing_more_is_caught(text: str) -> None:
    assert outside_imports("from __future__ import annotations\n" + text, MODULE), text


def test_a_verifier_of_the_standard_library_and_the_primitives_passes() -> None:
    text = ("from __future__ import annotations\n\nimport hashlib\nfrom collections import Counter\n"
            "from string import ascii_lowercase\nfrom service.verifier.primitives import french_deck\n"
            "import service.verifier.primitives as p\n")
    assert outside_imports(text, MODULE) == []


@pytest.mark.parametrize("game", registry.GAMES, ids=lambda g: g.name)
def test_a_driver_branch_on_a_games_event_is_caught(game: Game) -> None:
    event = sorted(set(game.event_types) - set(TABLE_EVENTS))[0]
    assert names_a_games_event(f"def see(e):\n    return e['type'] == {event!r}\n") == [event]
    assert names_a_games_event("def see(e):\n    return e['type'] == 'ShuffleCommitted'\n") == []
