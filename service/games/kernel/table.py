"""What every game's decide shares: MatchCreated, seat admission, the phase guards of the
follow-up jobs, and the skeleton that routes a command to the game's handlers."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from service.games.kernel import randomness
from service.games.kernel.codes import KernelCode
from service.games.kernel.model import Autopilot, Context, CreateMatch, Event, JoinSeat, RuleViolation
from service.games.kernel.state import INTERMISSION, SCORING
from service.games.kernel.tx import Tx

# The behaviour version a new match is played under, recorded in its MatchCreated. A rules fix that
# would change what an old history decides applies from the version that introduced it; a history
# without the field is version 1 and replays (and verifies) as it was played.
#   2: a voluntary draw under draw_then_continue keeps the move even when nothing could be drawn
#      (RULES §4.5.4, §3.6); the jack-finish doubling needs jack_wild (§8.1, jack_ends_round_doubles)
#   3: under announce_mode = flag_only, only the flag on the play that triggers the obligation
#      counts (RULES §3.8.2): a flag on a later draw, pass or ace follow-up no longer satisfies it
#   4: UNO's `uno` preset plays the printed rules where RLCard's differ (docs/games/uno.md): a draw two
#      or wild draw four that goes out still makes the next player draw (the cards count in the
#      score), and a reshuffle keeps the top card on the table (`uno-rlcard` stays RLCard's)
RULES_VERSION = 4


def create(tx: Tx, cmd: CreateMatch) -> None:
    """§2.3: MatchCreated commits to the match seed (ctx.seeds[0]) and names the rules version."""
    if tx.state is not None:
        raise RuleViolation(KernelCode.ALREADY_EXISTS, "the match already exists")
    seed = tx.next_seed()
    data = {
        "game_id": cmd.game_id, "variant": cmd.variant, "name": cmd.name,
        "options": dict(cmd.options), "max_players": cmd.max_players, "creator": None,
        "match_seed_commitment": randomness.commitment(seed), "algorithm": randomness.ALGORITHM,
    }
    if not 1 <= cmd.rules_version <= RULES_VERSION:
        raise RuleViolation(KernelCode.INVALID_REQUEST, f"no rules version {cmd.rules_version}")
    if cmd.rules_version > 1:  # version 1 histories never carried the field: replay them byte for byte
        data["rules_version"] = cmd.rules_version
    tx.emit("MatchCreated", None, data, secret={"match_seed": seed.hex()})


def round_jobs(score_round: Callable[[Any], None],
               deal_round: Callable[[Any, int], None]) -> tuple[Callable[[Any, Any], None], Callable[[Any, Any], None]]:
    """The ScoreRound and DealRound handlers of a game, from its scoring and its deal."""
    def score(tx: Any, cmd: Any) -> None:
        """§2.8 step 2: the scoring job, only while the round waits in ROUND_OVER."""
        require_scoring(tx.state, cmd.round)
        score_round(tx)

    def deal(tx: Any, cmd: Any) -> None:
        """§2.8 step 5: the deal job, only from INTERMISSION into the next round."""
        require_intermission(tx.state, cmd.round)
        deal_round(tx, cmd.round)

    return score, deal


def require_scoring(m: Any, round_no: int) -> None:
    """§2.8 step 2: a scoring job acts only while that round waits in ROUND_OVER."""
    if m.status != "running" or m.rnd is None or m.rnd.phase != SCORING or round_no != m.round_no:
        raise RuleViolation(KernelCode.NOTHING_TO_DO, "no round waits to be scored")


def require_intermission(m: Any, round_no: int) -> None:
    """§2.8 step 5: a deal job acts only from INTERMISSION into the next round."""
    if m.status != "running" or m.rnd is None or m.rnd.phase != INTERMISSION or round_no != m.round_no + 1:
        raise RuleViolation(KernelCode.NOTHING_TO_DO, "no round waits to be dealt")


BOT_STRENGTHS: tuple[str, ...] = ("easy", "medium", "hard")
"""Bot strengths of the §7.2 ladder (each game's bots/: easy, medium, hard)."""
REMOTE = "remote"
"""The strength of a bot seat played from outside, by a registered remote bot (service/app/remote_bots.py):
the rules treat it as any bot seat; its moves come from the bot's server, and while that server is away
the seat plays as an absent seat's autopilot (the game's ``easy`` bot, which is what an unknown strength gets)."""


def admit(m: Any, cmd: JoinSeat, closed: str | None, seated: int) -> tuple[int, str | None, bool]:
    """§3.10 / K-16 joining, for every game: (seat, bot strength, creator) or a refusal.

    ``closed`` says why the table takes no seats now (None while it does); ``seated`` counts the
    seats that hold a place at the table."""
    if cmd.creator and any(s.creator and s.state != "left" for s in m.seats):
        raise RuleViolation(KernelCode.ALREADY_SEATED, "the owner already has a seat")
    if closed is not None:
        raise RuleViolation(KernelCode.JOINING_CLOSED, closed)
    if seated >= m.max_players:
        raise RuleViolation(KernelCode.GAME_FULL, "the table is full")
    if cmd.kind not in ("human", "bot"):
        raise RuleViolation(KernelCode.INVALID_REQUEST, "kind must be human or bot")
    strength = None
    if cmd.kind == "bot":
        strength = m.options["bot_strength"] if cmd.strength is None else cmd.strength  # "" is no strength
        if strength not in BOT_STRENGTHS and strength != REMOTE:
            raise RuleViolation(KernelCode.INVALID_OPTION, f"unknown bot strength {strength!r}",
                                reason="unknown_strength",
                                errors=[{"option": "strength", "detail": "unknown_strength"}])
    creator = bool(cmd.creator) and cmd.kind == "human" and not any(s.creator for s in m.seats)
    return len(m.seats), strength, creator


def seat_taken(events: Sequence[Event]) -> int:
    """§3.10: the seat a ``JoinSeat`` took. Every game's join emits the event that takes the seat
    first, naming the seat (``SeatJoined``, or a game's own: a seat that waits for the next deal)."""
    first = events[0]
    return first.seat if first.seat is not None else int(first.data["seat"])


def seat_exists(m: Any, seat: Any) -> None:
    """A command naming a seat needs one that exists and has not left."""
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation(KernelCode.NOT_FOUND, f"no seat {seat}")
    if m.seats[seat].state == "left":
        raise RuleViolation(KernelCode.SEAT_LEFT, f"seat {seat} has left")


class Decided(NamedTuple):
    """What decide hands back: the events of the command and the state they fold to."""

    events: tuple[Event, ...]
    state: Any  # the game's own state class (a TableState)


Step = Callable[[Any, Any], None]


@dataclass(frozen=True)
class Rulebook:
    """A game's decide: its emitter and the handler of each command it knows (DESIGN rule 1).

    ``seat`` commands and ``Autopilot`` pass ``check_seat`` first; anything else is a table
    command or refused by ``unknown`` (which may attach the caller's legal actions)."""

    tx: type[Tx]
    seat: Mapping[type, Step]
    table: Mapping[type, Step]
    check_seat: Callable[[Any, Any], None]
    autopilot: Step
    unknown: Callable[[Any, Any, int], RuleViolation]

    def decide(self, state: Any, command: Any, ctx: Context) -> Decided:
        """Validate a command against the state and return its events and their fold."""
        tx = self.tx(state, ctx)
        if isinstance(command, CreateMatch):
            create(tx, command)
        elif state is None:
            raise RuleViolation(KernelCode.NOT_FOUND, "no such match")
        else:
            fn = self.seat.get(type(command))
            if fn is not None:
                self.check_seat(state, command.seat)
                fn(tx, command)
            elif isinstance(command, Autopilot):
                self.check_seat(state, command.seat)
                self.autopilot(tx, command)
            else:
                fn = self.table.get(type(command))
                if fn is None:
                    raise self.unknown(state, command, ctx.now)
                fn(tx, command)
        return Decided(tuple(tx.events), tx.state)


def leave_replaced_by_bot(tx: Any, cmd: Any) -> None:
    """K-15 for the games whose leavers a bot replaces: before the start the seat is freed;
    afterwards a bot of ``bot_strength`` takes it over (Sakapuss, Crazy Eights)."""
    m = tx.m
    seat = cmd.seat
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation(KernelCode.NOT_FOUND, f"no seat {seat}")
    if m.seats[seat].state == "left":
        raise RuleViolation(KernelCode.SEAT_LEFT, f"seat {seat} has left")
    if m.status == "finished":
        raise RuleViolation(KernelCode.MATCH_OVER, "the match is over")
    data: dict[str, Any] = {"seat": seat, "reason": cmd.reason}
    if m.status == "running":
        data["replaced_by"] = {"kind": "bot", "strength": m.options["bot_strength"], "name": "bot"}
    tx.emit("SeatLeft", seat, data)


def check_dealt_seat(m: Any, seat: Any, what: str = "round") -> None:
    """Seat actions need a seat dealt into the running round (K-7: others get not_a_player)."""
    if not isinstance(seat, int) or not 0 <= seat < len(m.seats):
        raise RuleViolation(KernelCode.NOT_FOUND, f"no seat {seat}")
    if m.status == "open":
        raise RuleViolation(KernelCode.NOT_STARTED, "the match has not started")
    if m.status == "finished":
        raise RuleViolation(KernelCode.WRONG_PHASE, "the match is over", legal_actions=[])
    if m.seats[seat].state == "left" or m.rnd is None or seat not in m.rnd.seats:
        raise RuleViolation(KernelCode.NOT_A_PLAYER, f"seat {seat} does not play in this {what}", legal_actions=[])


def end_match(tx: Any, reason: str, table: list[dict[str, Any]]) -> None:
    """§2.8 step 3: MatchEnded with the standings (rank 1 shared or not), then SeedsRevealed (§2.3)."""
    winners = [x["seat"] for x in table if x["rank"] == 1]
    tx.emit("MatchEnded", None, {"reason": reason, "standings": table, "winners": winners,
                                 "winner": winners[0] if len(winners) == 1 else None})
    m = tx.m
    tx.emit("SeedsRevealed", None, {"match_seed": m.match_seed,
                                    "shuffle_seeds": {str(q): h for q, h in m.shuffle_seeds}})
