"""Due work: what a table calls for (``Due``), and the one owner of the follow-up vocabulary.

A game's ``pending_work`` names each follow-up by its ``Kind``; the application schedules it
(service/app/followups.py: its job id and payload) and the workers serve it on a ``Lane``
(workers/dispatcher.py). These names are stored in the due set and in RQ, so they never change;
every layer spells them through this module.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    """What a follow-up serves (a payload's ``kind``, the first part of its job id): the table's own
    work. Every other kind belongs to the integration that owns it, registered with its handler
    (service/app/plugins.py)."""

    BOT = "bot"  # a bot's move (or an absent seat's autopilot)
    SCORE = "score"  # round scoring
    DEAL = "deal"  # the next deal
    TIMER = "timer"  # a turn, step, race or absence timer
    EXPIRE = "expire"  # a never-started table's end
    COMPACT = "compact"  # a finished game's compaction


class Lane(StrEnum):
    """Where the workers run a follow-up (a payload's ``lane``; none means ``FAST``)."""

    FAST = "fast"  # scoring, deals, timers, easy and medium bots: milliseconds each
    SEARCH = "search"  # a searching bot: up to its table's budget
    HOOKS = "hooks"  # webhook deliveries: outbound HTTP, never in a table's way
    REMOTE = "remote"  # a remote bot's turn (an HTTP call to its server) and its health checks


@dataclass(frozen=True)
class Due:
    """A follow-up the state calls for: a bot move, scoring, the next deal or a timer."""

    kind: Kind
    key: str
    due_at: int
    seat: int | None
    opened_seq: int


def bot_key(seat: int, opened_seq: int) -> str:
    """The key of a bot's move: its seat and the version that opened what it answers."""
    return f"{seat}-{opened_seq}"
