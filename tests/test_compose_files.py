"""The compose files are valid Compose (the compose-spec parser, after YAML anchors and merge keys
are resolved as Compose resolves them), and hold together: every depends_on names a service, every
named volume is declared, the cluster file's services name a cluster and a queue Redis, and in both nginx
(deploy/nginx) is the only published service, in front of every API process, which trusts it alone."""
from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path

import pytest
import yaml
from compose_spec import PyCompose

from service.redis_urls import is_cluster

ROOT = Path(__file__).resolve().parents[1]
FILES = ["docker-compose.yml", "docker-compose.cluster.yml"]


def _load(name: str) -> dict:
    return yaml.safe_load((ROOT / name).read_text())


@pytest.mark.parametrize("name", FILES)
def test_the_compose_file_is_valid_compose(name: str) -> None:
    data = _load(name)
    parsed = PyCompose.from_json(json.dumps(data))
    assert parsed.service_names() == list(data["services"])
    declared = set(data.get("volumes") or {})
    for svc, spec in data["services"].items():
        assert "image" in spec or "build" in spec, svc
        for dep in spec.get("depends_on") or {}:
            assert dep in data["services"], f"{svc} depends on unknown {dep}"
        for vol in spec.get("volumes") or []:
            source = vol.split(":", 1)[0]
            assert source.startswith(("/", ".")) or source in declared, f"{svc}: undeclared volume {source}"


def test_a_broken_compose_file_is_refused() -> None:
    with pytest.raises(ValueError):
        PyCompose.from_json(json.dumps({"services": {"api": {"image": "x", "ports": 8000}}}))


def test_the_cluster_file_runs_the_fleet_shape() -> None:
    data = _load("docker-compose.cluster.yml")["services"]
    nodes = [n for n, s in data.items() if "--cluster-enabled" in (s.get("command") or [])]
    init = data["cluster-init"]["command"]
    replicas = int(init[init.index("--replicas") + 1])
    # three primaries, each with two replicas: a primary lost leaves its promoted replica one to wait for
    assert replicas == 2 and len(nodes) == 3 * (1 + replicas)
    assert [a for a in init if a.endswith(":6379")] == [f"{n}:6379" for n in nodes]
    assert all(data[n].get("restart") == "unless-stopped" for n in nodes)  # a crashed node rejoins
    primaries = nodes
    meow = {n: s for n, s in data.items() if "build" in s and n != "cluster-init"}
    assert sum(n.startswith("api") for n in meow) == 2 and sum(n.startswith("worker") for n in meow) == 2
    for name, spec in meow.items():
        env = spec["environment"]
        assert is_cluster(env["REDIS_URL"]) and not is_cluster(env["MEOW_QUEUE_URL"]), name
        assert all(f"{p}:6379" in env["REDIS_URL"] for p in primaries)
        assert _default(env["MEOW_WAIT_REPLICAS"]) == "1", name  # a write waits for a replica by default


def _default(value: str) -> str:
    """The default of a Compose interpolation such as ``${NAME:-default}``."""
    m = re.fullmatch(r"\$\{\w+:-(.*)\}", value)
    return m.group(1) if m else value


@pytest.mark.parametrize("name", FILES)
def test_nginx_is_the_only_way_in_and_the_api_trusts_it_alone(name: str) -> None:
    """Issue 25: a reverse proxy in front (deploy/nginx), the API no longer on the network itself."""
    data = _load(name)
    services = data["services"]
    apis = {n: s for n, s in services.items() if "gunicorn" in " ".join(s.get("command") or [])}
    assert apis, name
    published = {n for n, s in services.items() if s.get("ports")}
    assert published == {"nginx"}, f"{name}: only nginx is published, not {published - {'nginx'}}"
    proxy = services["nginx"]
    mounts = dict(v.split(":")[:2] for v in proxy["volumes"])
    assert {"/etc/nginx/conf.d/default.conf", "/etc/nginx/conf.d/upstream.conf"} == set(mounts.values())
    for source in mounts:
        assert (ROOT / source).is_file(), f"{name}: {source} is not in the repository"
    upstream = next(s for s, target in mounts.items() if target.endswith("upstream.conf"))
    assert set(re.findall(r"server ([\w-]+):8000;", (ROOT / upstream).read_text())) == set(apis)
    assert set(proxy["depends_on"]) == set(apis)
    address = proxy["networks"]["default"]["ipv4_address"]
    subnet = data["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    for api, spec in apis.items():
        trusted = [ipaddress.ip_network(t) for t in _default(spec["environment"]["MEOW_TRUSTED_PROXIES"]).split(",")]
        assert trusted == [ipaddress.ip_network(f"{address}/32")], f"{name}: {api} must trust nginx alone"
