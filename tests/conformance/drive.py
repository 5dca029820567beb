"""One match of any registered game, driven as the service drives it, with every check at every step.

The table is created, joined and started with the kernel commands (CreateMatch, JoinSeat,
StartMatch). Then, on a simulated clock: awake humans take random legal actions at random
moments; everything else is the state's own ``pending_work``, served as the app serves it
(service/app/jobs.py): a ``bot`` due is played by the seat's bot from its ``seat_view`` only (an
absent seat's by the easy bot, as an Autopilot command), ``score``/``deal``/``timer`` dues become
ScoreRound/DealRound/FireTimer at their due time. A sleeping human never acts, so its turns time
out, it goes absent and is finally removed: the match must end all the same.
"""
from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from service.games import engine, registry
from service.games.kernel.model import (
    Autopilot,
    CreateMatch,
    DealRound,
    Event,
    FireTimer,
    JoinSeat,
    RuleViolation,
    ScoreRound,
    StartMatch,
)
from service.games.kernel.table import RULES_VERSION
from tests.conformance import client_checks as client, engine_checks as chk
from tests.conformance.mixes import Mix, catalogue

T0 = 1_700_000_000_000
DEFER_MS = 250  # a bot that cannot move yet comes back this much later (jobs.GRACE_RETRY_MS)


@dataclass(frozen=True)
class Profile:
    """How hard a playout looks: the suite's is cheap, tests/conformance/deep.py's deeper."""

    round_commands: int = 6000  # a round that has not ended within this many commands stalled
    max_rounds: int = 200  # a match that has not ended within this many rounds stalled
    replay_every: int = 25  # a full replay from scratch every n commands (or every 1/8 of the
    # history, whichever is more: linear cost in a long match), at each round's end and at the end
    all_actions_every: int = 12  # every n human moves, every legal action is tried on the same state
    illegal_every: int = 3  # every n human moves, the illegal commands are tried
    hesitate: float = 0.03  # how often an awake human lets the next due work (a timer) come first
    sleeper: float = 0.4  # the chance that one human seat never acts
    bot_share: float = 0.4  # the chance that a seat is a bot
    search_budget_ms: int = 3  # a searching bot's budget, on a clock that ticks 1 ms per reading
    view_every: int = 4  # every n bot moves: the view's contents and the bot's determinism


@dataclass
class Tally:
    """What a playout did: the figures tests/conformance/deep.py prints."""

    games: int = 0
    commands: int = 0
    moves: int = 0  # human seat actions
    bot_moves: int = 0
    timers: int = 0  # FireTimer commands accepted
    timeouts: int = 0  # TimedOut events
    absences: int = 0  # seats marked absent
    removals: int = 0  # absent seats removed
    rounds: int = 0
    checks: int = 0  # properties checked (each assertion site counts once per use)
    illegal: int = 0  # illegal commands refused
    strengths: Counter[str] = field(default_factory=Counter)  # bot moves per strength
    refused: Counter[str] = field(default_factory=Counter)  # illegal commands refused, per kind

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            if name in ("strengths", "refused"):
                getattr(self, name).update(getattr(other, name))
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


class CountingClock:
    """A clock for a searching bot that ticks 1 ms per reading: its budget bounds the work, not
    the machine's speed, so a bot's choice is reproducible."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 0.001
        return self.t


def policy(game: Any, strength: str, budget_ms: int) -> Callable[[Any, random.Random], dict[str, Any]]:
    """The bot of ``strength`` as app/bots.py calls it: a searching one with a clock and a budget."""
    choose = game.bots[strength]
    if strength not in game.searching:
        return choose

    def searching(view: Any, rng: random.Random) -> dict[str, Any]:
        return choose(view, rng, clock=CountingClock(), budget_ms=budget_ms)
    return functools.wraps(choose)(searching)


class Table:
    """One match of ``mix`` under ``seed``: ``play()`` runs it to its end, checking as it goes."""

    def __init__(self, mix: Mix, seed: int, profile: Profile = Profile(),
                 strengths: tuple[str | None, ...] | None = None, sleeper: bool | None = None) -> None:
        self.mix, self.seed, self.profile = mix, seed, profile
        self.tag = f"{mix.id}/m{seed}"
        self.rng = random.Random(self.tag)
        self.game = registry.for_variant(mix.variant)
        self.tally = Tally(games=1)
        self.now = T0
        self.state: Any = None
        self.events: list[Event] = []
        self.cards: Counter[str] | None = None
        self.cards_round = -1
        self.deferred: dict[tuple[int, int], int] = {}
        self.refused_dues: set[tuple[str, str, int]] = set()
        self.seen: dict[str, list[Any]] = {}
        self.since_replay = 0
        offered = list(catalogue()[mix.variant].get("bot_strengths") or ["easy"])
        self.kinds = self._seats(offered, strengths)
        humans = [s for s, k in enumerate(self.kinds) if k is None]
        wants_sleeper = self.rng.random() < profile.sleeper if sleeper is None else sleeper
        self.sleepers = {self.rng.choice(humans)} if wants_sleeper and humans else set()
        self.timer_off = any(o["type"] == "int_or_null" and mix.options.get(o["name"], 0) is None
                             for o in catalogue()[mix.variant]["options"])  # e.g. no turn timeout

    def _seats(self, offered: list[str], strengths: tuple[str | None, ...] | None) -> list[str | None]:
        """Per seat: None for a human, else the bot's strength (``strengths`` repeated over the
        seats, or bots at random cycling through the strengths offered)."""
        if strengths is not None:
            return [strengths[i % len(strengths)] for i in range(self.mix.players)]
        out: list[str | None] = []
        for i in range(self.mix.players):
            bot = i > 0 and self.rng.random() < self.profile.bot_share
            out.append(offered[(self.seed + i) % len(offered)] if bot else None)
        return out

    def fail(self, what: str) -> AssertionError:
        return AssertionError(f"[{self.tag} v{self.state.version if self.state else 0}] {what}; "
                              f"options {self.mix.overrides}")

    # ------------------------------------------------------------ running commands

    def run(self, cmd: Any) -> tuple[Event, ...]:
        """Decide ``cmd`` now, check its events and their fold, and make it the live state."""
        before = self.state
        tag = f"{self.tag}/{self.tally.commands}"
        got = chk.decided(before, cmd, self.now, tag)
        events = got.events
        chk.assert_consecutive(events, 0 if before is None else before.version)
        fold, shuffled = before, 0
        for e in events:
            shuffled += e.type == "ShuffleCommitted"
            if e.type == "TimedOut" and fold is not None:
                try:
                    chk.assert_defaults_legal(fold, e, self.now, tag, shuffled)
                except AssertionError as exc:
                    raise self.fail(str(exc)) from None
                self.tally.timeouts += 1
                self.tally.absences += bool(e.data.get("absent"))
                self.tally.checks += 1
            if e.type == "SeatLeft" and e.data.get("reason") == "absent_removed":
                self.tally.removals += 1
            if e.type == "RoundEnded":
                self.tally.rounds += 1
            try:
                client.assert_end_words(self.game, e.type, e.data)
            except AssertionError as exc:
                raise self.fail(str(exc)) from None
            fold = engine.evolve(fold, e)
        chk.assert_same_state(got.state, fold, self.now, f"{self.tag}: {type(cmd).__name__}'s events folded")
        self.state = got.state
        self.events.extend(events)
        self.tally.commands += 1
        self.tally.checks += 2
        self.since_replay += 1
        ends = any(e.type in ("RoundEnded", "MatchEnded") for e in events)
        if ends or self.since_replay >= max(self.profile.replay_every, len(self.events) // 8):
            self.check_replay()
        self.check_cards(type(cmd).__name__)
        return events

    def check_replay(self) -> None:
        """(a) engine.replay of the whole history equals the live state."""
        chk.assert_same_state(self.state, engine.replay(self.events), self.now, f"{self.tag}: replay")
        self.since_replay = 0
        self.tally.checks += 1

    def check_shuffles(self) -> None:
        """(g) The game's independent verifier module lists what every shuffle shuffled."""
        try:
            self.tally.checks += chk.assert_shuffles_documented(self.game, self.events)
        except AssertionError as exc:
            raise self.fail(str(exc)) from None

    def check_cards(self, what: str) -> None:
        """(b) The cards in play are the same multiset as after the round's previous command."""
        if self.game.cards_in_play is None:
            raise self.fail(f"game {self.game.name!r} has no cards_in_play (kernel/game.py)")
        cards = self.game.cards_in_play(self.state)
        if cards is not None and self.cards_round != self.state.round_no:  # a new deal: faces for its cards
            try:
                client.assert_faces(self.game, cards)
            except AssertionError as exc:
                raise self.fail(str(exc)) from None
            self.tally.checks += 1
        if cards is not None and self.cards is not None and self.cards_round == self.state.round_no:
            try:
                chk.assert_conserved(self.cards, cards, what)
            except AssertionError as exc:
                raise self.fail(str(exc)) from None
            self.tally.checks += 1
        self.cards, self.cards_round = cards, self.state.round_no

    # ------------------------------------------------------------ the match

    def setup(self) -> None:
        m = self.mix
        self.run(CreateMatch(f"conf-{m.variant}-{self.seed}", m.variant, m.options, m.max_players,
                             "conformance", RULES_VERSION))
        for i, strength in enumerate(self.kinds):
            if strength is None:
                self.run(JoinSeat(f"h{i}", "human", creator=i == 0))
            else:
                self.run(JoinSeat(f"b{i}", "bot", strength))
        self.run(StartMatch())

    def play(self, stop: Callable[[Table], bool] | None = None) -> Tally:
        """Run the match to its end (or until ``stop`` says so); AssertionError names the variant,
        seed and step that broke."""
        self.setup()
        round_no, since = self.state.round_no, 0
        while self.state.status != "finished":
            if stop is not None and stop(self):
                self.check_replay()
                return self.tally
            if self.state.round_no != round_no:
                round_no, since = self.state.round_no, 0
            since += 1
            if since > self.profile.round_commands or round_no > self.profile.max_rounds:
                raise self.fail(f"stalled: round {round_no} has not ended within {since - 1} steps "
                                f"(or the match within {self.profile.max_rounds} rounds)")
            self.step()
        self.check_replay()
        self.check_shuffles()
        for seat in range(len(self.state.seats)):
            if engine.legal_actions(self.state, seat, self.now):
                raise self.fail(f"seat {seat} still has legal actions after the match ended")
        if engine.pending_work(self.state):
            raise self.fail(f"work still due after the match ended: {engine.pending_work(self.state)}")
        return self.tally

    def dues(self) -> list[tuple[int, Any]]:
        out = []
        for d in engine.pending_work(self.state):
            at = d.due_at
            if d.kind == "bot":
                at = max(at, self.deferred.get((d.seat, d.opened_seq), at))
            out.append((at, d))
        return sorted(out, key=lambda x: (x[0], x[1].kind, x[1].key))

    def legal(self, now: int) -> dict[int, list[dict[str, Any]]]:
        out = {s: engine.legal_actions(self.state, s, now) for s in range(len(self.state.seats))}
        for actions in out.values():
            for a in actions:
                for k, v in a.items():
                    seen = self.seen.setdefault(k, [])
                    if v not in seen[-3:]:
                        seen.append(v)
        return out

    def step(self) -> None:
        dues = self.dues()
        legal = self.legal(self.now)
        humans = [s for s, seat in enumerate(self.state.seats) if seat.kind == "human"]  # not replaced
        actors = [s for s in humans if legal[s] and s not in self.sleepers]
        if dues and dues[0][0] <= self.now:
            return self.serve(dues[0][1])
        if actors and (not dues or self.rng.random() >= self.profile.hesitate):
            horizon = dues[0][0] - self.now - 1 if dues else 3000
            self.now += self.rng.randint(0, max(0, min(3000, horizon)))
            return self.human(self.rng.choice(actors))
        if dues:
            self.now = max(self.now, dues[0][0])
            return self.serve(dues[0][1])
        sleepy = [s for s in humans if legal[s]]
        if sleepy and self.timer_off:  # with a timer switched off, only the sleeper can move on
            self.sleepers.clear()
            return self.human(self.rng.choice(sleepy))
        raise self.fail(f"stalled: no seat can act and no work is due (phase "
                        f"{getattr(self.state.rnd, 'phase', None)})")

    def absent(self, seat: int) -> bool:
        return bool(getattr(self.state.seats[seat], "absent", False))

    # ------------------------------------------------------------ a human's move

    def human(self, seat: int) -> None:
        now, state = self.now, self.state
        legal = self.legal(now)
        actions = legal[seat]
        if not actions:
            return
        try:  # docs/clients.md: each action names the hand card it plays
            client.assert_actions_name_hand_cards(self.game, actions, engine.private_view(state, seat, now)["hand"])
        except AssertionError as exc:
            raise self.fail(str(exc)) from None
        self.tally.moves += 1
        if self.tally.moves % self.profile.illegal_every == 0:
            self.try_illegal(legal)
        if self.tally.moves % self.profile.all_actions_every == 0:
            for i, a in enumerate(actions):  # (c) all of them, on the same state
                try:
                    chk.assert_accepted(state, seat, a, now, f"{self.tag}/all{i}")
                except AssertionError as exc:
                    raise self.fail(str(exc)) from None
            self.check_replay()  # a fresh fold of the history: trying them changed nothing
            self.tally.checks += len(actions)
        action = self.rng.choice(actions)
        try:
            self.run(chk.command(seat, action))
        except RuleViolation as exc:
            raise self.fail(f"seat {seat}: the legal action {action} was refused: {exc.code} ({exc.detail})") from None
        self.tally.checks += 1

    def try_illegal(self, legal: dict[int, list[dict[str, Any]]]) -> None:
        """(d) Illegal commands are refused with a code, and the state does not move."""
        hands = {s: list(engine.private_view(self.state, s, self.now).get("hand") or ()) for s in legal}
        for label, cmd, racing in chk.illegal_commands(self.game, self.state, self.now, self.rng, legal, hands,
                                                       self.seen):
            try:
                chk.assert_refused(self.state, cmd, self.now, label, racing)
            except AssertionError as exc:
                raise self.fail(str(exc)) from None
            self.tally.illegal += 1
            self.tally.refused[label.split(" (")[0]] += 1
            self.tally.checks += 1

    # ------------------------------------------------------------ due work

    def serve(self, due: Any) -> None:
        if due.kind == "bot":
            return self.bot(due)
        cmd: Any = {"score": lambda: ScoreRound(int(due.key)), "deal": lambda: DealRound(int(due.key)),
                    "timer": lambda: FireTimer(due.key)}[due.kind]()
        try:
            self.run(cmd)
            self.tally.timers += due.kind == "timer"
        except RuleViolation as exc:
            again = (due.kind, due.key, self.state.version)
            if exc.code != "nothing_to_do" or again in self.refused_dues:
                raise self.fail(f"due {due} refused at its time: {exc.code} ({exc.detail}); "
                                f"the app would drop it and the table would wait forever") from None
            self.refused_dues.add(again)

    def bot(self, due: Any) -> None:
        """(f) The bot plays from its seat's view alone, picks a legal action, and picks the same
        one again on a copy of that view with the same seed."""
        seat, now, state = due.seat, self.now, self.state
        view = engine.seat_view(state, seat, now)
        deep = self.tally.bot_moves % self.profile.view_every == 0
        try:
            chk.assert_bot_view(state, seat, now, view, contents=deep)
        except AssertionError as exc:
            raise self.fail(str(exc)) from None
        if not view.legal_actions:
            self.deferred[(seat, due.opened_seq)] = now + DEFER_MS
            return
        absent = self.absent(seat)
        strength = "easy" if absent else (state.seats[seat].strength or "easy")
        if strength not in self.game.bots:
            strength = "easy"
        choose = policy(self.game, strength, self.profile.search_budget_ms)
        key = f"{self.tag}/bot/{state.version}/{seat}"
        action = dict(choose(view, random.Random(key)))
        if action not in [dict(a) for a in view.legal_actions]:
            raise self.fail(f"the {strength} bot of seat {seat} chose {action}, not a legal action")
        again = dict(choose(chk.copy_view(view), random.Random(key))) if deep else action
        if again != action:
            raise self.fail(f"the {strength} bot of seat {seat} chose {action}, then {again} on the same view")
        cmd: Any = Autopilot(seat, action) if absent else chk.command(seat, action)
        try:
            self.run(cmd)
        except RuleViolation as exc:
            if exc.code == "announce_grace":  # another seat's grace holds it back (jobs.bot_turn)
                self.deferred[(seat, due.opened_seq)] = now + DEFER_MS
                return
            raise self.fail(f"the {strength} bot's legal {action} was refused: {exc.code} ({exc.detail})") from None
        self.tally.bot_moves += 1
        self.tally.strengths[strength] += 1
        self.tally.checks += 3


def playout(mix: Mix, seed: int, profile: Profile = Profile(),
            stop: Callable[[Table], bool] | None = None, **kw: Any) -> Tally:
    """Play one match of ``mix`` to its end under ``seed``; the tally of what it did."""
    return Table(mix, seed, profile, **kw).play(stop)
