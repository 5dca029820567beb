"""The application layer's one entry point for the routes, the workers and the tests: ``GameService``,
a thin facade that holds what every part shares (``AppContext``: store, settings, clock, state
cache, bot pause, load) and hands each call to the module that does that job — ``write_path``
(load → decide → append), ``idempotency``, ``queries``, ``seats`` and ``actions``, and ``jobs``
(follow-ups). The names other modules import from here are re-exported."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from service.app import actions, jobs, players, private_tables, queries, quickplay, rematch, seats
from service.app.api_keys import ApiKey
from service.app.auth import Caller
from service.app.context import AppContext, now_ms
from service.app.fairness import Origin
from service.app.idempotency import Idempotency, Precondition
from service.app.jobs import GRACE_RETRY_MS
from service.app.redaction import Viewer
from service.app.write_path import MAX_ATTEMPTS, Outcome, WritePlan
from service.games.kernel.state import TableState

__all__ = [
    "GRACE_RETRY_MS",
    "MAX_ATTEMPTS",
    "GameService",
    "Idempotency",
    "Origin",
    "Outcome",
    "Precondition",
    "WritePlan",
    "now_ms",
]


class GameService(AppContext):
    """``GameService(store, settings=None, clock=now_ms)``: every request and job of the service."""

    # ------------------------------------------------------------------ reading
    def authenticate(self, game_id: str, token: str | None, invite: str | None = None) -> Caller:
        return seats.authenticate(self, game_id, token, invite)

    def viewer(self, caller: Caller) -> Viewer:
        return queries.viewer(caller)

    def view(self, game_id: str, caller: Caller, record: bool = False,
             key_id: str | None = None) -> tuple[TableState, dict[str, Any]]:
        return queries.view(self, game_id, caller, record, key_id)

    def legal_actions(self, game_id: str, caller: Caller) -> tuple[TableState, list[dict[str, Any]]]:
        return queries.legal_actions(self, game_id, caller)

    def events(self, game_id: str, caller: Caller, after: int, wait_s: float,
               waiter: Callable[[str, int, float], bool] | None = None) -> tuple[TableState, Iterator[dict[str, Any]]]:
        """The events after ``after`` as the caller may see them at each one, read as they are
        written out (``queries.events``)."""
        return queries.events(self, game_id, caller, after, wait_s, waiter)

    def history(self, game_id: str, caller: Caller, page: int = 500) -> tuple[TableState, Iterator[dict[str, Any]]]:
        """The log, read page by page: audit records of a finished game, or a spectator's view of a running one."""
        return queries.history(self, game_id, caller, page)

    def verify(self, game_id: str, caller: Caller) -> dict[str, Any]:
        return queries.verify(self, game_id, caller)

    def state_at(self, game_id: str, caller: Caller, at: int, record: bool = False) -> dict[str, Any]:
        """The view right after event ``at``, with the same redaction as the live view."""
        return queries.state_at(self, game_id, caller, at, record)

    def lobby(self, status: str | None, variant: str | None, cursor: tuple[int, str] | None,
              limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """A lobby page from the per-status indexes: O(page) however many games exist."""
        return queries.lobby(self, status, variant, cursor, limit)

    def key_lobby(self, key: ApiKey, cursor: tuple[int, str] | None,
                  limit: int) -> tuple[list[dict[str, Any]], str | None]:
        """A page of the key's own tables (private ones too), newest first."""
        return queries.key_lobby(self, key.id, cursor, limit)

    def render(self, out: Outcome, caller: Caller, minimal: bool = False) -> dict[str, Any]:
        """The response body of a write, as this caller may see it (``minimal``: without the view)."""
        return queries.render(self, out, caller, minimal)

    # ------------------------------------------------------------------ requests
    def create(self, variant: str, options: dict[str, Any], max_players: int | None, name: str | None,
               idem: Idempotency | None, origin: Origin | None = None, key: ApiKey | None = None,
               private: bool = False) -> Outcome:
        """A new table; ``origin`` (who created it, hashed) is kept store-side for the fair shares;
        ``key``: the API key that owns it (``private``: unlisted, service/app/private_tables.py)."""
        return seats.create(self, variant, options, max_players, name, idem, origin, key, private)

    def join(self, game_id: str, caller: Caller, name: str | None, bot: dict[str, Any] | None,
             idem: Idempotency | None, invite: str | None = None, player: tuple[str, str] | None = None) -> Outcome:
        return seats.join(self, game_id, caller, name, bot, idem, invite, player)

    def rotate_private(self, game_id: str, caller: Caller, what: str) -> str:
        """A private table's new invite code (``what`` "invite") or spectator token ("spectator")."""
        return private_tables.rotate(self, game_id, caller, what)

    def leave(self, game_id: str, caller: Caller, seat: int, idem: Idempotency | None = None,
              pre: Precondition | None = None) -> Outcome:
        return seats.leave(self, game_id, caller, seat, idem, pre)

    def start(self, game_id: str, caller: Caller, idem: Idempotency | None = None,
              pre: Precondition | None = None) -> Outcome:
        return seats.start(self, game_id, caller, idem, pre)

    def act(self, game_id: str, caller: Caller, action: dict[str, Any], pre: Precondition | None,
            idem: Idempotency | None) -> Outcome:
        return actions.act(self, game_id, caller, action, pre, idem)

    # ------------------------------------------------------------------ players, rematch, quick play
    def rematch(self, game_id: str, caller: Caller) -> tuple[str, bool, dict[str, str]]:
        """The finished table's rematch (owner only): its id, whether this ask made it, and a private
        table's fresh invite code and spectator token (to the ask that made it)."""
        return rematch.rematch(self, game_id, caller)

    def quick_play(self, variant: str, key: ApiKey | None, name: str | None, ref: str | None,
                   address: str | None = None) -> Outcome:
        """A seat at the open quick-play table of a variant (the key's, or the public one; ``address``:
        the caller's, whose seats at one public table are capped)."""
        return quickplay.quick_play(self, variant, key, name, ref, address)

    def player(self, key_id: str, variant: str, ref: str) -> dict[str, Any] | None:
        return players.player(self, key_id, variant, ref)

    def leaderboard(self, key_id: str, variant: str, offset: int, limit: int) -> tuple[list[dict[str, Any]], int | None]:
        return players.leaderboard(self, key_id, variant, offset, limit)

    # ------------------------------------------------------------------ jobs
    def run_followup(self, payload: dict[str, Any]) -> str:
        """Serve one due follow-up; a no-op when what it serves has closed."""
        return jobs.run_followup(self, payload)
