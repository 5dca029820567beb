"""Pure pieces of the terminal table: how a card, an action, the seats, the table, the turn and the
scores read. Everything is drawn from the view, `legal_actions` and the game's catalogue entry
(service/tui/game.py: faces, marks, words), never from a game's name: every game in the registry
renders, and a field the marks do not know is shown as it is."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from service.tui.game import Game, words

RESERVED_KEYS = frozenset("q")  # quit
SEAT_ROW = frozenset({"seat", "name", "kind", "strength", "state", "hand_count", "score", "timeouts",
                      "removal_deadline"})  # the kernel's seat row (API.md); the rest is the game's


def printable(text: str) -> str:
    """A line as the screen shows it: every control or format character (C0 and C1 controls — ESC
    starts a terminal escape —, line and paragraph separators, bidi overrides, zero-width
    characters) becomes U+FFFD, so a string from the server can neither move the cursor, rewrite
    the terminal, reorder the line nor break it in two. Markup is the app's part: it shows every
    line as a rich ``Text``, never parsed (service/tui/app.py ``shown``)."""
    return "".join("\ufffd" if unicodedata.category(ch) in _UNPRINTABLE else ch for ch in text)


_UNPRINTABLE = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))


def _present(value: Any) -> bool:
    return value not in (None, [], {}, "")


def actions_for(game: Game, card: str, actions: Iterable[dict]) -> list[dict]:
    """The legal actions that play this hand card (equal ids are copies: the same actions)."""
    return [a for a in actions if game.card_of(a) == card]


def free_actions(game: Game, hand: list[str], actions: Iterable[dict]) -> list[dict]:
    """The legal actions that play no card of the hand (draw, pass, take penalty, announce, ...)."""
    return [a for a in actions if game.card_of(a) not in hand]


def _arg(game: Game, action: dict, key: str) -> str | None:
    """One field of an action in the game's words (`arg.<field>`), or None for one not shown."""
    value = action.get(key)
    mark = game.action_mark(action.get("type", ""), key)
    if mark.get("show") in ("card", "none"):
        return None
    if isinstance(value, bool) and game.has(f"arg.{key}.{str(value).lower()}"):
        return game.tell(f"arg.{key}.{str(value).lower()}", action)
    if game.has(f"arg.{key}"):
        return game.tell(f"arg.{key}", {"value": value}, read_as={"value": mark.get("kind", "")})
    return f"{words(key)} {game.read(value, mark.get('kind', ''))}"


def action_label(game: Game, action: dict) -> str:
    """An action in the game's words: its type's (`action.<type>`), its card's face, its arguments."""
    kind = action.get("type", "?")
    text = game.tell(f"action.{kind}", action, words(kind))
    card = game.card_of(action)
    if card is not None:
        text += f" {game.card_label(card)}"
    extras = [x for k in action if k != "type" and (x := _arg(game, action, k))]
    return text + (" (" + ", ".join(extras) + ")" if extras else "")


def choice_label(game: Game, action: dict, siblings: list[dict]) -> str:
    """What tells one of a card's actions from the others: the words of the fields that differ."""
    keys = sorted({k for a in siblings for k in a} - {"type"})
    varying = [k for k in keys if len({repr(a.get(k)) for a in siblings}) > 1]
    parts = []
    if len({a.get("type") for a in siblings}) > 1:
        parts.append(game.tell(f"action.{action.get('type', '?')}", action, words(action.get("type", "?"))))
    for k in varying:
        if k in action and (x := _arg(game, action, k)):
            parts.append(x)
        elif k not in action:
            parts.append(f"no {words(k)}")
    return ", ".join(parts) or action_label(game, action)


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


def seconds_left(deadline_ms: int | None, now_ms: float) -> int | None:
    if not deadline_ms or not isinstance(deadline_ms, (int, float)):
        return None
    return max(0, int((deadline_ms - now_ms + 999) // 1000))


def _timer(game: Game, part: str, obj: Any) -> Any:
    return next((v for _, v, m in game.fields(part, obj) if m.get("show") == "timer" and v), None)


def turn_line(game: Game, view: dict, me: int | None, now_ms: float) -> str:
    """Whose turn it is and how long is left, or where the match stands."""
    status = view.get("status")
    if status == "open":
        return f"waiting to start: {len(view.get('seats') or [])} seated"
    if status == "finished":
        return "the match is over"
    turn = view.get("turn") or {}
    left = seconds_left(view.get("intermission_deadline"), now_ms)
    if not turn:
        if left is not None:
            return f"round over: next deal in {left} s"
        phase = view.get("phase")
        return game.tell(f"phase.{phase}", {}, words(str(phase))) if phase else ""
    left = seconds_left(_timer(game, "turn", turn), now_ms)
    clock = f" ({left} s left)" if left is not None else ""
    seat = turn.get("seat")
    # everyone at once: the game's words for it, from the first turn field it has words for
    own = None if seat is not None else next((k for k, v in turn.items() if _present(v) and game.has(f"turn.{k}")), None)
    extras = ", ".join(f"{game.field_label(k)}: {game.read_field(k, v, m.get('kind', ''))}"
                       for k, v, m in game.fields("turn", turn)  # the game's own rows: draws left, ...
                       if k not in ("seat", own) and m.get("show") == "row" and isinstance(v, (int, str))
                       and not isinstance(v, bool))
    extras = f" — {extras}" if extras else ""
    if seat is None:
        return (game.tell(f"turn.{own}", turn) if own else "everyone acts at once") + clock + extras
    who = "your turn" if seat == me else f"{game.seat_name(seat)}'s turn"
    return who + clock + extras


def table_lines(game: Game, view: dict) -> list[str]:
    """The fields marked `top` first, then notes, then every row by its label; per-seat fields are
    in the seat rows, and a timer is counted down on the turn line."""
    top, notes, rows = [], [], []
    for k, v, m in game.fields("table", view.get("table") or {}):
        show, kind = m.get("show"), m.get("kind", "")
        if v in (None, [], {}, False, "") or show in ("none", "seat", "timer"):  # nothing to tell (a zero, a false flag)
            continue
        label = game.field_label(k)
        if show == "top":
            top.append(f"{label}: {game.read_field(k, v, kind)}")
        elif show == "note" and isinstance(v, dict):
            notes.append(game.tell(f"field.{k}", v, f"{label}: {game.read_field(k, v)}"))
        else:
            rows.append(f"{label}: {game.read_field(k, v, kind)}")
    return top + notes + rows


def you_lines(game: Game, view: dict) -> list[str]:
    """What the game tells only you besides your hand and actions."""
    you = view.get("you") or {}
    out = []
    for k, v, m in game.fields("you", {k: v for k, v in you.items() if k not in ("seat", "hand", "legal_actions")}):
        if _present(v) and m.get("show") != "none":
            out.append(f"{game.field_label(k)}: {game.read_field(k, v, m.get('kind', ''))}")
    return out


def _seat_facts(game: Game, view: dict, row: dict) -> list[str]:
    """A seat's own facts: the table's per-seat fields (a value by seat, or a badge on the seats
    listed) and the game's extras of the seat row."""
    out = []
    seat = row.get("seat")
    for k, v, m in game.fields("table", view.get("table") or {}):
        if m.get("show") != "seat" or not _present(v):
            continue
        if isinstance(v, dict):
            x = v.get(str(seat))
            if _present(x):
                out.append(f"{game.field_label(k)}: {game.read_field(k, x, m.get('kind', ''))}")
        elif (isinstance(v, list) and seat in v) or v == seat:
            n = v.index(seat) + 1 if isinstance(v, list) else 1
            out.append(game.tell(f"field.{k}", {"n": n}, words(k)))
    extra = {k: v for k, v in row.items() if k not in SEAT_ROW}
    for k, v, m in game.fields("seat", extra):
        if _present(v) and m.get("show") != "none":
            out.append(f"{game.field_label(k)}: {game.read_field(k, v, m.get('kind', ''))}")
    return out


def cards(n: Any) -> str:
    """``n cards``, ``1 card``."""
    return f"{n} card" if n == 1 else f"{n} cards"


def seat_lines(game: Game, view: dict, me: int | None) -> list[str]:
    """One row per seat: who (a bot with its strength), state, cards in hand, score, its own facts."""
    turn = (view.get("turn") or {}).get("seat")
    out = []
    for row in view.get("seats") or []:
        seat = row.get("seat")
        mark = "▶" if seat == turn and view.get("status") == "running" else " "
        who = row.get("name") or f"seat {seat}"
        kind = "" if row.get("kind") == "human" else str(row.get("kind", ""))  # a bot says so, with its strength
        if row.get("strength"):
            kind += f" {row['strength']}"
        you = " (you)" if seat == me else ""
        extras = _seat_facts(game, view, row)
        state = "" if row.get("state") in (None, "active") else f" [{row['state']}]"
        what = f" · {kind.strip()}" if kind.strip() else ""
        line = f"{mark} {seat}: {who}{you}{what}{state} · {cards(row.get('hand_count', 0))} · score {row.get('score', 0)}"
        out.append(line + ("; " + "; ".join(extras) if extras else ""))
    return out


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def score_lines(game: Game, view: dict, width: int = 80) -> list[str]:
    """What points mean (the game's `points`), then a row per seat: its points in each scored round
    (the latest that fit in ``width``; `…` for the earlier ones) and its total (the last one scored:
    a seat out of play keeps it)."""
    scores = [e for e in view.get("scores") or [] if isinstance(e, dict)]
    out = []
    if scores:
        if game.has("points"):
            out.append(game.tell("points"))
        seats = sorted({int(s) for entry in scores for s in entry.get("totals", {}) if str(s).isdigit()})
        totals = {s: next((e["totals"][str(s)] for e in reversed(scores) if str(s) in (e.get("totals") or {})), "")
                  for s in seats}
        name_w = min(12, max([len(game.seat_name(s)) for s in seats] + [5]))
        total_w = max([len(str(t)) for t in totals.values()] + [5])
        cols = [(str(e.get("round", "?")), {str(s): (e.get("points") or {}).get(str(s), "") for s in seats})
                for e in scores]
        widths = [max([len(r)] + [len(str(v)) for v in pts.values()]) + 1 for r, pts in cols]
        room, shown = width - name_w - total_w - 3, 0
        while shown < len(cols) and sum(widths[len(cols) - shown - 1:]) + (2 if shown + 1 < len(cols) else 0) <= room:
            shown += 1
        keep = list(zip(cols[len(cols) - shown:], widths[len(cols) - shown:], strict=True))
        more = "…" if shown < len(cols) else ""
        out.append(f"{'round':<{name_w}} {more:>1}" + "".join(f"{r:>{w}}" for (r, _), w in keep) + f" {'total':>{total_w}}")
        for s in seats:
            out.append(f"{_fit(game.seat_name(s), name_w):<{name_w}} {more:>1}"
                       + "".join(f"{pts[str(s)]!s:>{w}}" for (_, pts), w in keep) + f" {totals[s]!s:>{total_w}}")
    return out  # the standings are the match's summary (``summary_lines``)


def spoken(name: str) -> str:
    """A name read aloud: ``NewThing`` -> ``new thing``, ``n_x`` -> ``n x`` (a name with no words)."""
    return words(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)).lower()


def winners_of(data: dict) -> list[Any]:
    """The seats an event names as its winners (the kernel's `winner` / `winners`; docs/clients.md)."""
    many = data.get("winners")
    if isinstance(many, list) and many:
        return many
    return [data["winner"]] if data.get("winner") is not None else []


def won_by(names: list[str], you: bool) -> str:
    """``bot 1 wins``, ``ann and bot 1 win``; your own seat is ``you`` (``you win``, ``you and bot 1
    win``), whatever name you sat down with (the default ``me`` would read "me wins")."""
    if you:
        names = ["you", *names]
    return f"{' and '.join(names)} {'wins' if len(names) == 1 and not you else 'win'}"


def _winners(game: Game, seats: list[Any], me: int | None) -> tuple[list[str], bool]:
    """The winners' names but yours, and whether you are one of them."""
    mine = me is not None and any(str(w) == str(me) for w in seats)
    return [game.seat_name(w) for w in seats if me is None or str(w) != str(me)], mine


def event_line(game: Game, event: dict, me: int | None = None) -> str | None:
    """One line of the log in the game's words (`bot 1 played 7 of hearts`), with the winner an
    end of a round or a match names (``you win`` for your seat), or None for an event the game's
    words leave out of a log."""
    kind = str(event.get("type"))
    if game.quiet(kind):
        return None
    thing = dict(event.get("data") or {})
    if thing.get("seat") is None and event.get("seat") is not None:  # the data's seat, else the event's
        thing["seat"] = event["seat"]
    seat = thing.get("seat")
    who = f"{game.seat_name(seat)}: " if seat is not None else ""
    bits = [f"{spoken(str(k))} {v}" for k, v in thing.items()  # no words for it: its short facts as they are
            if isinstance(v, (str, int)) and not isinstance(v, bool) and len(str(v)) <= 24 and k != "seat"][:4]
    plain = f"{who}{spoken(kind)}" + (" " + ", ".join(bits) if bits else "")
    told = game.tell(f"event.{kind}", thing, plain)
    won, mine = _winners(game, winners_of(thing), me)
    if (won or mine) and (mine or not all(name in told for name in won)):
        told += f" — {won_by(won, mine)}"
    return told


def revealed_hands(data: dict) -> dict[str, list[str]] | None:
    """The hands an event shows at the end of a round (a `hands` map: seat -> card ids), or None."""
    hands = data.get("hands")
    if not isinstance(hands, dict) or not hands:
        return None
    if not all(str(k).isdigit() and isinstance(v, list) and all(isinstance(c, str) for c in v) for k, v in hands.items()):
        return None
    return {str(k): list(v) for k, v in hands.items()}


def between_rounds(view: dict) -> bool:
    """A round is over and the next not dealt (or the match is over)."""
    return view.get("status") == "finished" or (view.get("status") == "running" and not view.get("turn")
                                                 and bool(view.get("intermission_deadline") or view.get("end_reason")))


def summary_lines(game: Game, view: dict, end: dict | None, hands: dict[str, list[str]] | None,
                  me: int | None = None) -> list[str]:
    """The end of a round or of the match, told: why it ended (`end.<reason>`) and who won (the end's
    `winner`, else the standings' first), each seat's points this round and total in the game's terms
    (`points`), the hands shown (``hands``: seat -> cards, as an end event revealed them)."""
    over = view.get("status") == "finished"
    end = end or {}
    reason = end.get("reason") or view.get("end_reason")
    why = f" ({game.tell(f'end.{reason}', {}, spoken(str(reason)))})" if reason else ""
    won, mine = _winners(game, winners_of(end), me)
    standings = sorted(view.get("standings") or [], key=lambda r: (r.get("rank", 0), r.get("seat", 0)))
    if over and not (won or mine):
        firsts = [r for r in standings if r.get("rank") == 1]
        mine = me is not None and any(r.get("seat") == me for r in firsts)
        won = [str(r.get("name")) for r in firsts if me is None or r.get("seat") != me]
    head = "Game over" if over else f"Round {view.get('round')} over"
    out = [f"{head}{why}" + (f": {won_by(won, mine)}" if won or mine else "")]
    scores = [e for e in view.get("scores") or [] if isinstance(e, dict)]
    last = scores[-1] if scores else {}
    if last and not over:
        caption = game.tell("points") if game.has("points") else "points"
        out.append(f"round {last.get('round', '?')}, {caption}:")
        for k, v in sorted((last.get("points") or {}).items(), key=lambda kv: str(kv[0])):
            out.append(f"  {game.seat_name(k)}: {v} (total {(last.get('totals') or {}).get(k, '')})")
    if over and standings:
        if game.has("points"):
            out.append(game.tell("points") + ":")
        out += [f"  {r.get('rank')}. {r.get('name')} — {r.get('total')}" for r in standings]
    for seat, held in (hands or {}).items():
        if held:
            out.append(f"  {game.seat_name(seat)} held: {' '.join(game.card_label(c) for c in held)}")
    return out


def flag_fields(game: Game, action: dict) -> list[str]:
    """An action's yes/no arguments (marked `arg`; an announcement a play may carry)."""
    return [k for k, v in action.items() if k != "type" and isinstance(v, bool)
            and game.action_mark(str(action.get("type", "")), k).get("show") == "arg"]


def flag_words(game: Game, action: dict) -> str:
    """The words of an action's yes/no arguments that are set (`say “Mau”`)."""
    return ", ".join(x for k in flag_fields(game, action) if action[k] and (x := _arg(game, action, k)))


def split_by_flags(game: Game, actions: list[dict]) -> tuple[list[dict], list[dict]]:
    """A card's actions: (those with no yes/no argument set, those with one set): Enter plays the
    first kind, `+` the second, each asking only what else tells them apart (a suit to call)."""
    plain = [a for a in actions if not any(a[k] for k in flag_fields(game, a))]
    flagged = [a for a in actions if any(a[k] for k in flag_fields(game, a))]
    return plain, flagged
