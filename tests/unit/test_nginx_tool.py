"""tools/nginx.py and deploy/nginx/meow.conf: nginx is found where it is, a missing one is named with
what to install (make test prints this message), the repository's configuration is valid nginx, and
each of nginx's own refusals is the API's problem+json for its code (service/api/codes.py), with the
API's body limit (issue 25, item 1)."""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from service.api.codes import STATUS, ApiCode
from service.api.errors import problem_body
from service.api.refusals import RESPONSES
from service.settings import Settings
from tools import nginx

ROOT = Path(__file__).resolve().parents[2]
TEXT = nginx.CONF.read_text()


def test_a_given_nginx_is_used(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    fake = tmp_path / "nginx"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MEOW_NGINX", str(fake))
    assert nginx.find() == str(fake)


def test_a_missing_nginx_fails_saying_what_to_install(tmp_path: Path) -> None:
    env = dict(os.environ, MEOW_NGINX=str(tmp_path / "nowhere"), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "tools.nginx"], env=env, cwd=ROOT, capture_output=True, text=True,
                       check=False)
    assert r.returncode == 1
    assert r.stderr.strip() == nginx.MESSAGE
    assert "apt-get install -y nginx" in nginx.MESSAGE


def test_render_sets_the_listen_address_and_the_directives_named() -> None:
    out = nginx.render(TEXT, "127.0.0.1:9", client_body_timeout="2s", **{"limit_conn meow_prefix": "7"})
    assert "listen 127.0.0.1:9;" in out and "client_body_timeout 2s;" in out and "limit_conn meow_prefix 7;" in out
    assert "client_body_timeout 10s;" not in out and "limit_conn meow_address 128;" in out
    with pytest.raises(KeyError):
        nginx.render(TEXT, "127.0.0.1:9", no_such_directive="1")


def test_the_configuration_is_valid_nginx(tmp_path: Path) -> None:
    binary = nginx.find()
    assert binary is not None, nginx.MESSAGE
    r = subprocess.run([*nginx.command(binary, str(tmp_path), "127.0.0.1:9", "127.0.0.1:10"), "-t"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 0, r.stderr


def _refusals() -> dict[str, tuple[int, dict]]:
    """nginx's own refusals: each location's code (its name), the status and body it returns."""
    found = re.findall(r"location = /\.meow/(\w+) \{\s*internal;\s*default_type application/problem\+json;\s*"
                       r"return (\d+) '([^']*)';", TEXT)
    return {code: (int(status), orjson.loads(body)) for code, status, body in found}


def test_nginx_refuses_in_the_apis_problem_json_with_the_apis_codes() -> None:
    refusals = _refusals()
    pages = dict(re.findall(r"error_page (\d+) (?:=\d+ )?/\.meow/(\w+);", TEXT))
    assert set(pages.values()) == set(refusals)
    # what nginx itself answers: a broken request, too slow, too large, too many connections, no API
    assert {"400", "408", "413", "414", "494", "429", "502", "504"} <= set(pages)
    for code, (status, body) in refusals.items():
        assert code in STATUS, f"{code} is not a code of service/api/codes.py"
        assert status == STATUS[code]
        assert body == problem_body(status, ApiCode(code), body["detail"])
    # every proxy refusal is one a client may meet on every operation of the spec
    listed = {r.example.code for r in RESPONSES} | {"payload_too_large"}
    assert set(refusals) <= listed


def test_the_proxy_takes_the_apis_body_limit_and_counts_the_apis_prefixes() -> None:
    size = re.search(r"client_max_body_size (\d+)k;", TEXT)
    assert size is not None and int(size.group(1)) * 1024 == Settings().max_body_bytes
    assert re.search(r"proxy_set_header X-Forwarded-For \$remote_addr;", TEXT)
    assert Settings().prefix_v4 == 24 and Settings().prefix_v6 == 64  # the map's /24 and /64
