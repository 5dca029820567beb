"""§2.6(4), §2.7: the turn timer of the games whose seats take turns, once for all of them.

The one owner of the turn timer's key, ``turn-<round>-<turn id>``: ``turn_key`` writes it, and
firing compares against it. A game describes its turn timer as a ``TurnTimer`` (the phases a turn
runs in, when the timer is due, its default actions and how it plays one, how a seat leaves) and
keeps only what differs; ``TurnTimer.fire`` serves both the turn timer and the absence timer
(kernel/absence.py). Firing a timer whose turn or absence has closed, or before its due time, is
refused with ``nothing_to_do`` and changes nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from service.games.kernel.absence import fire_absence, marks_absent, plays_at_once
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Context, FireTimer, LeaveSeat, RuleViolation

TURN = "turn"
"""The first part of a turn timer's key."""


def turn_key(m: Any) -> str:
    """The key of the open turn's timer."""
    return f"{TURN}-{m.round_no}-{m.rnd.turn_id}"


def turn_due(m: Any) -> int | None:
    """When the open turn's timer may fire: its deadline, or the turn's start for an absent seat
    under default_actions (§2.7); None for a turn with no deadline."""
    rnd = m.rnd
    if plays_at_once(m, rnd.current):
        return rnd.turn_at
    return rnd.deadline


def _never_held(m: Any, seat: int, at: int) -> bool:
    return False


@dataclass(frozen=True)
class TurnTimer:
    """What differs between the games' turn timers."""

    phases: frozenset[str]  # the phases in which a seat's turn is open (and timed)
    due: Callable[[Any], int | None]  # when the open turn's timer may fire (``turn_due``, or deferred)
    default_action: Callable[[Any, int], Mapping[str, Any] | None]  # §2.7: the seat's default, or None
    act: Callable[[Any, int, Mapping[str, Any]], None]  # play an action object for the seat
    leave: Callable[[Any, LeaveSeat], None]  # how a removed seat leaves (§3.10)
    max_chain: int  # a turn ends after a few defaults: a guard, not a rule
    held: Callable[[Any, int, int], bool] = _never_held  # (state, seat, at): not yet, though due

    def fire(self, tx: Any, cmd: FireTimer) -> None:
        """§2.6(4): a turn timer plays the defaults (§2.7); an absence timer removes the seat (§3.10)."""
        m = tx.m
        key = cmd.key
        if m.status == "running" and isinstance(key, str):
            rnd = m.rnd
            if rnd is not None and rnd.phase in self.phases and key == turn_key(m):
                due = self.due(m)
                if due is None or tx.at < due or self.held(m, rnd.current, tx.at):
                    raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} is not due yet")
                self.time_out(tx, rnd.current, key)
                return
            if fire_absence(tx, key, self.leave):
                return
        raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key} has already closed")

    def time_out(self, tx: Any, seat: int, key: str) -> None:
        """§2.7: TimedOut naming the whole chain of defaults up front, then the defaults until the
        turn ends (one timeout); the one that reaches max_consecutive_timeouts marks the seat absent."""
        m = tx.m
        scratch = type(tx)(m, Context(tx.at, tx.seeds[tx.seed_i:]))
        chain = self.run_defaults(scratch, seat)  # a dry run
        if not chain:
            raise RuleViolation(KernelCode.NOTHING_TO_DO, f"{key}: no default action")
        tx.emit("TimedOut", seat, {"seat": seat, "turn_id": m.rnd.turn_id, "guarded": key,
                                   "default_action": chain[0], "chain": chain, **marks_absent(m, seat, tx.at)})
        tx.auto = seat
        self.run_defaults(tx, seat)
        tx.auto = None

    def run_defaults(self, tx: Any, seat: int) -> list[Mapping[str, Any]]:
        """§2.7 defaults, chained while the same turn of the same round stays open; never announces."""
        m = tx.m
        turn, round_no = m.rnd.turn_id, m.round_no
        done: list[Mapping[str, Any]] = []
        for _ in range(self.max_chain):
            m = tx.m
            rnd = m.rnd
            if (m.status != "running" or m.round_no != round_no or rnd.phase not in self.phases
                    or rnd.turn_id != turn or rnd.current != seat):
                break
            action = self.default_action(m, seat)
            if action is None:
                break
            self.act(tx, seat, action)
            done.append(action)
        return done
