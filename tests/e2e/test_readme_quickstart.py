"""The README's curl quickstart works against the real service, whoever has the first turn."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.e2e.conftest import ROOT, Stack

BLOCK = re.compile(r"## Play a game with curl\n\n```sh\n(.*?)```", re.S)


def _script(base: str) -> str:
    text = (Path(ROOT) / "README.md").read_text(encoding="utf-8")
    m = BLOCK.search(text)
    assert m, "README.md has no curl quickstart block"
    script = m.group(1)
    assert "B=http://127.0.0.1:8000/v1" in script
    return "set -euo pipefail\n" + script.replace("B=http://127.0.0.1:8000/v1", f"B={base}/v1")


def test_the_curl_quickstart_plays_a_move_whoever_starts(stack: Stack) -> None:
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    assert not missing, f"the README's quickstart needs {missing}: install them (Debian: apt-get install curl jq)"
    script = _script(stack.base)
    for _ in range(4):  # the first turn goes either way: four tables see both in all likelihood
        out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=90, check=False)
        assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
        lines = out.stdout.strip().splitlines()
        assert any(line.strip().isdigit() for line in lines), out.stdout  # the action's new version
        assert '"CardPlayed"' in out.stdout or '"CardDrawn"' in out.stdout, out.stdout
