"""Pure pieces of the terminal table: how a card, an action, the seats, the table, the turn and the
scores read. Everything is driven by the view and `legal_actions` (API.md), never by a game's name,
so every game in the registry renders (a field this module does not know is shown as it is)."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

SUITS = {"H": ("♥", "hearts"), "D": ("♦", "diamonds"), "S": ("♠", "spades"), "C": ("♣", "clubs")}
RED = frozenset("HD")
_CARD = re.compile(r"^(10|[2-9JQKA])([HDSC])(?::\d+)?$")
RESERVED_KEYS = frozenset("q")  # quit
# table fields drawn on their own line (or not at all): the rest are listed as "name: value"
_TABLE_HEAD = ("top_card", "called_suit")
_TABLE_SKIP = frozenset({"parasites", "parasite_totals", "drew_on"})  # per seat: in the seat rows


def printable(text: str) -> str:
    """A line as the screen shows it: every control or format character (C0 and C1 controls — ESC
    starts a terminal escape —, line and paragraph separators, bidi overrides, zero-width
    characters) becomes U+FFFD, so a string from the server can neither move the cursor, rewrite
    the terminal, reorder the line nor break it in two. Markup is the app's part: it shows every
    line as a rich ``Text``, never parsed (service/tui/app.py ``shown``)."""
    return "".join("\ufffd" if unicodedata.category(ch) in _UNPRINTABLE else ch for ch in text)


_UNPRINTABLE = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def card_parts(card: str) -> tuple[str, str] | None:
    """(rank, suit letter) of a standard card id (`10S:1`, `7H`), else None."""
    m = _CARD.match(card)
    return (m.group(1), m.group(2)) if m else None


def suit_label(suit: str) -> str:
    """A suit by symbol and letter, so it reads without colour: `♠S`."""
    return f"{SUITS[suit][0]}{suit}" if suit in SUITS else suit


def card_label(card: str) -> str:
    """`10S:1` → `10♠S`; a card that is not rank+suit (Sakapuss `cat:k2`) reads as its id."""
    parts = card_parts(card)
    return f"{parts[0]}{suit_label(parts[1])}" if parts else card


def is_red(card: str) -> bool:
    parts = card_parts(card)
    return bool(parts and parts[1] in RED)


def refers_to(action: dict, card: str) -> bool:
    """Whether an action names this hand card: by its id, its short form (`7H` for `7H:0`), or
    the part after its prefix (a Sakapuss `kind` of `cat:k2`)."""
    head, _, tail = card.partition(":")
    for key, value in action.items():
        if key == "type" or key.endswith("suit") or not isinstance(value, str):
            continue
        standard = _CARD.match(card) is not None
        if value == card or (standard and value == head) or (not standard and tail and value == tail):
            return True
    return False


def actions_for(card: str, actions: Iterable[dict]) -> list[dict]:
    return [a for a in actions if refers_to(a, card)]


def free_actions(hand: list[str], actions: Iterable[dict]) -> list[dict]:
    """The legal actions that name no card in the hand (draw, pass, take penalty, announce, ...)."""
    return [a for a in actions if not any(refers_to(a, c) for c in hand)]


def words(name: str) -> str:
    return name.replace("_", " ")


def value_label(key: str, value: Any) -> str:
    if isinstance(value, str) and key.endswith("suit"):
        return suit_label(value)
    if isinstance(value, str) and card_parts(value):
        return card_label(value)
    return str(value)


def action_label(action: dict, options: dict | None = None) -> str:
    """`draw`, `take penalty`, `announce "Mau"`, `play 7♥H`, `pass card k2 (step 4)`."""
    kind = action.get("type", "?")
    text = words(kind)
    word = (options or {}).get("announce_word")
    if kind == "announce" and word:
        text += f' "{word}"'
    extras = [f"{words(k)} {value_label(k, v)}" for k, v in action.items() if k != "type"]
    return text + (" (" + ", ".join(extras) + ")" if extras else "")


def choice_label(action: dict, siblings: list[dict], options: dict | None = None) -> str:
    """What tells one of a card's actions from the others: `call ♠S`, `+ announce "Mau"`."""
    keys = sorted({k for a in siblings for k in a} - {"type"})
    varying = [k for k in keys if len({repr(a.get(k)) for a in siblings}) > 1]
    parts = []
    if len({a.get("type") for a in siblings}) > 1:
        parts.append(words(action.get("type", "?")))
    word = (options or {}).get("announce_word") or "announce"
    for k in varying:
        v = action.get(k)
        if k == "called_suit":
            parts.append(f"call {suit_label(v)}" if v else "call no suit")
        elif k == "announce":
            parts.append(f'+ announce "{word}"' if v else "no announcement")
        elif v is not None:
            parts.append(f"{words(k)} {value_label(k, v)}")
    return ", ".join(parts) or action_label(action, options)


def assign_keys(actions: list[dict]) -> list[tuple[str, dict]]:
    """A letter for each free action, from its own name where one is free (`d` draw, `p` pass,
    `t` take penalty), never a reserved one; the order of the list is kept."""
    used = set(RESERVED_KEYS)
    out = []
    for action in actions:
        name = re.sub(r"[^a-z]", "", action.get("type", "").lower())
        pool = list(name) + list("abcdefghijklmnoprstuvwxyz")
        key = next((c for c in pool if c not in used), None)
        if key is None:
            continue
        used.add(key)
        out.append((key, action))
    return out


def seat_name(view: dict, seat: int | None) -> str:
    for row in view.get("seats") or []:
        if row.get("seat") == seat:
            return row.get("name") or f"seat {seat}"
    return f"seat {seat}"


def seconds_left(deadline_ms: int | None, now_ms: float) -> int | None:
    if not deadline_ms:
        return None
    return max(0, int((deadline_ms - now_ms + 999) // 1000))


def turn_line(view: dict, me: int | None, now_ms: float) -> str:
    """Whose turn it is and how long is left, or where the match stands."""
    status = view.get("status")
    if status == "open":
        return f"waiting to start: {len(view.get('seats') or [])} seated"
    if status == "finished":
        return "the match is over"
    left = seconds_left(view.get("intermission_deadline"), now_ms)
    if view.get("phase") in ("scoring", "intermission") or (left is not None and not view.get("turn")):
        return "round over" + (f": next deal in {left} s" if left is not None else "")
    turn = view.get("turn") or {}
    left = seconds_left(turn.get("deadline"), now_ms)
    clock = f" ({left} s left)" if left is not None else ""
    extras = ", ".join(f"{words(k)} {v}" for k, v in turn.items()  # the game's own: step, draws left
                       if k not in ("seat", "turn_id", "deadline") and isinstance(v, (int, str)))
    extras = f" — {extras}" if extras else ""
    seat = turn.get("seat")
    if seat is None:
        return f"everyone acts at once{clock}{extras}"
    who = "your turn" if seat == me else f"{seat_name(view, seat)}'s turn"
    return who + clock + extras


def table_lines(view: dict) -> list[str]:
    """The top card and called suit first, then every other table field by name."""
    table = view.get("table") or {}
    lines = []
    if table.get("top_card"):
        lines.append(f"top card: {card_label(table['top_card'])}")
    if table.get("called_suit"):
        suit = table["called_suit"]
        lines.append(f"called suit: {suit_label(suit)} ({SUITS.get(suit, ('', suit))[1]})")
    for key, value in table.items():
        if key in _TABLE_HEAD or key in _TABLE_SKIP or key.endswith("deadline") or value in (None, [], {}, False):
            continue  # a deadline is counted down on the turn line
        lines.append(f"{words(key)}: {_short(key, value)}")
    return lines


def _short(key: str, value: Any, depth: int = 0) -> str:
    """A value on one line: cards and suits by symbol, a long list by its last five entries."""
    if isinstance(value, list):
        items = [_short(key, v, depth + 1) for v in value[-5:]]
        return ("…, " if len(value) > 5 else "") + (", " if depth == 0 else " ").join(
            f"[{i}]" if isinstance(v, dict) else i for i, v in zip(items, value[-5:]))
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_short(key, v, depth + 1) or '-'}" if str(k).isdigit()  # by seat
                         else f"{words(str(k))} {_short(str(k), v, depth + 1)}" for k, v in value.items())
    return value_label(key, value)


def you_lines(view: dict) -> list[str]:
    """What the game tells only you besides your hand and actions (a Sakapuss pass log, ...)."""
    you = view.get("you") or {}
    return [f"{words(k)}: {_short(k, v)}" for k, v in you.items()
            if k not in ("seat", "hand", "legal_actions") and v not in (None, [], {})]


def seat_lines(view: dict, me: int | None) -> list[str]:
    """One row per seat: who, kind and strength, state, cards in hand, score, and any extra list
    the game keeps per seat (Sakapuss parasites)."""
    turn = (view.get("turn") or {}).get("seat")
    out = []
    for row in view.get("seats") or []:
        seat = row.get("seat")
        mark = "▶" if seat == turn and view.get("status") == "running" else " "
        who = row.get("name") or f"seat {seat}"
        kind = row.get("kind", "")
        if row.get("strength"):
            kind += f" {row['strength']}"
        you = " (you)" if seat == me else ""
        extras = [f"{words(k)}: {_short(k, v)}" for k, v in row.items() if isinstance(v, list) and v]
        state = "" if row.get("state") in (None, "active") else f" [{row['state']}]"
        line = (f"{mark} {seat}: {who}{you} — {kind}{state} — {row.get('hand_count', 0)} cards"
                f" — score {row.get('score', 0)}")
        out.append(line + ("; " + "; ".join(extras) if extras else ""))
    return out


def score_lines(view: dict) -> list[str]:
    """Every scored round's points by seat and the running totals; then the standings."""
    scores = view.get("scores") or []
    out = []
    if scores:
        seats = sorted({int(s) for entry in scores for s in entry.get("totals", {}) if str(s).isdigit()})
        out.append("round  " + "  ".join(f"{seat_name(view, s)[:10]:>10}" for s in seats))
        for entry in scores:
            points = entry.get("points", {})
            out.append(f"{entry.get('round', '?'):>5}  "
                       + "  ".join(f"{points.get(str(s), ''):>10}" for s in seats))
        totals = scores[-1].get("totals", {})
        out.append("total  " + "  ".join(f"{totals.get(str(s), ''):>10}" for s in seats))
    standings = view.get("standings") or []
    if standings:
        out.append("standings:")
        for row in sorted(standings, key=lambda r: (r.get("rank", 0), r.get("seat", 0))):
            out.append(f"  {row.get('rank')}. {row.get('name')} — {row.get('total')}")
    return out


def event_line(event: dict, view: dict) -> str:
    """One line of the log: `#12 bot 1: CardPlayed card 7♥H`."""
    seat = event.get("seat")
    who = f"{seat_name(view, seat)}: " if seat is not None else ""
    data = event.get("data") or {}
    bits = [f"{words(k)} {value_label(k, v)}" for k, v in data.items()
            if isinstance(v, (str, int)) and not isinstance(v, bool) and len(str(v)) <= 24
            and k not in ("seat", "game_id", "turn_id") and not k.endswith("deadline")]
    return f"#{event.get('seq')} {who}{event.get('type')}" + (" " + ", ".join(bits[:4]) if bits else "")
