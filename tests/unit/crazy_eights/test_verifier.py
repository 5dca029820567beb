"""Crazy Eights' independent verifier module (service/games/crazy_eights/verifier.py) follows the
stock and the discard pile: the ``stock`` shuffle after a turned-up eight went back and a
``discard`` reshuffle are both re-derived from the record, and a re-stacked one is named."""
from __future__ import annotations

import copy
from collections.abc import Iterator

from service.verifier.check import Result, check_seeds
from tests.conformance.drive import Profile, Table
from tests.conformance.mixes import mix_for, with_options


def _histories() -> Iterator[list[dict]]:
    """Two-seat bot matches long enough to empty the stock, as history records (no chain links:
    check_seeds reads neither)."""
    mix = with_options(mix_for("crazy-eights", 2, 0), reshuffle=True, max_draw_cards=52, max_turns=1000)
    for seed in range(60):
        table = Table(mix, seed, Profile(bot_share=1.0))
        table.play()
        yield [{"seq": e.seq, "type": e.type, "round": e.round, "seat": e.seat, "data": dict(e.data),
                "private": {str(s): dict(p) for s, p in e.to_seat.items()}, "secret": dict(e.secret)}
               for e in table.events]


def _first_with(what: str, histories: list[list[dict]]) -> tuple[list[dict], int]:
    for events in histories:
        at = next((i for i, e in enumerate(events) if e["type"] == "ShuffleCommitted" and e["data"]["what"] == what), None)
        if at is not None:
            return events, at
    raise AssertionError(f"no {what!r} shuffle in {len(histories)} matches")


def test_the_stock_and_discard_shuffles_are_re_derived_and_a_restacked_one_is_named() -> None:
    histories: list[list[dict]] = []
    for events in _histories():
        histories.append(events)
        whats = {e["data"]["what"] for h in histories for e in h if e["type"] == "ShuffleCommitted"}
        if {"stock", "discard"} <= whats:
            break
    for what in ("stock", "discard"):
        events, at = _first_with(what, histories)
        clean = Result()
        check_seeds(events, clean)
        assert clean.findings == [] and not any(f"'{what}'" in n for n in clean.notes), (clean.findings, clean.notes)
        restacked = copy.deepcopy(events)
        order = restacked[at]["secret"]["order"]
        k = next(i for i in range(1, len(order)) if order[i] != order[0])
        order[0], order[k] = order[k], order[0]
        out = Result()
        check_seeds(restacked, out)
        assert out.first is not None and out.first.seq == events[at]["seq"] and out.first.check == "permutation", \
            out.findings
