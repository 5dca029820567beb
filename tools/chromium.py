"""The Chromium the browser tests drive (Debian's ``chromium`` package through Playwright's
``executable_path``; Playwright's own browser download does not work on these machines).

``python -m tools.chromium`` (run by ``make test``) finds it, or installs the ``chromium`` package
with apt where it can (as root), and otherwise exits 1 saying what to install.
"""
from __future__ import annotations

import os
import shutil
import sys

from tools import apt

PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
NAMES = ("chromium", "chromium-browser")
MESSAGE = ("The browser tests (tests/browser) need Chromium and found none. Install Debian's `chromium` "
           "package (as root: apt-get install -y chromium), or point MEOW_CHROMIUM at a Chromium binary.")


def find() -> str | None:
    """MEOW_CHROMIUM if set, else /usr/bin/chromium, else the first Chromium on PATH."""
    given = os.environ.get("MEOW_CHROMIUM")
    if given:
        return given if os.access(given, os.X_OK) else None
    for path in PATHS:
        if os.access(path, os.X_OK):
            return path
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _apt_install() -> bool:
    return apt.install("chromium", "MEOW_CHROMIUM", "tools.chromium")


def ensure() -> str | None:
    path = find()
    if path is None and _apt_install():
        path = find()
    return path


def main() -> int:
    path = ensure()
    if path is None:
        print(MESSAGE, file=sys.stderr)
        return 1
    print(f"tools.chromium: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
