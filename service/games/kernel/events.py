"""Event type registry (DESIGN rule 4): wire names and their schema versions (RULES §2.9)."""
from __future__ import annotations

EVENT_TYPES: dict[str, int] = {
    "MatchCreated": 1, "SeatJoined": 1, "SeatWaiting": 1, "SeatActivated": 1, "SeatLeft": 1,
    "RoundStarted": 1, "ShuffleCommitted": 1, "CardsDealt": 1, "RoundEnded": 1,
    "HandsRevealed": 1, "RoundScored": 1, "SeatEliminated": 1, "MatchEnded": 1,
    "SeedsRevealed": 1, "TimedOut": 1,
    "StarterTurned": 1, "StarterCovered": 1, "TurnStarted": 1, "CardPlayed": 1, "SuitCalled": 1,
    "CardDrawn": 1, "StockReshuffled": 1, "DrawShortfall": 1, "PenaltyTaken": 1,
    "SkipAccepted": 1, "TurnSkipped": 1, "DirectionReversed": 1, "TurnPassed": 1,
    "AnnouncementMade": 1, "AnnouncementArmed": 1, "AnnouncementMissed": 1, "ChallengeMade": 1,
    "PassSubmitted": 1, "PassesResolved": 1, "SlapMade": 1, "RaceResolved": 1,
    "ChanceCardDrawn": 1, "ChanceDeckEmpty": 1,
}
