"""Installing a Debian package for the tests' outside programs (tools/chromium.py, tools/nginx.py)."""
from __future__ import annotations

import os
import shutil
import subprocess


def install(package: str, override: str, tool: str) -> bool:
    """``apt-get install -y <package>`` (once more after ``apt-get update`` if that fails), only as
    root, with apt-get present and no ``override`` environment variable naming a binary of one's own."""
    if os.environ.get(override) or not hasattr(os, "geteuid") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print(f"{tool}: installing Debian's {package} package (apt-get install -y {package})", flush=True)
    if subprocess.run(["apt-get", "install", "-y", "-q", package], env=env, check=False).returncode == 0:
        return True
    subprocess.run(["apt-get", "update", "-q"], env=env, check=False)  # a failed update: the install below says so
    return subprocess.run(["apt-get", "install", "-y", "-q", package], env=env, check=False).returncode == 0
