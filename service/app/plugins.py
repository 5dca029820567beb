"""The one registration point of the integrations (docs/architecture.md, docs/adding-an-integration.md).

The table core (the write path, the job dispatch, the games) names no integration: it reads this
table. An integration (service/integrations/<feature>/) registers, at the composition root
(service/wiring.py ``integrations``) and in tests:

- append hooks: ``followups`` — follow-ups written in the same atomic append as the events, given the
  table before and after and the events; ``unlisted`` — whether the table stays out of the public
  lobby (no lobby row, no listing change written with the append);
- job kinds with their handlers (``job``), and lanes whose every job one handler serves (``lane``):
  the workers run a due follow-up by looking its kind (or its lane) up here.

The registry is built once and read on every append: its hooks are tuples, and the write path
iterates them without building anything (no Redis command and no allocation of its own per move).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.app.context import AppContext
    from service.eventstore.contract import FollowUp
    from service.games.kernel.model import Event
    from service.games.kernel.state import TableState

# (ctx, game_id, before, after, events, tokens written with them) -> follow-ups written with the append
FollowupHook = Callable[["AppContext", str, "TableState | None", "TableState", "Sequence[Event]", Mapping[str, bytes]],
                        "Sequence[FollowUp]"]
# (ctx, game_id, new_game, tokens written with the append) -> True: the table is in no public lobby
ListingHook = Callable[["AppContext", str, bool, Mapping[str, bytes]], bool]
# (ctx, payload) -> its outcome ("done", "closed", ...): one due follow-up served
JobHandler = Callable[["AppContext", dict[str, Any]], str]


@dataclass
class Integrations:
    """What the integrations plugged into the core: built once, then only read."""

    followups: tuple[FollowupHook, ...] = ()
    unlisted: tuple[ListingHook, ...] = ()
    jobs: dict[str, JobHandler] = field(default_factory=dict)  # a payload's kind -> its handler
    lanes: dict[str, JobHandler] = field(default_factory=dict)  # a payload's lane -> the handler of its every job
    lane_names: tuple[str, ...] = ()  # the lanes the integrations add to the kernel's (workers/dispatcher.py)
    names: tuple[str, ...] = ()  # the integrations registered, in order

    def register(self, name: str, *, followups: Sequence[FollowupHook] = (), unlisted: Sequence[ListingHook] = (),
                 jobs: Mapping[str, JobHandler] | None = None, lanes: Mapping[str, JobHandler] | None = None,
                 lane_names: Sequence[str] = ()) -> None:
        """Plug one integration in; a kind or lane another one owns already is a wiring error."""
        for kind in jobs or {}:
            if kind in self.jobs:
                raise ValueError(f"{name}: job kind {kind!r} is registered already")
        for lane in lanes or {}:
            if lane in self.lanes:
                raise ValueError(f"{name}: lane {lane!r} is served already")
        self.names += (name,)
        self.followups += tuple(followups)
        self.unlisted += tuple(unlisted)
        self.jobs.update(jobs or {})
        self.lanes.update(lanes or {})
        self.lane_names += tuple(lane for lane in lane_names if lane not in self.lane_names)


NONE = Integrations()
"""No integration: the table core alone (a context built without the composition root's registry)."""
