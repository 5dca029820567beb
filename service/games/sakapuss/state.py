"""Frozen state of a Sakapuss match (RULES §6): table, chance deck, parasites, current round."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from service.games.kernel.state import INTERMISSION, SCORING, ScoreEntry, Seat, TableState, rep, round_of

PASSING = "passing"
SLAP_RACE = "slap_race"
LIVE = frozenset({PASSING, SLAP_RACE})

__all__ = [
    "INTERMISSION",
    "LIVE",
    "PASSING",
    "SCORING",
    "SLAP_RACE",
    "Race",
    "SRound",
    "SakapussMatch",
    "ScoreEntry",
    "Seat",
    "cards_in_play",
    "complete",
    "parasite_value",
    "rep",
    "round_of",
]


def complete(hand: tuple[str, ...] | None) -> bool:
    """§6.5.3: a hand is complete when its 4 cards are cats of one kind."""
    return hand is not None and len(hand) == 4 and hand[0] == hand[3] and len(set(hand)) == 1


def parasite_value(card: str) -> int:
    """§6.8: the number printed on a parasite card ``par:<kind>:<n>:<copy>``."""
    return int(card.split(":")[2])


@dataclass(frozen=True)
class Race:
    """§6.4(4): a slap race, numbered within its round."""

    id: int
    slaps: tuple[int, ...]  # seats in arrival order; slaps[0] is the first slapper
    first_seen_step: int
    deadline: int
    opened_seq: int
    opened_at: int
    discarded_step: int


@dataclass(frozen=True)
class SRound:
    """§6.5.2: the round in progress (or just ended). Hands hold cat kinds, sorted."""

    seats: tuple[int, ...]  # the seats dealt in, in seat order
    hands: Mapping[int, tuple[str, ...]]
    prev_hands: Mapping[int, tuple[str, ...]] | None  # H_{r-1} for the grace rule (§6.5.4)
    resolved: int  # resolved pass steps r; the open step is r + 1
    passes: Mapping[int, str]  # sealed submissions of the open step (server-private)
    auto: frozenset[int]  # seats auto-passed in the open step
    step_deadline: int | None
    step_opened_seq: int
    step_opened_at: int
    step_openings: int  # how often the open step has been (re)opened, minus one
    race: Race | None
    races: int  # races started in this round
    voided: int  # voided races (count towards the stalemate guard, §6.7)
    phase: str
    phase_seq: int
    phase_at: int
    end_reason: str | None = None
    winner: int | None = None
    # per seat, server-private: (kind passed, kind received) for every resolved step of the
    # round, oldest first; only the seat itself sees its own (private view, §7.5 belief tracking)
    log: Mapping[int, tuple[tuple[str, str], ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def step(self) -> int:
        return self.resolved + 1


@dataclass(frozen=True)
class SakapussMatch(TableState[SRound]):
    """The whole Sakapuss match: the table (``TableState``, its ``rnd`` the current round), its
    cats, chance deck and parasites; a fold of its events."""

    kinds: tuple[str, ...]  # cat kinds in play
    chance_deck: tuple[str, ...]  # index 0 is the top (server-private order)
    parasites: Mapping[int, tuple[str, ...]]  # per seat, in acquisition order (public)

    def parasite_total(self, seat: int) -> int:
        return sum(parasite_value(c) for c in self.parasites.get(seat, ()))


def race_of(rnd: SRound) -> Race:
    """``rnd.race`` where a slap race must be open: a slap, its timer and its view come only
    between RaceStarted and the race's end."""
    race = rnd.race
    assert race is not None, "no slap race is open"
    return race


def cards_in_play(m: SakapussMatch) -> Counter[str] | None:
    """Every card of the live round: the cats in the hands (a sealed pass stays in its hand until
    the step resolves) and the chance cards (deck and parasites held); None outside the passing
    and the races (the conformance suite checks it is constant)."""
    rnd = m.rnd
    if rnd is None or rnd.phase not in LIVE:
        return None
    out: Counter[str] = Counter(m.chance_deck)
    for hand in rnd.hands.values():
        out.update(f"cat:{kind}" for kind in hand)
    for held in m.parasites.values():
        out.update(held)
    return out
