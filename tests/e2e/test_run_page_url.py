"""`meow run` (what `make run` starts) prints the web table's URL, and that URL serves the page."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid

import requests

from tools.stack import ROOT, free_port


def test_meow_run_prints_the_url_of_the_page(redis_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import redis

    prefix = f"meowtest-run-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PORT=str(port), MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix,
               MEOW_DATA_DIR=str(tmp_path), WEB_CONCURRENCY="1", PYTHONPATH=ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "run"], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"play in the browser at (\S+)", line)
            url = m.group(1) if m else None
        assert url == f"http://127.0.0.1:{port}/"
        page = None
        deadline = time.monotonic() + 120  # gunicorn's start, generously (a loaded machine)
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                page = requests.get(url, timeout=2)
                break
            except requests.RequestException:
                time.sleep(0.2)
        assert page is not None and page.status_code == 200 and 'src="/web/app.js"' in page.text
        assert requests.get(f"{url}web/app.js", timeout=5).headers["Content-Type"].startswith("text/javascript")
    finally:
        proc.send_signal(signal.SIGINT)  # the launcher stops everything it started
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(match=f"*{prefix}*", count=1000):
            client.delete(key)
        client.close()
