"""The independent verifier's UNO part: what each shuffle of an UNO history must un-shuffle to,
followed from the record alone (docs/audit.md, docs/randomness.md).

Standard library only: it imports nothing of the engine, the kernel or another game, so an auditor
can read it beside the rule book (docs/games/uno.md) and trust it on its own. The driver
(service/verifier/check.py) finds it by file and picks it by ``VARIANTS``."""
from __future__ import annotations

VARIANTS = frozenset({"uno-rlcard", "uno"})
"""The presets whose histories this module checks (``MatchCreated.data.variant``)."""


def uno_deck() -> list[str]:
    """RLCard's init_deck order: for each colour R G B Y (RLCard's r g b y), the numbers 0..9 (one 0, two of each
    other), two skips, two reverses, two draw twos, a wild and a wild draw four; ``<face>:<copy>``
    with the copies of a face numbered in that order."""
    faces: list[str] = []
    for c in "RGBY":
        for n in range(10):
            faces += [f"{c}-{n}"] * (1 if n == 0 else 2)
        for a in ("skip", "reverse", "draw_2"):
            faces += [f"{c}-{a}"] * 2
        faces += ["wild", "wild_draw_4"]
    seen: dict[str, int] = {}
    out = []
    for f in faces:
        out.append(f"{f}:{seen.get(f, 0)}")
        seen[f] = seen.get(f, 0) + 1
    return out


class Shuffles:
    """The cards of one UNO match, followed event by event: the stock, top first (each shuffle's
    recorded order, less the dealt hands, the turned starter and the drawn cards, plus a returned
    wild draw four at the bottom), and the played cards since the last reshuffle (the starter and
    every played card). A ``stock`` shuffle shuffles the stock after a returned wild draw four; a
    ``discard`` shuffle shuffles the stock with every played card under it (the top one's too), or,
    when its ``StockReshuffled`` names a ``kept`` card (the printed rules), every played card but that
    top one, which stays the only played card."""

    def __init__(self, options: dict) -> None:
        self.stock: list[str] = []
        self.played: list[str] = []
        self.kept: str | None = None

    def expected(self, what: str) -> list[str] | None:
        """The items, in their documented order, that the shuffle ``what`` must un-shuffle to."""
        if what == "deck":
            return uno_deck()
        if what == "stock":
            return list(self.stock)
        if what == "discard":
            return self.stock + [c for c in self.played if c != self.kept]
        return None

    def see(self, event: dict) -> None:
        t, d = event["type"], event.get("data", {})
        if t == "RoundStarted":
            self.stock, self.played = [], []
        elif t == "ShuffleCommitted":
            self.stock = list(event.get("secret", {}).get("order", []))  # checked against its seed first
            if d.get("what") == "discard":
                self.played = [self.kept] if self.kept else []
                self.kept = None
        elif t == "CardsDealt":
            del self.stock[:sum(d["hand_sizes"].values())]
        elif t == "CardDrawn":
            del self.stock[:d["count"]]
        elif t == "StarterTurned":
            del self.stock[:1]
            self.played.append(d["card"])
        elif t == "StarterReturned":
            self.played.remove(d["card"])
            self.stock.append(d["card"])
        elif t == "CardPlayed":
            self.played.append(d["card"])
        elif t == "StockReshuffled":
            self.kept = d.get("kept")
