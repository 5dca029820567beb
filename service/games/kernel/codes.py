"""Domain codes: every refusal the service can answer is a member of a ``DomainCode`` enum.

Each layer declares the codes it owns (one owner per string): the kernel here, a game in its own
``codes.py`` (named by its registry entry, ``Game.codes``), the application in service/app/codes.py,
the API edge in service/api/codes.py. ``RuleViolation`` and ``AppError`` accept only a member, so a
raise of an undeclared string fails the first test that reaches it; the API maps every declared
code to one HTTP status (tests/test_error_codes.py checks both directions). A member is a ``str``
(StrEnum): ``exc.code == "not_your_turn"`` holds and it serializes as its value.
"""
from __future__ import annotations

from enum import StrEnum


class DomainCode(StrEnum):
    """The base of every declared code; it has no members itself (a game with no codes of its own
    names this one)."""


_LATER: set[DomainCode] = set()


def retry_later(*codes: DomainCode) -> None:
    """Mark a game's own codes as a legal request at the wrong moment (the API answers 409: read
    the game again and retry); a game's other codes are never legal as sent (422). So a game's
    codes.py says everything the HTTP edge needs (service/api/codes.py derives their statuses)."""
    _LATER.update(codes)


def is_retry_later(code: DomainCode) -> bool:
    """Whether ``retry_later`` marked this code."""
    return code in _LATER


class KernelCode(DomainCode):
    """Codes the kernel raises, and those several games share (a game declares only its own)."""

    # the table (kernel/table.py) and the registry
    ALREADY_EXISTS = "already_exists"
    ALREADY_SEATED = "already_seated"
    ALREADY_STARTED = "already_started"
    GAME_FULL = "game_full"
    INVALID_OPTION = "invalid_option"
    INVALID_REQUEST = "invalid_request"
    JOINING_CLOSED = "joining_closed"
    MATCH_OVER = "match_over"
    NOT_A_PLAYER = "not_a_player"
    NOT_ENOUGH_PLAYERS = "not_enough_players"
    NOT_FOUND = "not_found"
    NOT_STARTED = "not_started"
    NOTHING_TO_DO = "nothing_to_do"  # a follow-up whose moment has not come or has closed
    SEAT_LEFT = "seat_left"
    UNKNOWN_VARIANT = "unknown_variant"
    # a seat's actions, in every game
    ILLEGAL_ACTION = "illegal_action"
    INVALID_ACTION = "invalid_action"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    # the card games that play single cards onto a discard pile (the shedding games, Crazy Eights)
    CARD_NOT_IN_HAND = "card_not_in_hand"
    ILLEGAL_CARD = "illegal_card"
    INVALID_SUIT = "invalid_suit"
    MUST_CHOOSE_SUIT = "must_choose_suit"
    # another seat's grace window is running: the application defers a bot's turn on it
    ANNOUNCE_GRACE = "announce_grace"
    # call and catch (kernel/catch.py, RULES §3.8.4): a catch with no open window of its target, a repeat
    WINDOW_CLOSED = "window_closed"
    ALREADY_CHALLENGED = "already_challenged"
