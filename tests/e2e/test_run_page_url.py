"""`meow run` (what `make run` starts) prints the web table's URL, and that URL serves the page; and
the commands the docs give beside it work as written (issue 37 item 7): docs/integrators.md's
`meow keys create|list|rotate|revoke` and docs/arenas.md's `meow worker --queues arena` with its
`curl` commands, run from the folder `meow run` runs in with no setting of their own (no REDIS_URL,
no key prefix, no queue name: the service's `var/run.json` names them); a worker SIGKILLed is started
again while the API answers, and Ctrl-C stops everything quietly (issue 39 item 5)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tools.stack import ROOT, free_port

pytestmark = pytest.mark.xdist_group("e2e-meow-run")
DOCS = Path(ROOT) / "docs"
BOUND_S = 120  # a process start or an arena game, generously (a loaded machine)


@dataclass
class Run:
    proc: subprocess.Popen[str]
    url: str
    port: int
    folder: Path
    lines: list[str]
    err: Path  # the launcher's (and its children's) stderr
    ready_at_url: bool = False  # /readyz answered 200 at once when the address was printed (issue 42 item 6)


@pytest.fixture(scope="module")
def meow_run(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """One `meow run` in a folder of its own (its data in ./var), on the suite's Redis under a fresh
    prefix; no arena worker of its own, so an arena plays only on the docs' `meow worker`."""
    import redis

    folder = tmp_path_factory.mktemp("meow-run")
    prefix = f"meowtest-run-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, PORT=str(port), MEOW_KEY_PREFIX=prefix, MEOW_QUEUE=prefix,
               WEB_CONCURRENCY="1", MEOW_ARENA_WORKERS="0", PYTHONPATH=ROOT)
    env.pop("MEOW_DATA_DIR", None)
    err = folder / "stderr.txt"
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "run"], env=env, cwd=folder,
                            stdout=subprocess.PIPE, stderr=err.open("w"), text=True, start_new_session=True)
    lines: list[str] = []
    stopped = False
    try:
        url = ""
        deadline = time.monotonic() + 180  # a loaded machine's first start is slow: the line waits for /readyz
        while not url and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line:
                break
            lines.append(line)
            m = re.search(r"play in the browser at (\S+)", line)
            url = m.group(1) if m else ""
        ready_at_url = bool(url) and requests.get(f"{url}readyz", timeout=10).status_code == 200  # no retry
        # the access log goes on to stdout: read it, so a full pipe never stalls gunicorn
        threading.Thread(target=lambda: [lines.append(x) for x in proc.stdout or ()], daemon=True).start()
        yield Run(proc, url, port, folder, lines, err, ready_at_url)
        before = err.read_text()
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C in its terminal (its process group): stopped quietly, in order
        assert proc.wait(timeout=60) == 0
        stopped = True
        after = err.read_text()[len(before):]
        assert "Traceback" not in after and "KeyboardInterrupt" not in after, after
        assert any("meow: stopped" in line for line in lines), lines[-5:]
    finally:
        if not stopped:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(match=f"*{prefix}*", count=1000):
            client.delete(key)
        client.close()


def _up(run: Run) -> None:
    deadline = time.monotonic() + BOUND_S  # gunicorn's start, generously (a loaded machine)
    while time.monotonic() < deadline and run.proc.poll() is None:
        try:
            requests.get(run.url, timeout=2)
            return
        except requests.RequestException:
            time.sleep(0.2)


def test_meow_run_prints_the_url_of_the_page(meow_run: Run) -> None:
    assert meow_run.url == f"http://127.0.0.1:{meow_run.port}/"
    assert meow_run.lines[0].startswith("meow: starting"), meow_run.lines[:3]  # at once, before anything starts
    assert meow_run.ready_at_url  # the address comes only once the API answers /readyz
    _up(meow_run)
    page = requests.get(meow_run.url, timeout=5)
    assert page.status_code == 200 and 'src="/web/app.js"' in page.text
    assert requests.get(f"{meow_run.url}web/app.js", timeout=5).headers["Content-Type"].startswith("text/javascript")


def _children(run: Run) -> dict[str, int]:
    import json

    return dict(json.loads((run.folder / "var" / "run.json").read_text())["children"])


def test_a_worker_that_dies_is_started_again_while_the_api_answers(meow_run: Run) -> None:
    _up(meow_run)
    before = _children(meow_run)
    os.kill(before["webhook worker 1"], signal.SIGKILL)
    deadline = time.monotonic() + BOUND_S
    while time.monotonic() < deadline and _children(meow_run).get("webhook worker 1") in (None, before["webhook worker 1"]):
        assert requests.get(f"{meow_run.url}readyz", timeout=5).status_code == 200  # the API stays up meanwhile
        time.sleep(0.2)
    after = _children(meow_run)
    assert after["webhook worker 1"] != before["webhook worker 1"], "the killed worker was not started again"
    assert {k: v for k, v in after.items() if k != "webhook worker 1"} == \
        {k: v for k, v in before.items() if k != "webhook worker 1"}  # nothing else was restarted
    said = [line for line in meow_run.err.read_text().splitlines() if line.startswith("meow: webhook worker 1")]
    assert len(said) == 1 and "starting it again" in said[0], said
    assert meow_run.proc.poll() is None


def _sh_blocks(doc: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", (DOCS / doc).read_text(encoding="utf-8"), flags=re.S)


class Shell:
    """The docs' commands in a shell beside the running service: `meow` on PATH, the folder of
    `meow run`, and none of the service's settings in the environment."""

    def __init__(self, run: Run, tmp: Path) -> None:
        bin_dir = tmp / "bin"
        bin_dir.mkdir()
        shim = bin_dir / "meow"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m service.cli "$@"\n', encoding="utf-8")
        shim.chmod(0o755)
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("REDIS_URL", "MEOW_KEY_PREFIX", "MEOW_QUEUE", "MEOW_QUEUE_URL", "MEOW_DATA_DIR")}
        self.env.update(PATH=f"{bin_dir}:{os.environ.get('PATH', '')}", PYTHONPATH=ROOT)
        self.run = run

    def __call__(self, command: str, **env: str) -> str:
        done = subprocess.run(["bash", "-c", command], cwd=self.run.folder, env={**self.env, **env},
                              capture_output=True, text=True, timeout=BOUND_S, check=False)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        return done.stdout

    def popen(self, command: str, **env: str) -> subprocess.Popen[str]:
        return subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=self.run.folder, env={**self.env, **env},
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)


def _me(run: Run, secret: str) -> int:
    return requests.get(f"{run.url}v1/keys/me", headers={"Meow-Key": secret}, timeout=10).status_code


def test_the_docs_commands_work_as_written_beside_meow_run(meow_run: Run, tmp_path: Path) -> None:
    _up(meow_run)
    sh = Shell(meow_run, tmp_path)
    # docs/integrators.md: the operator's four commands, in the order given
    keys = [line for block in _sh_blocks("integrators.md") for line in block.splitlines() if line.startswith("meow keys")]
    assert [line.split()[2] for line in keys] == ["create", "list", "rotate", "revoke"], keys
    example_id = re.search(r"\bk[0-9a-f]{10}\b", keys[2])
    assert example_id is not None
    created = sh(keys[0])
    key_id, secret = created.split()[0], re.search(r"\bmeow_k[0-9a-f]{10}_\S+", created)
    assert secret is not None and key_id in secret.group(0)
    assert _me(meow_run, secret.group(0)) == 200  # written to the running service's store
    assert key_id in sh(keys[1])
    rotated = re.search(r"\bmeow_k[0-9a-f]{10}_\S+", sh(keys[2].replace(example_id.group(0), key_id)))
    assert rotated is not None and _me(meow_run, rotated.group(0)) == 200 and _me(meow_run, secret.group(0)) == 401
    assert "revoked" in sh(keys[3].replace(example_id.group(0), key_id))
    assert _me(meow_run, rotated.group(0)) != 200

    # docs/arenas.md: one more arena worker, then its curl commands (the API on this run's port)
    fresh = re.search(r"\bmeow_k[0-9a-f]{10}_\S+", sh(keys[0]))
    assert fresh is not None
    key = fresh.group(0)
    arenas = (DOCS / "arenas.md").read_text(encoding="utf-8")
    worker_cmd = re.search(r"`(meow worker --queues arena)`", arenas)
    assert worker_cmd is not None
    block = next(b for b in _sh_blocks("arenas.md") if "/v1/arenas" in b)
    curls = [c.strip() for c in re.split(r"\n(?=curl )", block.replace("localhost:8000", f"localhost:{meow_run.port}"))]
    create = "\n".join(line for line in curls[0].splitlines() if not line.startswith("#"))
    feed = next(c for c in curls if "/feed" in c)
    worker = sh.popen(worker_cmd.group(1))
    watch = None
    try:
        import json

        arena = json.loads(sh(create, KEY=key))
        assert arena["status"] == "running", arena
        watch = sh.popen(re.sub(r"ar[0-9a-f]*\.\.\.", arena["id"], feed), KEY=key)
        progressed = _first_progress(watch)
        assert progressed, "the arena played no game on the docs' worker"
        requests.delete(f"{meow_run.url}v1/arenas/{arena['id']}", headers={"Meow-Key": key}, timeout=10)
    finally:
        for proc in (watch, worker):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


def _first_progress(feed: subprocess.Popen[str]) -> bool:
    """Whether the arena's feed (curl -sN) shows a game's progress (a game played on the docs' worker:
    `meow run` here has no arena worker of its own)."""
    found = threading.Event()

    def read() -> None:
        for line in feed.stdout or ():
            if line.startswith("event: progress"):
                found.set()
                return

    threading.Thread(target=read, daemon=True).start()
    return found.wait(BOUND_S)
