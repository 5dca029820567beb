"""UNO's call and catch on the kernel's mechanism (kernel/catch.py), with ``uno_call`` on: a play
that leaves one card opens a window (called when the play or the draw that played it carried
``announce``); any seat of the hand may catch an uncalled window (``challenge{target}``) until the
next seat action closes it — the next player begins — and the caught seat draws two. A wrong catch
costs nothing. Off (RLCard's rules, the default) there is no call, no window and no catch."""
from __future__ import annotations

from typing import Any

from service.games.kernel.catch import CHALLENGE_MADE, CallWindow, CatchRule, Challenge, Verdict
from service.games.kernel.codes import KernelCode
from service.games.uno.state import PLAY, UnoMatch

PENALTY = 2
"""The cards a caught seat draws (the published rules: two)."""


def calls(m: UnoMatch) -> bool:
    """Whether the table plays the call (``uno_call``; absent in histories from before the option)."""
    return bool(m.options.get("uno_call", False))


def rule(m: UnoMatch) -> CatchRule:
    """The catch rule of the table: two cards by catch only, no cost for a wrong catch, no grace."""
    return CatchRule(penalty=PENALTY, by_catch=calls(m))


def opened(m: UnoMatch, data: Any, seat: int, at: int, seq: int) -> CallWindow | None:
    """The window a CardPlayed leaves: open when the seat has one card left (and the table calls)."""
    if not calls(m) or data["hand_size"] != 1:
        return None
    return CallWindow(seat, at, seq, bool(data.get("announce")))


def catches(m: UnoMatch, seat: int) -> list[dict[str, Any]]:
    """``challenge{target}`` for the open window of another seat (a seat dealt in, still playing)."""
    rnd = m.rnd
    if rnd is None or rnd.phase != PLAY or seat not in rnd.seats or m.seats[seat].state != "active":
        return []
    return rule(m).catches((rnd.window,), seat)


def judge(m: UnoMatch, cmd: Challenge) -> Verdict | tuple[KernelCode, str]:
    """The catch, or (refusal code, detail)."""
    if not calls(m):
        return KernelCode.INVALID_ACTION, "this table plays without the UNO call (uno_call)"
    rnd = m.rnd
    if rnd is None or rnd.phase != PLAY:
        return KernelCode.WINDOW_CLOSED, "no hand is being played"
    if m.seats[cmd.seat].state != "active":
        return KernelCode.WRONG_PHASE, f"seat {cmd.seat} is not playing this hand"
    verdict = rule(m).judge((rnd.window,), cmd.seat, cmd.target)
    if isinstance(verdict, Verdict):
        return verdict
    detail = {KernelCode.WINDOW_CLOSED: f"seat {cmd.target} has no open UNO window",
              KernelCode.ALREADY_CHALLENGED: f"you have already caught at seat {cmd.target}"}
    return verdict, detail.get(verdict, "a seat cannot catch itself")


__all__ = ["CHALLENGE_MADE", "PENALTY", "calls", "catches", "judge", "opened", "rule"]
