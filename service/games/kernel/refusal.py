"""One refusal shape for every game's seat actions (RULES §2.6(2)): a ``RuleViolation`` that
carries the caller's legal actions, built the same way and with the same arguments everywhere."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from service.games.kernel.codes import DomainCode
from service.games.kernel.model import RuleViolation

LegalActions = Callable[[Any, int, int], list[dict[str, Any]]]


class Refuse(Protocol):
    def __call__(self, m: Any, seat: Any, now: int, code: DomainCode, detail: str) -> RuleViolation: ...


def refuser(legal_actions: LegalActions) -> Refuse:
    """A game's ``refuse(m, seat, now, code, detail)``: the refusal with ``legal_actions(m, seat, now)``
    (none for a command that names no seat, such as an unknown one)."""

    def refuse(m: Any, seat: Any, now: int, code: DomainCode, detail: str) -> RuleViolation:
        """§2.6(2): a refusal carrying the caller's legal actions."""
        if not isinstance(code, DomainCode):  # before legal_actions, which may not survive a bad call
            raise TypeError(f"{code!r} is not a declared DomainCode member")
        return RuleViolation(code, detail, legal_actions=legal_actions(m, seat, now) if isinstance(seat, int) else [])

    return refuse
