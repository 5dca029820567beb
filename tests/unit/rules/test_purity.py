import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3] / "service"
FORBIDDEN = {"flask", "redis", "rq", "marshmallow", "time", "random", "socket", "os"}


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("pkg", ["rules", "bots"])
def test_pure_packages_import_no_io(pkg):
    files = list((ROOT / pkg).glob("*.py"))
    assert files
    for f in files:
        bad = _imports(f) & FORBIDDEN
        if pkg == "bots":
            bad -= {"random"}  # only for the type of the passed-in rng
        assert not bad, f"{f.name} imports {bad}"


def test_bots_never_call_module_level_random():
    for f in (ROOT / "bots").glob("*.py"):
        src = f.read_text()
        for fn in ("random.random(", "random.choice(", "random.randint(", "random.shuffle(", "random.seed("):
            assert fn not in src, f"{f.name} calls {fn}"
