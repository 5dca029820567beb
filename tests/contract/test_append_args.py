"""append.lua and service/eventstore/append_args.py agree: the script names each KEYS[n] and each
ARGV[n] of the head on a line of its own (``local <name> = KEYS[n]``), and those names, read from
the script, are the fields of ``AppendKeys`` and ``AppendHead`` in order; the script reaches KEYS
and the head only through those names, and its variable part starts right after the head."""
from __future__ import annotations

import re
from importlib import resources

import fakeredis

from service.eventstore.append_args import AppendArgs, AppendHead, AppendKeys
from service.eventstore.contract import AppendRequest, FollowUp, IdemWrite, Listing
from service.eventstore.keys import Keys
from service.eventstore.redis_store import RedisEventStore
from tests.contract.helpers import evs, new_gid

NAMED = re.compile(r"^local (\w+) = (?:tonumber\()?(KEYS|ARGV)\[(\d+)\]\)?$", re.M)
ANY_INDEX = re.compile(r"\b(KEYS|ARGV)\[")
FIRST_VARIABLE = re.compile(r"^local i = (\d+)$", re.M)


def script() -> str:
    return resources.files("service.eventstore").joinpath("append.lua").read_text()


def named(lua: str, table: str) -> list[str]:
    """The names the script gives KEYS[1..] or ARGV[1..], in index order; the indexes must run 1..n."""
    found = sorted((int(n), name) for name, t, n in NAMED.findall(lua) if t == table)
    assert [n for n, _ in found] == list(range(1, len(found) + 1)), f"{table} indexes are not 1..n: {found}"
    return [name for _, name in found]


def disagreements(lua: str) -> list[str]:
    out = []
    for table, fields in (("KEYS", AppendKeys._fields), ("ARGV", AppendHead._fields)):
        names = named(lua, table)
        if names != list(fields):
            out.append(f"{table}: the script names {names}, append_args.py {list(fields)}")
    body = re.sub(r"--[^\n]*", "", NAMED.sub("", lua))  # the code without its named lines and comments
    if "KEYS[" in body:
        out.append("the script reaches KEYS by number outside its named lines")
    stray = {m.group(0) for m in re.finditer(r"ARGV\[(\d+)\]", body)}
    if stray:
        out.append(f"the script reaches the head of ARGV by number: {sorted(stray)}")
    start = FIRST_VARIABLE.search(lua)
    if not start or int(start.group(1)) != len(AppendHead._fields) + 1:
        out.append(f"the variable part of ARGV must start at {len(AppendHead._fields) + 1}")
    return out


def test_the_script_and_append_args_name_the_same_keys_and_head_in_the_same_order() -> None:
    lua = script()
    assert ANY_INDEX.search(lua)  # (the patterns see the script's indexes at all)
    assert disagreements(lua) == []


def test_a_planted_swap_or_stray_index_is_found() -> None:
    lua = script()
    swapped = lua.replace("local stream = KEYS[1]", "local stream = KEYS[2]").replace("local due = KEYS[2]",
                                                                                     "local due = KEYS[1]")
    assert disagreements(swapped) and "KEYS" in disagreements(swapped)[0]
    stray = lua.replace('redis.call("GET", idem)', 'redis.call("GET", KEYS[5])')
    assert disagreements(stray) == ["the script reaches KEYS by number outside its named lines"]
    head = lua.replace('if lobby_row ~= "" then', 'if ARGV[7] ~= "" then')
    assert disagreements(head) == ["the script reaches the head of ARGV by number: ['ARGV[7]']"]


def test_the_built_call_is_what_the_script_reads() -> None:
    """One append with every part, built by AppendArgs, read back through the script's own names."""
    gid = new_gid("a")
    req = AppendRequest(gid, 0, evs(1, 2), followups=[FollowUp("j", 7, {"game": gid})], tokens={"h": b"r"},
                        revoke=["old"], idem=IdemWrite("k", b"rec", 60), lobby=b"row",
                        listing=Listing("open", "prsi", 1000))
    call = AppendArgs.of(req)
    keys, head = call.keys(Keys("p")), call.head()
    assert keys.stream == Keys("p").stream(gid) and keys.idem == Keys("p").idem(gid, "k")
    assert keys.lobby_open_variant == Keys("p").lobby_index(gid[0], "open", "prsi")
    assert (head.event_count, head.followup_count, head.token_count, head.revoke_count) == (2, 1, 1, 1)
    argv = call.argv()
    assert argv[:len(head)] == list(head)
    assert argv[len(head) + 2:] == ["j", 7, b'{"game":"' + gid.encode() + b'"}', "h", b"r", "old", "1", "open", "", 1000]
    store = RedisEventStore(fakeredis.FakeRedis(), prefix="p")
    assert store.append(req).ok and store.token_get(gid, "h") == b"r"
    assert store.lobby_page("open", "prsi", None, 5) == [b"row"] and store.idem_get(gid, "k") == b"rec"
