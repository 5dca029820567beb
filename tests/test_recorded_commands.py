"""Recorded commands are stored under wire names with versions (DESIGN rule 11, docs/audit.md).

A class may be renamed without touching a stored history; an old version is lifted by its game's
upcaster before decoding; an unknown name or a newer version fails verification closed. Every list
here is derived from the registry and the code (DESIGN rule 9), never written by hand.
"""
from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from types import MappingProxyType

import pytest

from service.app import audit, commands
from service.games import registry
from service.games.kernel import model
from service.games.kernel.commands import KERNEL, TABLE_COMMANDS, Recorded
from service.games.kernel.table import Rulebook
from service.verifier.check import verify as independent_verify
from tests.audit.goldens import GOLDENS, rechain


def _goldens() -> list[tuple[str, dict]]:
    return [(p.stem, json.loads(p.read_text())) for p in GOLDENS]



def _reachable_command_classes() -> set[type]:
    """Every command class the registry can reach: the table commands, each game's listed commands,
    its actions' commands and every class its Rulebook routes."""
    found = {r.command for r in TABLE_COMMANDS.values()}
    for g in registry.GAMES:
        found |= {r.command for r in g.commands.values()} | {a.command for a in g.actions.values()}
        book = getattr(g.decide, "__self__", None)
        if isinstance(book, Rulebook):
            found |= set(book.seat) | set(book.table)
    return found


def test_every_reachable_command_class_has_exactly_one_wire_name() -> None:
    classes = _reachable_command_classes()
    assert classes, "no command classes found through the registry"
    for cls in classes:
        names = [n for n, r in registry.RECORDED_COMMANDS.items() if r.command is cls]
        assert len(names) == 1, (cls.__qualname__, names)
        assert registry.COMMAND_NAMES[cls] == names[0]
    assert set(registry.COMMAND_NAMES) == classes  # and nothing is recorded that no game takes


def test_the_registry_refuses_a_name_for_two_classes_and_a_class_under_two_names() -> None:
    g = registry.GAMES[0]
    name, rec = next(iter(g.commands.items()))
    other = dataclasses.make_dataclass("Other", [("seat", int)], frozen=True)
    clash = dataclasses.replace(g, commands=MappingProxyType({**g.commands, name: Recorded(other)}))
    with pytest.raises(ValueError, match="means two things"):
        registry.collect_commands([g, clash])
    twice = dataclasses.replace(g, commands=MappingProxyType({**g.commands, name + "Again": rec}))
    with pytest.raises(ValueError, match="two names"):
        registry.collect_commands([twice])
    unlisted = dataclasses.replace(g, commands=MappingProxyType({n: r for n, r in g.commands.items() if n != name}))
    with pytest.raises(ValueError, match="no wire name"):
        registry.collect_commands([unlisted])
    kernel_name = next(iter(TABLE_COMMANDS))
    shadow = dataclasses.replace(g, commands=MappingProxyType({**g.commands, kernel_name: Recorded(other)}))
    with pytest.raises(ValueError, match="means two things"):
        registry.collect_commands([shadow])


def test_a_dataclass_added_to_the_kernel_model_is_not_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    planted = dataclasses.make_dataclass("PlantedCommand", [("seat", int)], frozen=True)
    planted.__module__ = model.__name__
    monkeypatch.setattr(model, "PlantedCommand", planted, raising=False)
    assert vars(model)["PlantedCommand"] is planted
    recorded, names = registry.collect_commands(registry.GAMES)
    assert planted not in names and "PlantedCommand" not in recorded
    with pytest.raises(ValueError, match="unregistered command"):
        commands.to_record(planted(0))


@pytest.fixture
def renamed_classes() -> Iterator[None]:
    """Every recorded command class renamed in place (monkeypatch cannot restore a type's names)."""
    old = {cls: (cls.__name__, cls.__qualname__) for cls in registry.COMMAND_NAMES}
    try:
        for cls, (name, qualname) in old.items():
            cls.__name__, cls.__qualname__ = f"Renamed{name}", f"Renamed{qualname}"
        yield
    finally:
        for cls, (name, qualname) in old.items():
            cls.__name__, cls.__qualname__ = name, qualname


def test_every_golden_verifies_with_every_command_class_renamed(renamed_classes: None) -> None:
    """Renaming a class changes nothing stored: every golden still replays and verifies."""
    for stem, golden in _goldens():
        for record in (e["command"] for e in golden["history"] if "command" in e):
            assert type(commands.from_record(record)).__name__ == "Renamed" + record["type"]
        report = audit.verify(golden["history"])
        assert report.ok, (stem, report.as_dict()["problems"][:2])
        assert report.final == golden["expected"], stem
        assert independent_verify(golden["history"]).first is None, stem
    cmd = model.JoinSeat("ann")
    assert type(cmd).__name__ == "RenamedJoinSeat" and commands.to_record(cmd)["type"] == "JoinSeat"
    assert registry.collect_commands(registry.GAMES)[1] == dict(registry.COMMAND_NAMES)  # as a fresh import


def test_a_record_without_a_version_is_version_1_and_new_records_carry_one() -> None:
    cmd = model.LeaveSeat(2)
    record = commands.to_record(cmd)
    assert record == {"type": "LeaveSeat", "v": 1, "seat": 2, "reason": "left"}
    old = {k: v for k, v in record.items() if k != "v"}
    assert commands.from_record(old) == commands.from_record(record) == cmd


@dataclasses.dataclass(frozen=True, slots=True)
class SealedPassCard:
    """A planted version 2 of a game command: a new required field."""

    seat: int
    kind: str
    step: int
    sealed_by: str


def _game_with_its_own_command() -> tuple[str, str, Recorded]:
    for g in registry.GAMES:
        for name, rec in g.commands.items():
            if all(rec is not o.commands.get(name) for o in registry.GAMES if o is not g):
                return g.name, name, rec
    raise AssertionError("no game has a command of its own")


def test_an_upcaster_decodes_a_version_1_record(monkeypatch: pytest.MonkeyPatch) -> None:
    game, name, rec = _game_with_its_own_command()
    fields = [f.name for f in dataclasses.fields(rec.command)]
    v2 = dataclasses.make_dataclass(f"{name}V2", [*fields, "added"], frozen=True)
    monkeypatch.setattr(commands, "COMMANDS", {**commands.COMMANDS, name: Recorded(v2, 2)})
    monkeypatch.setitem(commands.UPCASTERS, (game, name, 1), lambda f: {**f, "added": "default"})
    v1 = {"type": name, **{f: i for i, f in enumerate(fields)}}
    for record in (v1, {**v1, "v": 1}):
        assert commands.from_record(record, game) == v2(*range(len(fields)), "default")
    assert commands.from_record({**v1, "v": 2, "added": "x"}, game).added == "x"  # current: as is
    others = [g.name for g in registry.GAMES if g.name != game]
    for who in (None, *others):  # the upcaster is the game's own: another game's stream has none
        with pytest.raises(commands.UnreadableCommand, match="no upcaster"):
            commands.from_record(v1, who)


def test_a_table_commands_upcaster_is_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "JoinSeat"
    v1 = commands.to_record(model.JoinSeat("ann"))
    v2 = dataclasses.make_dataclass("JoinSeatV2", [*(f.name for f in dataclasses.fields(model.JoinSeat)), "lang"],
                                    frozen=True)
    monkeypatch.setattr(commands, "COMMANDS", {**commands.COMMANDS, name: Recorded(v2, 2)})
    monkeypatch.setitem(commands.UPCASTERS, (KERNEL, name, 1), lambda f: {**f, "lang": "cs"})
    for game in (None, *(g.name for g in registry.GAMES)):
        decoded = commands.from_record(v1, game)
        assert (decoded.name, decoded.lang) == ("ann", "cs")


def test_a_golden_with_old_command_records_verifies_through_its_upcaster(monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: a game's command stored in an older shape (a field under another name, re-chained)
    verifies once the current version is 2 and the game's upcaster renames the field back; the
    game is read from the replayed state."""
    game, name, rec = _game_with_its_own_command()
    stem, golden = next((s, g) for s, g in _goldens()
                        if any(e.get("command", {}).get("type") == name for e in g["history"]))
    field = dataclasses.fields(rec.command)[-1].name
    history = copy.deepcopy(golden["history"])
    for e in history:
        if e.get("command", {}).get("type") == name:
            e["command"][f"old_{field}"] = e["command"].pop(field)
    rechain(history)
    assert not audit.verify(history).ok  # the old shape does not fit the current class
    monkeypatch.setattr(commands, "COMMANDS", {**commands.COMMANDS, name: Recorded(rec.command, 2)})
    monkeypatch.setitem(commands.UPCASTERS, (game, name, 1),
                        lambda f: {**{k: v for k, v in f.items() if k != f"old_{field}"}, field: f[f"old_{field}"]})
    report = audit.verify(history)
    assert report.ok, (stem, report.as_dict()["problems"][:2])
    assert report.final == golden["expected"]


UNREADABLE = [
    (lambda c: {**c, "type": c["type"] + "Renamed"}, "unknown command"),
    (lambda c: {**c, "v": 99}, "newer than the known version"),
    (lambda c: {**c, "v": "1"}, "not a positive integer"),
    (lambda c: ["not", "an", "object"], "not an object"),
]


@pytest.mark.parametrize("edit, reason", UNREADABLE, ids=[r for _, r in UNREADABLE])
def test_an_unreadable_command_fails_verification_closed(edit, reason) -> None:
    """As the codec refuses an event it cannot read: a clear problem at that event, never a crash."""
    _stem, golden = _goldens()[0]
    history = copy.deepcopy(golden["history"])
    at = [i for i, e in enumerate(history) if "command" in e][len(history) // 40]
    history[at]["command"] = edit(history[at]["command"])
    with pytest.raises(commands.UnreadableCommand, match=reason):
        commands.from_record(history[at]["command"])
    report = audit.verify(rechain(history))
    assert not report.ok and report.first_bad() == history[at]["seq"], report.as_dict()["problems"]
    assert report.problems[0].check == "replay" and reason in report.problems[0].detail
    independent = independent_verify(history)
    assert independent.first is not None and independent.first.seq == history[at]["seq"], independent.findings
