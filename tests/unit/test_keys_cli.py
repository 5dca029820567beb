"""`meow keys` (service/keys_cli.py) on the in-memory store: create prints the secret once, list
never does, rotate and revoke act on the key by id."""
from __future__ import annotations

import argparse
import json

import pytest

from service.app import api_keys
from service.eventstore.memory import MemoryEventStore
from service.keys_cli import add_parser, run
from service.settings import Settings


def _meow(store: MemoryEventStore, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="meow")
    add_parser(parser.add_subparsers(dest="cmd"))
    code = run(parser.parse_args(list(argv)), store=store, settings=Settings(max_api_keys=2))
    return code, capsys.readouterr().out


def test_create_list_rotate_revoke(capsys: pytest.CaptureFixture[str]) -> None:
    store = MemoryEventStore()
    code, out = _meow(store, capsys, "keys", "create", "acme", "--creates-per-minute", "7", "--json")
    made = json.loads(out)
    assert code == 0 and made["key"]["quotas"]["creates_per_minute"] == 7
    assert api_keys.resolve(store, made["secret"]) is not None
    code, out = _meow(store, capsys, "keys", "list")
    assert code == 0 and made["key"]["id"] in out and "creates_per_minute=7" in out and made["secret"] not in out
    code, out = _meow(store, capsys, "keys", "rotate", made["key"]["id"])
    assert code == 0 and "secret (shown once" in out and api_keys.resolve(store, made["secret"]) is None
    code, out = _meow(store, capsys, "keys", "revoke", made["key"]["id"])
    assert code == 0 and "revoked" in out and api_keys.all_keys(store)[0].active is False
    assert _meow(store, capsys, "keys", "rotate", "k0000000000")[0] == 1
    _meow(store, capsys, "keys", "create", "two")
    assert _meow(store, capsys, "keys", "create", "three")[0] == 1  # MEOW_MAX_API_KEYS (2 here)
