"""Call and catch: an obligation to call that opens a window, and another seat's catch within it.

One mechanism for every game with a last-card call: the shedding games' "Mau" / "мяу-мяу" with its
challenge mode (RULES §3.8.3-§3.8.6, §2.9 ``ChallengeMade``) and UNO's "UNO!" (a player who forgets
draws two if another player catches him before the next player begins). docs/adding-a-game.md,
"Call and catch", says how a game plugs in; in short:

- **The window** (``CallWindow``) lives in the game's round state. The game opens it in the fold
  of the event that creates the obligation (a play that leaves one card: seat, that event's time
  and seq, ``satisfied`` when the play carried the call) and closes it (``None``) in the fold of its
  closing actions (§3.8.3: the next state-changing action of any seat; the call and the catch
  themselves are not closing actions). The game decides which seat is obligated and when.
- **The rule** (``CatchRule``) is built from the game's options: the penalty of a caught seat,
  whether the penalty needs a catch (``by_catch``; otherwise it is automatic when an uncalled
  window closes, the shedding games' default), the cost of a wrong catch, the grace.
- **The action and the event are shared**: ``challenge{target}`` (``CHALLENGE_ACTION``, the
  ``Challenge`` command, recorded as ``Challenge``) and ``ChallengeMade`` (``challenge_made``:
  challenger, target, outcome ``caught`` or ``wrong``, penalty). The registry refuses one action
  name meaning two things, so a game that catches uses these, under these names.
- **decide**: ``rule.judge(windows, challenger, target)`` is a ``Verdict`` (who draws how many, and
  why) or a refusal code: ``window_closed`` (no open window of the target, 409),
  ``already_challenged`` (a repeat, 409), ``illegal_action`` (a seat catching itself, 422). The game
  checks first that the challenger may act at all (an active seat of the running round), emits
  ``ChallengeMade`` and then draws the penalty with its own draw (reason ``missed_announcement`` or
  ``false_challenge``). On closing, ``rule.on_close(window)`` is the automatic penalty (0 in the
  catch mode: a window that closes uncaught costs nothing).
- **evolve**: ``challenged(window, data)`` is the window after a ``ChallengeMade`` (None when caught).
- **legal actions**: ``rule.catches(windows, caller)`` lists ``challenge{target}`` for each open
  window of another seat the caller has not challenged yet (§3.8.2), satisfied or not.
- **grace** (§3.8.6): ``rule.holds(window, seat, now)``: another seat's closing actions wait while
  an uncalled window is inside its grace; calls and catches never wait.
- **views and bots**: ``announcement(window, rule, armed)`` is the public view's entry of a window
  (``announcements``); ``bot_catch(legal_actions, announcements, now)`` is a bot's catch from its
  view alone (an uncalled window whose grace has run out: no wrong catch, and the caller keeps his
  grace); ``catching(choose)`` wraps a strength's policy with it; ``catch_due_at`` is when a bot
  seat's catch is due in ``pending_work``. ``WORDS``: the catch's words in en, cs and ru.

Pure data and functions, no I/O (tests/unit/rules/test_purity.py).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from service.games.kernel.codes import KernelCode
from service.games.kernel.commands import Recorded
from service.games.kernel.game import ActionSpec
from service.games.kernel.marks import shown
from service.games.kernel.spec import BOOL, INT, enum, obj
from service.games.kernel.views import SeatView
from service.games.kernel.words import Words, by_language

CHALLENGE = "challenge"
"""The wire action of a catch (``{"type": "challenge", "target": <seat>}``)."""
CHALLENGE_MADE = "ChallengeMade"
"""The event of a catch, right or wrong (RULES §2.9)."""
CAUGHT = "caught"
WRONG = "wrong"
MISSED = "missed_announcement"
"""The reason of the caught seat's penalty draw (the same as an automatic penalty's, §2.9)."""
FALSE = "false_challenge"
"""The reason of a wrong catcher's penalty draw (§2.9)."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """``challenge{target}``: the seat catches ``target`` with an uncalled last card (§3.8.4)."""

    seat: int
    target: int


CHALLENGE_ACTION = ActionSpec(Challenge, frozenset({"target"}), frozenset({"target"}), race_tolerant=True)
"""The shared wire action. Race-tolerant like ``announce`` (§2.6(1)): a catch races the table by
nature and carries its own guard (an open window not yet challenged by the caller)."""
COMMANDS: Mapping[str, Recorded] = MappingProxyType({"Challenge": Recorded(Challenge)})
"""Its recorded wire name (DESIGN rule 11): a game that catches adds these to ``Game.commands``."""
ACTION_SCHEMA = obj({"type": enum(CHALLENGE), "target": shown(INT, "arg", "seat")})
"""Its legal-action entry in the spec (``GameSpec.actions["challenge"]``)."""
EVENT_SCHEMA = obj({"challenger": INT, "target": INT, "outcome": enum(CAUGHT, WRONG), "penalty": INT},
                   {"auto": BOOL},
                   description="a catch: the challenger says the target owes an uncalled last card; "
                               "`caught` when he did (the target draws `penalty`, the window closes), "
                               "`wrong` when he had called (the challenger draws `penalty`, maybe 0)")
"""``ChallengeMade``'s public data in the spec (``GameSpec.events["ChallengeMade"]``); ``auto`` when the
server made the catch for an absent seat (RULES §2.7 autopilot): a game lists ``ChallengeMade`` among
the events its ``Tx`` marks (``AUTO_MARKED``), so that such a catch does not count as the human's."""
WORDS: Words = by_language(
    en={"event.ChallengeMade": "{challenger:seat} challenged {target:seat}: {outcome:challenge} (+{penalty})",
        "challenge.caught": "caught", "challenge.wrong": "a false challenge",
        "action.challenge": "Catch", "arg.target": "{value} did not call"},
    cs={"event.ChallengeMade": "{challenger:seat} napadl {target:seat}: {outcome:challenge} (+{penalty})",
        "challenge.caught": "chycen", "challenge.wrong": "planě",
        "action.challenge": "Chytit", "arg.target": "{value} neohlásil"},
    ru={"event.ChallengeMade": "{challenger:seat} ловит {target:seat}: {outcome:challenge} (+{penalty})",
        "challenge.caught": "попался", "challenge.wrong": "ложный вызов",
        "action.challenge": "Поймать", "arg.target": "{value} не объявил"},
)
"""The catch's words (docs/clients.md: Words), shared: a game that catches lays them over its own
(``{**catch.WORDS[lang], ...}`` or after them, to say it its own way)."""


@dataclass(frozen=True, slots=True)
class CallWindow:
    """An open obligation to call (§3.8.1): ``seat`` owes the call since the event at ``opened_at`` /
    ``opened_seq``; ``satisfied`` once called (or armed, or under ``auto``); ``challengers``: the
    seats that have caught at it wrongly (a right catch closes it), in order."""

    seat: int
    opened_at: int
    opened_seq: int
    satisfied: bool
    challengers: tuple[int, ...] = ()

    def called(self) -> CallWindow:
        """The window once its seat has called."""
        return replace(self, satisfied=True)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a catch does: ``outcome`` (caught or wrong), then ``victim`` draws ``cards`` for ``reason``."""

    challenger: int
    target: int
    outcome: str
    victim: int
    cards: int
    reason: str

    def event_data(self) -> dict[str, Any]:
        """``ChallengeMade``'s public data."""
        return {"challenger": self.challenger, "target": self.target, "outcome": self.outcome,
                "penalty": self.cards}


@dataclass(frozen=True, slots=True)
class CatchRule:
    """A game's call-and-catch rule, from its options.

    ``penalty``: the cards a seat caught with an uncalled window draws (§3.8.4
    ``announce_penalty_cards``; UNO: 2). ``by_catch``: the penalty needs a catch
    (``announce_penalty_requires_challenge``; UNO: always); otherwise it is drawn automatically when
    an uncalled window closes and nobody may catch. ``false_penalty``: a wrong catcher's cards
    (``false_challenge_penalty_cards``). ``grace_ms``: §3.8.6, 0 for none."""

    penalty: int
    by_catch: bool
    false_penalty: int = 0
    grace_ms: int = 0

    def on_close(self, w: CallWindow | None) -> int:
        """The automatic penalty when ``w`` closes (§3.8.3 step 2): 0 when called, or in catch mode."""
        if w is None or w.satisfied or self.by_catch:
            return 0
        return self.penalty

    def holds(self, w: CallWindow | None, seat: int, now: int) -> bool:
        """§3.8.6: ``seat``'s closing action waits: another seat's uncalled window is in its grace."""
        return (w is not None and w.seat != seat and not w.satisfied and self.grace_ms > 0
                and now < w.opened_at + self.grace_ms)

    def catches(self, windows: Iterable[CallWindow | None], caller: int) -> list[dict[str, Any]]:
        """§3.8.2: ``challenge{target}`` for each open window of another seat the caller has not yet
        challenged (none outside the catch mode). The game lists them only for a seat that may act."""
        if not self.by_catch:
            return []
        return [{"type": CHALLENGE, "target": w.seat} for w in windows
                if w is not None and w.seat != caller and caller not in w.challengers]

    def judge(self, windows: Iterable[CallWindow | None], challenger: int, target: Any) -> Verdict | KernelCode:
        """§3.8.4: the catch of ``target`` by ``challenger``, or why it is refused."""
        if not self.by_catch:
            return KernelCode.INVALID_ACTION
        if target == challenger:
            return KernelCode.ILLEGAL_ACTION
        w = next((w for w in windows if w is not None and w.seat == target), None)
        if w is None:
            return KernelCode.WINDOW_CLOSED
        if challenger in w.challengers:
            return KernelCode.ALREADY_CHALLENGED
        if w.satisfied:
            return Verdict(challenger, w.seat, WRONG, challenger, self.false_penalty, FALSE)
        return Verdict(challenger, w.seat, CAUGHT, w.seat, self.penalty, MISSED)


def challenged(w: CallWindow | None, data: Mapping[str, Any]) -> CallWindow | None:
    """The fold of ``ChallengeMade`` on the target's window: closed when caught, else the
    challenger noted (he may not challenge it again)."""
    if w is None or w.seat != data["target"]:
        return w
    if data["outcome"] == CAUGHT:
        return None
    return replace(w, challengers=w.challengers + (data["challenger"],))


def announcement(w: CallWindow, rule: CatchRule, armed: bool) -> dict[str, Any]:
    """The public view's entry of an open window (the kernel frame's ``announcements``): what every
    viewer, and so every bot, knows of it."""
    return {"seat": w.seat, "open": True, "satisfied": w.satisfied, "opened_at": w.opened_at,
            "grace_until": w.opened_at + rule.grace_ms if rule.grace_ms and not w.satisfied else None,
            "armed": armed}


def bot_catch(legal_actions: Iterable[Mapping[str, Any]], announcements: Iterable[Mapping[str, Any]],
              now: int) -> dict[str, Any] | None:
    """A bot's catch, from its view alone: the ``challenge`` its legal actions offer against an
    uncalled window (``announcements``) whose grace has run out, or None. A bot leaves the caller
    his grace to call and never catches a seat that called (no wrong catch)."""
    owing = {a["seat"] for a in announcements
             if not a.get("satisfied") and (a.get("grace_until") is None or now >= a["grace_until"])}
    for a in legal_actions:
        if a.get("type") == CHALLENGE and a.get("target") in owing:
            return dict(a)
    return None


Policy = Callable[..., dict[str, Any]]


def catching(choose: Policy) -> Policy:
    """A bot policy that catches (``bot_catch``) before anything else, and otherwise plays
    ``choose`` on its legal actions without the catches (a wrong catch is never its move); when a
    catch is all it may do and none is worth it, the first catch listed (the only legal moves).
    Extra keyword arguments (a searching bot's clock and budget) pass through."""

    def policy(view: SeatView, rng: Any, **kw: Any) -> dict[str, Any]:
        found = bot_catch(view.legal_actions, view.public.get("announcements") or (), view.now)
        if found is not None:
            return found
        rest = tuple(a for a in view.legal_actions if a.get("type") != CHALLENGE)
        if not rest and view.legal_actions:
            return dict(view.legal_actions[0])
        return choose(view if len(rest) == len(view.legal_actions) else replace(view, legal_actions=rest), rng, **kw)

    policy.__doc__ = choose.__doc__
    policy.__wrapped__ = choose  # type: ignore[attr-defined]
    return policy


def catch_due_at(w: CallWindow, rule: CatchRule) -> int:
    """When a bot may catch at ``w`` (its ``pending_work``): the end of the grace."""
    return w.opened_at + rule.grace_ms
