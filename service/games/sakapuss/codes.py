"""Sakapuss' own refusals (§6.4-§6.5: sealed pass steps and slap races); the shared ones are the
kernel's (service/games/kernel/codes.py)."""
from __future__ import annotations

from service.games.kernel.codes import DomainCode, retry_later


class SakapussCode(DomainCode):
    ALREADY_PASSED = "already_passed"  # one sealed submission per seat and step
    INVALID_SEEN_STEP = "invalid_seen_step"
    KIND_NOT_IN_HAND = "kind_not_in_hand"
    NOT_PASSING = "not_passing"  # K-6: a slap while no round is passing (RESOLVE, ROUND_OVER, INTERMISSION)
    RACE_CLOSED = "race_closed"  # the slap window has closed
    WRONG_STEP = "wrong_step"  # a pass for a step that is not the open one


retry_later(SakapussCode.ALREADY_PASSED, SakapussCode.NOT_PASSING, SakapussCode.RACE_CLOSED, SakapussCode.WRONG_STEP)
