"""axe-core, the accessibility engine the browser tests inject into the page (tests/browser/
test_table_layout.py): its ``axe.min.js`` from the npm package ``axe-core`` at the pinned VERSION.

``python -m tools.axe`` (run by ``make test``, next to tools.chromium) finds it, or installs it with
npm from the npm registry into var/axe (git-ignored), and otherwise exits 1 saying what to install.
Found, in order: MEOW_AXE (a path to an axe.min.js), node_modules/axe-core/axe.min.js at the
repository's root, var/axe/node_modules/axe-core/axe.min.js.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tools import apt

ROOT = Path(__file__).resolve().parents[1]
VERSION = "4.10.3"  # pinned: a new axe-core may add rules; raise it on purpose
PREFIX = ROOT / "var" / "axe"
PLACES = (ROOT / "node_modules" / "axe-core", PREFIX / "node_modules" / "axe-core")
MESSAGE = (f"The accessibility check (tests/browser) needs axe-core {VERSION} and found none. Install it with "
           f"npm (`npm install --prefix var/axe axe-core@{VERSION}`, which `python -m tools.axe` runs when npm "
           "is there; Debian: apt-get install -y npm), or point MEOW_AXE at an axe.min.js.")


def _version(package_dir: Path) -> str | None:
    try:
        return str(json.loads((package_dir / "package.json").read_text(encoding="utf-8")).get("version"))
    except (OSError, ValueError):
        return None


def find() -> Path | None:
    """MEOW_AXE if set (and a file), else the pinned version's axe.min.js in one of PLACES."""
    given = os.environ.get("MEOW_AXE")
    if given:
        return Path(given) if Path(given).is_file() else None
    for place in PLACES:
        script = place / "axe.min.js"
        if script.is_file() and _version(place) == VERSION:
            return script
    return None


def _npm_install() -> bool:
    if os.environ.get("MEOW_AXE"):
        return False
    if shutil.which("npm") is None:
        apt.install("npm", "MEOW_AXE", "tools.axe")  # Debian's npm (as root), as tools.chromium does
    npm = shutil.which("npm")
    if npm is None:
        return False
    print(f"tools.axe: installing axe-core {VERSION} with npm into {PREFIX.relative_to(ROOT)}", flush=True)
    PREFIX.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--no-save", "--prefix", str(PREFIX),
                           f"axe-core@{VERSION}"], check=False, timeout=300)
    return done.returncode == 0


def ensure() -> Path | None:
    path = find()
    if path is None and _npm_install():
        path = find()
    return path


def main() -> int:
    path = ensure()
    if path is None:
        print(MESSAGE, file=sys.stderr)
        return 1
    print(f"tools.axe: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
