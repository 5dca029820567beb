"""A seat's actions in Sakapuss (RULES §6.4), as commands for decide."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import InitVar, dataclass
from types import MappingProxyType

from service.games.kernel.codes import KernelCode
from service.games.kernel.commands import Recorded
from service.games.kernel.model import RuleViolation

CAT = "cat:"
"""A cat card's id in a hand (``you.hand``) is this prefix and its kind: ``cat:k2``."""


def cat_id(kind: str) -> str:
    """The hand card id of a cat of ``kind``."""
    return f"{CAT}{kind}"


@dataclass(frozen=True, slots=True)
class PassCard:
    """Sakapuss §6.4(1): a sealed pass of one cat ``kind`` in pass step ``step``.

    ``card`` (optional) names the same cat by its hand card id, as the legal action lists it
    (docs/clients.md): it must agree with ``kind`` (else ``invalid_action``) and is not recorded,
    so a recorded PassCard keeps its fields (seat, kind, step)."""

    seat: int
    kind: str
    step: int
    card: InitVar[str | None] = None

    def __post_init__(self, card: str | None) -> None:
        if card is not None and card != cat_id(self.kind):
            raise RuleViolation(KernelCode.INVALID_ACTION, "the card is not a cat of the kind passed")


@dataclass(frozen=True, slots=True)
class Slap:
    """Sakapuss §6.4(3): a slap; ``seen_step`` is the last resolved step the client had seen."""

    seat: int
    seen_step: int


ACTIONS: dict[str, type] = {"pass_card": PassCard, "slap": Slap}
"""The wire name of each action (API.md ``{"type": ...}``) and its command."""
RACE_TOLERANT = frozenset({"slap", "pass_card"})
"""Actions taken without a version precondition: simultaneous by nature (§6.4)."""
COMMANDS: Mapping[str, Recorded] = MappingProxyType({"PassCard": Recorded(PassCard), "Slap": Recorded(Slap)})
"""Each command's recorded wire name and version (DESIGN rule 11): histories store these names, so
a class may be renamed freely; a changed field set is a new version with an upcaster."""
