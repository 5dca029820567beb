"""What every game's decide shares: the seed source, committed shuffles, MatchCreated.

Each game keeps its own emitter (``Tx``) because it folds with its own ``evolve``; both
subclass ``SeedTx`` and get these steps from here, written once.
"""
from __future__ import annotations

from typing import Any, Protocol

from service.games.kernel import randomness
from service.games.kernel.model import Context, CreateMatch, Event, NeedMoreSeeds, RuleViolation


class Emitter(Protocol):
    state: Any

    def emit(self, type_: str, seat: int | None, data: Any, to_seat: Any = ..., secret: Any = ...,
             round_: int | None = None) -> None: ...

    def next_seed(self) -> bytes: ...


class SeedTx:
    """One decide call: the working state, the events so far, the fresh seeds left (§2.3)."""

    __slots__ = ("state", "events", "at", "seeds", "seed_i", "auto")

    def __init__(self, state: Any, ctx: Context) -> None:
        self.state = state
        self.events: list[Event] = []
        self.at = ctx.now
        self.seeds = ctx.seeds
        self.seed_i = 0
        self.auto: int | None = None  # §2.7: the seat whose actions the server performs now

    def next_seed(self) -> bytes:
        """§2.3: every shuffle consumes the next fresh seed of the context."""
        if self.seed_i >= len(self.seeds):
            raise NeedMoreSeeds(self.seed_i + 1)
        seed = self.seeds[self.seed_i]
        self.seed_i += 1
        return seed


def shuffle(tx: Emitter, what: str, cards: tuple[str, ...], **extra: Any) -> tuple[str, ...]:
    """§2.3 commit, record, reveal: ShuffleCommitted with the seed and order kept secret."""
    seed = tx.next_seed()
    order = randomness.shuffled(seed, cards, "shuffle")
    data = {"what": what, "count": len(cards), "commitment": randomness.commitment(seed),
            "algorithm": randomness.ALGORITHM, **extra}
    tx.emit("ShuffleCommitted", None, data, secret={"seed": seed.hex(), "order": list(order)})
    return order


# The behaviour version a new match is played under, recorded in its MatchCreated. A rules fix that
# would change what an old history decides applies from the version that introduced it; a history
# without the field is version 1 and replays (and verifies) as it was played.
#   2: a voluntary draw under draw_then_continue keeps the move even when nothing could be drawn
#      (RULES §4.5.4, §3.6); the jack-finish doubling needs jack_wild (§8.1, jack_ends_round_doubles)
RULES_VERSION = 2


def create(tx: Emitter, cmd: CreateMatch) -> None:
    """§2.3: MatchCreated commits to the match seed (ctx.seeds[0]) and names the rules version."""
    if tx.state is not None:
        raise RuleViolation("already_exists", "the match already exists")
    seed = tx.next_seed()
    data = {
        "game_id": cmd.game_id, "variant": cmd.variant, "name": cmd.name,
        "options": dict(cmd.options), "max_players": cmd.max_players, "creator": None,
        "match_seed_commitment": randomness.commitment(seed), "algorithm": randomness.ALGORITHM,
    }
    if not 1 <= cmd.rules_version <= RULES_VERSION:
        raise RuleViolation("invalid_request", f"no rules version {cmd.rules_version}")
    if cmd.rules_version > 1:  # version 1 histories never carried the field: replay them byte for byte
        data["rules_version"] = cmd.rules_version
    tx.emit("MatchCreated", None, data, secret={"match_seed": seed.hex()})


def require_scoring(m: Any, round_no: int) -> None:
    """§2.8 step 2: a scoring job acts only while that round waits in ROUND_OVER."""
    if m.status != "running" or m.rnd is None or m.rnd.phase != "scoring" or round_no != m.round_no:
        raise RuleViolation("nothing_to_do", "no round waits to be scored")


def require_intermission(m: Any, round_no: int) -> None:
    """§2.8 step 5: a deal job acts only from INTERMISSION into the next round."""
    if m.status != "running" or m.rnd is None or m.rnd.phase != "intermission" or round_no != m.round_no + 1:
        raise RuleViolation("nothing_to_do", "no round waits to be dealt")
