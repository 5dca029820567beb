"""A TypeScript client generated from the served spec plays a Prší match to its end (docs/typed-clients.md).

openapi-typescript turns the live stack's ``/openapi.yaml`` into ``schema.d.ts``; ``tsc --strict``
compiles tests/typescript/play.ts against it (openapi-fetch; a type error fails the compile, and the
file may hold no cast, no ``any``, no non-null assertion and no ``@ts-`` comment); node runs it
against the stack: it creates a table with a bot, plays every move of its seat by posting a legal
action exactly as listed, reads the event feed narrowing on ``e.type``, and prints a summary line.

Node.js and npm are the machine's (tools/node.py finds them or installs Debian's packages as root;
none: the test fails saying what to install, as the browser tests do for Chromium); the pinned npm
packages are installed once into tests/typescript/node_modules.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import Stack
from tools import node

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "play.ts"
COPIED = ("play.ts", "tsconfig.json", "package.json")
QUICKSTART = HERE / "quickstart"  # docs/typed-clients.md's snippet and tsconfig, as the doc shows them
DOC = HERE.parents[1] / "docs" / "typed-clients.md"
FORBIDDEN = {  # what would let play.ts type-check without the spec's types being right
    "a cast": re.compile(r"\bas\s+(const\b|[A-Za-z_{\[(])|[=(,:]\s*<[A-Za-z_][\w.]*>\s*[\w(]"),
    "any": re.compile(r"\bany\b"),
    "a non-null assertion": re.compile(r"[\w)\]]!(?=[.\[);,\s])(?!=)"),
    "a @ts- comment": re.compile(r"@ts-"),
}


def _code(text: str) -> str:
    """play.ts without its comments (they may name what the code must not hold)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"(^|\s)//.*$", r"\1", text, flags=re.MULTILINE)


def _blocks(doc: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```$", doc, flags=re.DOTALL | re.MULTILINE)


def test_the_docs_snippet_and_tsconfig_are_the_files_compiled_and_run() -> None:
    """docs/typed-clients.md shows tests/typescript/quickstart/ as it is (the test below compiles and
    runs those files), and the commands that build and run it."""
    doc = DOC.read_text(encoding="utf-8")
    assert (QUICKSTART / "quickstart.ts").read_text(encoding="utf-8") in _blocks(doc, "ts")
    assert (QUICKSTART / "tsconfig.json").read_text(encoding="utf-8") in _blocks(doc, "json")
    commands = "".join(_blocks(doc, "sh"))
    for line in ("npm pkg set type=module", "npx tsc -p tsconfig.json", "node out/quickstart.js"):
        assert line in commands, line


def test_play_ts_holds_no_cast_and_no_any() -> None:
    code = _code(SCRIPT.read_text(encoding="utf-8"))
    found = {what: [m.group(0) for m in rx.finditer(code)] for what, rx in FORBIDDEN.items()}
    assert not any(found.values()), found


def test_the_scan_finds_a_planted_cast() -> None:
    for planted in ("const x = y as LegalAction;", "const x: any = 1;", "f(<Event>e)", "view.you!.hand",
                    "// @ts-ignore\n"):
        code = _code(planted) if "@ts-" not in planted else planted
        assert any(rx.search(code) for rx in FORBIDDEN.values()), planted


@pytest.fixture(scope="module")
def tools() -> tuple[node.Node, Path]:
    found = node.ensure()
    if found is None:
        pytest.fail(node.MESSAGE)
    return found, node.install_packages(found)


def _run(args: list[str], cwd: Path, timeout: float, **env: str) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False,
                         env=dict(os.environ, **env))
    assert out.returncode == 0, f"{' '.join(args)} exited {out.returncode}:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def test_a_typed_client_plays_a_match_with_no_cast(tools: tuple[node.Node, Path], stack: Stack,
                                                   tmp_path: Path) -> None:
    from service.games import registry

    found, tools_bin = tools
    started = time.monotonic()
    r = httpx.get(f"{stack.base}/openapi.yaml", timeout=30)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/yaml"), r.status_code
    (tmp_path / "openapi.yaml").write_text(r.text, encoding="utf-8")
    for name in COPIED:
        shutil.copy(HERE / name, tmp_path / name)
    (tmp_path / "node_modules").symlink_to(tools_bin.parent, target_is_directory=True)
    _run([str(tools_bin / "openapi-typescript"), "openapi.yaml", "-o", "schema.d.ts"], tmp_path, 120)
    generated = time.monotonic()
    # strict, and nothing emitted on a type error: the compile is the type check
    _run([str(tools_bin / "tsc"), "-p", "tsconfig.json", "--strict", "--noEmitOnError"], tmp_path, 180)
    compiled = time.monotonic()
    seed = "7"  # play.ts picks among the legal actions with it (MEOW_SEED)
    out = _run([found.node, str(tmp_path / "out" / "play.js")], tmp_path, 120, MEOW_BASE=stack.base, MEOW_SEED=seed)
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    # the doc's quickstart, with the doc's tsconfig and commands (in an ES module package: top-level await)
    quick = tmp_path / "quickstart"
    quick.mkdir()
    for name in ("quickstart.ts", "tsconfig.json"):
        shutil.copy(QUICKSTART / name, quick / name)
    shutil.copy(HERE / "package.json", quick / "package.json")
    shutil.copy(tmp_path / "schema.d.ts", quick / "schema.d.ts")
    (quick / "node_modules").symlink_to(tools_bin.parent, target_is_directory=True)
    _run([str(tools_bin / "tsc"), "-p", "tsconfig.json", "--noEmitOnError"], quick, 180)
    told = _run([found.node, "out/quickstart.js"], quick, 60, MEOW_BASE=stack.base).stdout.splitlines()
    assert told[0].startswith("top card ") and re.fullmatch(r"[1-9]\d* events", told[-1]), told
    print(f"seed {seed}: generate {generated - started:.1f} s, tsc {compiled - generated:.1f} s, "
          f"play {time.monotonic() - compiled:.1f} s: {summary}")

    assert summary["finished"] is True, summary
    assert summary["moves"] > 0 and summary["played"] > 0, summary
    prsi = next(v for v in registry.variants_catalog() if v["name"] == "prsi")
    assert summary["last"] == prsi["end_event"], summary  # the feed was read to the match's end
    assert summary["standings"] and {rank for _, rank in summary["standings"]} >= {1}, summary
    assert summary["top_card"], summary  # narrowed on the view's variant, read the table's top card
