"""Node.js and npm for the TypeScript client check (tests/typescript): the machine's own (Debian's
``nodejs`` and ``npm`` packages), and the check's pinned npm packages (tests/typescript/package.json
and its package-lock.json: openapi-typescript, openapi-fetch, typescript) installed once into
tests/typescript/node_modules (git-ignored) and again only when the lock file changes.

``python -m tools.node`` (run by ``make test``) finds node and npm, or installs the packages with apt
where it can (as root), installs the npm packages, and otherwise exits 1 saying what to install.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tools import apt

ROOT = Path(__file__).resolve().parents[1]
CHECK_DIR = ROOT / "tests" / "typescript"
MIN_MAJOR = 18  # global fetch (openapi-fetch) and ES2022
MESSAGE = (f"The TypeScript client check (tests/typescript) needs Node.js {MIN_MAJOR} or later and npm and found "
           "none. Install Debian's `nodejs` and `npm` packages (as root: apt-get install -y nodejs npm), or point "
           "MEOW_NODE at a node binary (with npm beside it or on PATH).")
STAMP = ".meow-lock-sha256"  # in node_modules: the package-lock.json it was installed from


@dataclass(frozen=True)
class Node:
    node: str
    npm: str
    version: str


def _version(node: str) -> str | None:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return None
    v = out.stdout.strip().lstrip("v")
    major = v.split(".", 1)[0]
    return v if out.returncode == 0 and major.isdigit() and int(major) >= MIN_MAJOR else None


def find() -> Node | None:
    """MEOW_NODE if set, else node on PATH; npm beside it or on PATH; None if either is missing
    or node is older than MIN_MAJOR."""
    node = os.environ.get("MEOW_NODE") or shutil.which("node") or shutil.which("nodejs")
    if not node or not os.access(node, os.X_OK):
        return None
    beside = Path(node).with_name("npm")
    npm = str(beside) if os.access(beside, os.X_OK) else shutil.which("npm")
    version = _version(node)
    return Node(node, npm, version) if npm and version else None


def ensure() -> Node | None:
    found = find()
    if found is None and apt.install("nodejs", "MEOW_NODE", "tools.node") and apt.install("npm", "MEOW_NODE",
                                                                                            "tools.node"):
        found = find()
    return found


def _lock_hash() -> str:
    return hashlib.sha256((CHECK_DIR / "package-lock.json").read_bytes()).hexdigest()


def install_packages(found: Node) -> Path:
    """``npm ci`` in tests/typescript unless node_modules holds what package-lock.json pins (the
    first run downloads them from the npm registry; later runs reuse them). Returns its bin dir."""
    modules = CHECK_DIR / "node_modules"
    stamp = modules / STAMP
    want = _lock_hash()
    if not (stamp.exists() and stamp.read_text(encoding="utf-8").strip() == want):
        env = dict(os.environ, PATH=f"{Path(found.node).parent}{os.pathsep}{os.environ.get('PATH', '')}")
        print("tools.node: npm ci in tests/typescript (the pinned openapi-typescript, openapi-fetch, typescript)",
              flush=True)
        out = subprocess.run([found.npm, "ci", "--no-audit", "--no-fund", "--prefer-offline"], cwd=CHECK_DIR,
                             env=env, capture_output=True, text=True, timeout=600, check=False)
        if out.returncode != 0:
            raise RuntimeError(f"npm ci failed in {CHECK_DIR}:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
        stamp.write_text(want + "\n", encoding="utf-8")
    return modules / ".bin"


def main() -> int:
    found = ensure()
    if found is None:
        print(MESSAGE, file=sys.stderr)
        return 1
    try:
        bin_dir = install_packages(found)
    except RuntimeError as exc:
        print(f"tools.node: {exc}", file=sys.stderr)
        return 1
    print(f"tools.node: node {found.version} ({found.node}), npm {found.npm}, packages in {bin_dir.parent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
