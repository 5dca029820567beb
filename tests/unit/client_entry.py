"""A catalogue entry shaped as GET /v1/variants serves it (docs/clients.md: cards, suits, marks,
words, end_event), for the clients' unit tests: a made-up game ("any") with suited cards and a
suitless token card, so the tests show that a client draws whatever the data describes.
tests/unit/test_client_entry.py checks that every real entry has the same shape."""
from __future__ import annotations

SUITS = [{"id": "H", "symbol": "♥", "colour": "red"}, {"id": "D", "symbol": "♦", "colour": "red"},
         {"id": "S", "symbol": "♠", "colour": "black"}, {"id": "C", "symbol": "♣", "colour": "black"}]
RANKS = ["5", "7", "8", "9", "10", "J", "Q", "K", "A"]
CARDS = [{"id": f"{r}{s['id']}", "label": r, "suit": s["id"], "symbol": None, "colour": s["colour"],
          "name": "card.suited"} for r in RANKS for s in SUITS]
CARDS += [{"id": "cat", "label": None, "suit": None, "symbol": "🐈", "colour": "tone-2", "name": "card.cat"}]

WORDS = {
    "card.suited": "{label} of {suit}", "card.cat": "cat {label}", "label.J": "jack", "label.Q": "queen",
    "label.K": "king", "label.A": "ace", "suit.H": "hearts", "suit.D": "diamonds", "suit.S": "spades",
    "suit.C": "clubs", "yes": "yes", "no": "no",
    "action.play": "Play", "action.draw": "Draw", "action.take_penalty": "Take the penalty",
    "action.announce": "Say “{options.announce_word}”", "action.pass_card": "Pass",
    "arg.called_suit": "call {value}", "arg.announce.true": "say “{options.announce_word}”",
    "arg.announce.false": "without a word",
    "field.top_card": "Top card", "field.called_suit": "Called suit", "field.stock_count": "Stock",
    "field.pending_draw": "Cards to draw", "field.draws_left": "Draws left", "field.passed": "passed ✓",
    "field.dealer": "dealer", "field.slaps": "slapped #{n}", "field.parasites": "Parasites",
    "field.pass_log": "Your passes", "field.direction": "Direction", "direction.1": "clockwise ↻",
    "direction.-1": "counter-clockwise ↺", "field.round_end": "Round over ({reason:end}); winner: {winner:seat}",
    "end.empty_hand": "a hand emptied", "turn.step": "Everyone passes a cat (step {step})",
    "phase.play": "play", "phase.intermission": "between rounds",
    "event.CardPlayed": "{seat:seat} played {card:card}", "event.TurnStarted": "",
    "event.RoundStarted": "Round {round} dealt", "points": "penalty points: fewer is better",
    "announce.word": "{options.announce_word}", "announce.said": "said “{word}”",
}

ENTRY = {
    "name": "any", "game": "any", "min_players": 2, "max_players": 5, "options": [], "bot_strengths": ["easy"],
    "cards": CARDS, "suits": SUITS,
    "marks": {
        "table": {"top_card": {"show": "top", "kind": "card", "scope": "public"},
                  "called_suit": {"show": "top", "kind": "suit", "scope": "public"},
                  "pending_draw": {"show": "row", "kind": "int", "scope": "public"},
                  "stock_count": {"show": "row", "kind": "int", "scope": "public"},
                  "direction": {"show": "row", "kind": "word", "scope": "public"},
                  "dealer": {"show": "seat", "kind": "seat", "scope": "public"},
                  "passed": {"show": "seat", "kind": "seats", "scope": "public"},
                  "race": {"show": "group", "kind": "object", "scope": "public",
                           "properties": {"slaps": {"show": "seat", "kind": "order", "scope": "public"}}},
                  "step_deadline": {"show": "timer", "kind": "ms", "scope": "public"},
                  "round_end": {"show": "note", "kind": "object", "scope": "public"}},
        "turn": {"seat": {"show": "none", "kind": "seat", "scope": "public"},
                 "turn_id": {"show": "none", "kind": "int", "scope": "public"},
                 "deadline": {"show": "timer", "kind": "ms", "scope": "public"},
                 "draws_left": {"show": "row", "kind": "int", "scope": "public"},
                 "step": {"show": "row", "kind": "int", "scope": "public"}},
        "seat": {"parasites": {"show": "seat", "kind": "cards", "scope": "seat"}},
        "own": {"pass_log": {"show": "row", "kind": "table", "scope": "private"}},
        "actions": {"play": {"card": {"show": "card", "kind": "card"}, "called_suit": {"show": "arg", "kind": "suit"},
                             "announce": {"show": "arg", "kind": "bool"}},
                    "draw": {}, "take_penalty": {}, "announce": {},
                    "pass_card": {"card": {"show": "card", "kind": "card"}, "kind": {"show": "none", "kind": "text"},
                                  "step": {"show": "none", "kind": "int"}}},
    },
    "end_event": "SeedsRevealed",
    "words": {"en": WORDS, "cs": WORDS, "ru": WORDS},
}


def entry(name: str = "any") -> dict:
    return {**ENTRY, "name": name}
