"""`meow play`: a table in the terminal (textual), on the public API only. The screen is drawn from
the view and `you.legal_actions`, so it plays every game of the registry without knowing it."""
from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Button, Static

from service.tui import render
from service.tui.client import ApiError, Feed, MeowClient
from service.tui.game import Game
from service.tui.session import Plan, Seat, open_table

START = {"type": "start"}  # the owner's own key while the table is open; not a game action
HELP = ("←/→ or 1-9, 0: choose a card · Enter: play it · +: play it and say the word · "
        "letters: the actions shown · Esc: back · q: quit")
SHORT_HELP = "←/→ 1-9: card · Enter: play · +: play and say · letters: actions · q: quit"
WATCH_HELP = "watching: no keys to play · q: quit"  # a spectator's footer
STORY = 60  # the events told when the screen opens (the web page's story loads its last 60 too)
FLAGGED = "+"  # plays the chosen card with its yes/no arguments set (an announcement), in one go


def shown(*lines: str) -> Text:
    """What a widget shows: plain text, one line per argument. Every string from the server (a name,
    an announcement word, an event, a refusal's detail) reaches the screen through here or through
    ``Text.append``: never as Textual markup, so `[/]`, `[@click=app.quit]` or `[link=...]` in a
    name shows as typed; and each line is ``render.printable`` (no control character)."""
    return Text("\n".join(render.printable(line) for line in lines))


def fitted(width: int, *texts: str) -> str:
    """The first of ``texts`` (the fullest first) that fits in ``width`` columns, else the last."""
    return next((t for t in texts if len(t) <= width), texts[-1])


class Drawn(Static):
    """A box drawn for its own size each time it is shown: ``source(width)`` gives its lines (wrapped
    here, as the screen wraps them); with ``tail`` the newest (last) lines that fit its height are
    kept, so a log reads to its latest line and nothing is cut at the side."""

    def __init__(self, *, tail: bool = False, **kw: object) -> None:
        super().__init__(markup=False, **kw)  # type: ignore[arg-type]
        self.source: Callable[[int], list[str]] = lambda width: []
        self.tail = tail

    def show(self, source: Callable[[int], list[str]]) -> None:
        self.source = source
        self.update(shown(*source(self.content_size.width or 80)))  # its `content`: every line, unfitted

    def render(self) -> Text:
        width, height = self.content_size
        lines = shown(*self.source(width or 80))
        if not width or not height:
            return lines
        wrapped = lines.wrap(self.app.console, width)
        kept = list(wrapped)[-height:] if self.tail else list(wrapped)[:height]
        return Text("\n").join(kept)


class ActionButton(Button):
    """A free action, clickable; its key is on its label."""

    def __init__(self, key: str, action: dict, game: Game) -> None:
        label = "start the game" if action is START else render.action_label(game, action)
        super().__init__(shown(f"[{key}] {label}"), compact=True, classes="action")
        self.sends, self.can_focus = action, False


class TableApp(App[None]):
    """One table: the hand, the actions legal now, the table, the seats, the scores, the events."""

    CSS = """
    #title { background: $primary; color: $text; padding: 0 1; }
    #turn { padding: 0 1; text-style: bold; }
    #middle { height: 1fr; }
    #left { width: 3fr; }
    #right { width: 2fr; }
    #log { height: 1fr; border: round $secondary; padding: 0 1; }
    #table, #seats, #scores { border: round $secondary; height: auto; padding: 0 1; }
    #hand { border: round $accent; height: auto; padding: 0 1; }
    #choices { height: auto; padding: 0 1; }
    #actions { height: auto; }
    #actions Button { margin: 0 1; }
    #status { height: auto; padding: 0 1; color: $error; }
    #help { color: $text-muted; padding: 0 1; height: 1; }
    /* 80x24 and other short screens: a rule over each box instead of a frame around it; the
       scores head the right column (whole: a row per seat), the log takes the rest of it */
    Screen.-short #table, Screen.-short #seats {
        border: none; border-top: solid $secondary; padding: 0 1;
    }
    Screen.-short #right { border-left: solid $secondary; }
    Screen.-short #scores { border: none; padding: 0 0 0 1; }
    Screen.-short #log { border: none; border-top: solid $secondary; padding: 0 0 0 1; }
    Screen.-short #hand { border: none; border-top: solid $accent; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012 - textual's own class attribute
    BINDINGS = [("q", "quit", "quit")]  # noqa: RUF012 - textual's own class attribute, never mutated

    def __init__(self, client: MeowClient, plan: Plan) -> None:
        super().__init__()
        self.client, self.plan = client, plan
        self.seat: Seat | None = None
        self.view: dict = {}
        self.catalogue: list[dict] = []  # GET /v1/variants: each game's faces, marks and words
        self.game = Game()
        self.selected = 0
        self.choosing: list[dict] | None = None  # a card's actions, waiting for one to be picked
        self.keys: dict[str, dict] = {}
        self.buttons: list[dict] = []
        self.buttons_game: Game | None = None
        self.feed = Feed()
        self.seen: list[int] = []  # every event's seq as it arrived (no gap, no repeat)
        self.told: deque[str] = deque(maxlen=300)  # the log: the events in the game's words
        self.end: dict | None = None  # the data of the event that ended the round (its reason, winner)
        self.hands: dict[str, list[str]] | None = None  # the hands an end of round showed
        self.sending = False
        self.message = ""
        self.hint = False  # the message is the client's own word on a key ("cannot be played now")
        self._wake = asyncio.Event()

    # ---- layout and start-up -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(shown("meow: connecting…"), id="title", markup=False)
        yield Static(id="turn", markup=False)
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield Static(id="table", markup=False)
                yield Static(id="seats", markup=False)
            with Vertical(id="right"):
                yield Drawn(id="scores")
                yield Drawn(id="log", tail=True)
        yield Static(id="hand", markup=False)
        yield Static(id="choices", markup=False)
        yield Horizontal(id="actions")
        yield Static(id="status", markup=False)
        yield Static(shown(HELP), id="help", markup=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)

    async def on_mount(self) -> None:
        self.set_interval(0.5, self.tick)
        self.run_worker(self.connect(), group="net")

    async def connect(self) -> None:
        try:
            self.seat = await open_table(self.client, self.plan)
        except (ApiError, ValueError) as exc:
            self.show_error(exc)
            return
        try:
            self.catalogue = await self.client.variants()
        except ApiError as exc:  # no faces, marks or words: the view is still drawn, as it is
            self.show_error(exc)
        await self.fetch()
        await self.recent()
        self.feed.last_id = int(self.view.get("version") or 0)
        self.feed.end_event = self.game.end_event  # the match's last event, as the catalogue names it
        self.feed.over = self.view.get("status") == "finished"  # nothing more will come
        self.run_worker(self.follow(), group="net")
        self.run_worker(self.refresher(), group="net")

    # ---- the network side ----------------------------------------------------------------
    async def fetch(self) -> None:
        assert self.seat is not None
        try:
            view = await self.client.view(self.seat.game, self.seat.token)
        except ApiError as exc:
            self.show_error(exc)
            return
        self.apply(view)

    async def recent(self) -> None:
        """The story so far: the last ``STORY`` events before the view, told at once (the stream
        follows from the view's version), so the log is not empty when the screen opens."""
        assert self.seat is not None
        version = int(self.view.get("version") or 0)
        if version <= 0:
            return
        try:
            events = await self.client.page(self.seat.game, self.seat.token, max(0, version - STORY))
        except (ApiError, ValueError):  # refused, or not JSON: the stream still tells what comes next
            return
        for event in events:
            if isinstance(event, dict) and isinstance(event.get("seq"), int) and event["seq"] <= version:
                self.tell(event)

    def tell(self, event: dict) -> None:
        self.note_end(event.get("data") or {})
        line = render.event_line(self.game, event, self.me)
        if line is not None:
            self.told.append(line)
            with contextlib.suppress(NoMatches):  # the screen is gone: the app is closing
                self.query_one("#log", Drawn).show(lambda width: list(self.told))

    async def refresher(self) -> None:
        """One view fetch per burst of events (they arrive in bursts: a move and what it causes)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self.fetch()

    async def follow(self) -> None:
        assert self.seat is not None
        try:
            async for event in self.client.events(self.seat.game, self.seat.token, self.feed):
                self.seen.append(event["seq"])
                self.tell(event)
                self._wake.set()
        except ApiError as exc:
            self.show_error(exc)
        if self.feed.revoked:
            self.show_error("this seat has left the game")
        self._wake.set()

    def note_end(self, data: dict) -> None:
        """Keep what an event says about the end of a round or the match (its `reason` and the
        kernel's `winner`/`winners`) and the hands it shows, for the summary."""
        if not isinstance(data, dict):
            return
        hands = render.revealed_hands(data)
        if hands is not None:
            self.hands = hands
        if "reason" in data and ("winner" in data or "winners" in data):
            self.end = data
        elif hands is None:
            return
        if self.view:
            self.redraw()

    async def send(self, action: dict) -> None:
        if self.sending or self.seat is None:
            return
        self.sending = True
        self.choosing = None
        try:
            if action is START:
                assert self.seat.owner
                answer = await self.client.start(self.seat.game, self.seat.owner)
            else:
                assert self.seat.token
                answer = await self.client.act(self.seat.game, self.seat.token, action)
            self.message, self.hint = "", False
            if isinstance(answer.get("game"), dict):
                self.apply(answer["game"])
        except ApiError as exc:
            self.show_error(exc)
            self._wake.set()  # the table moved on: show what is legal now
        finally:
            self.sending = False
            self.redraw()

    # ---- state → screen ------------------------------------------------------------------
    @property
    def me(self) -> int | None:
        you = self.view.get("you") or {}
        return you.get("seat", self.seat.seat if self.seat else None)

    @property
    def hand(self) -> list[str]:
        return list((self.view.get("you") or {}).get("hand") or [])

    @property
    def legal(self) -> list[dict]:
        return list((self.view.get("you") or {}).get("legal_actions") or [])

    def free(self) -> list[dict]:
        """The actions with a key of their own: every legal one that names no card, and the
        owner's start while the table is open."""
        out = render.free_actions(self.game, self.hand, self.legal)
        if self.view.get("status") == "open" and self.seat and self.seat.owner:
            out.insert(0, START)
        return out

    def apply(self, view: dict) -> None:
        if int(view.get("version") or 0) < int(self.view.get("version") or 0):
            return  # an older answer overtaken by a newer one
        moved = int(view.get("version") or 0) > int(self.view.get("version") or 0)
        if (moved and self.hint) or (render.between_rounds(view) and not render.between_rounds(self.view)):
            self.message, self.hint = "", False  # a stale word on a key, or a refusal, gone with its turn
        self.view = view
        if view.get("variant") != self.game.entry.get("name"):
            entry = next((e for e in self.catalogue if e.get("name") == view.get("variant")), {})
            self.game = Game(entry)
        self.game.view = view
        if view.get("turn"):
            self.end = self.hands = None  # a round in play: the last one's summary is gone
        if view.get("status") == "finished":
            self.feed.over = True  # the view says the match is over: no stream is reopened after this one
        self.selected = min(self.selected, max(0, len(self.hand) - 1))
        if self.choosing and not all(a in self.legal for a in self.choosing):
            self.choosing = None
        self.redraw()

    def redraw(self) -> None:
        """Draw the screen from the view; nothing once the screen is gone (a fetch or an event can
        still arrive while the app closes, as the half-second tick can)."""
        try:
            self.paint()
        except NoMatches:
            return

    def paint(self) -> None:
        view, game = self.view, self.game
        width = self.size.width
        self.query_one("#title", Static).update(shown(self.title_text(width)))
        watching = self.me is None  # a spectator: no play keys offered
        self.query_one("#help", Static).update(shown(WATCH_HELP if watching else fitted(width - 2, HELP, SHORT_HELP)))
        self.tick()
        if render.between_rounds(view):  # the round's (or the match's) end, told
            table = render.summary_lines(game, view, self.end, self.hands, self.me)
        else:
            table = render.table_lines(game, view) or ["no cards on the table"]
            if width < 100:  # a narrow screen: one run of facts, wrapped
                table = [" · ".join(table)]
        self.query_one("#table", Static).update(shown(*table))
        self.query_one("#seats", Static).update(shown(*render.seat_lines(game, view, self.me)))
        self.query_one("#scores", Drawn).show(lambda w: render.score_lines(game, view, w) or ["no scores yet"])
        self.query_one("#hand", Static).update(self.hand_text())
        choices = ""
        if self.choosing:
            choices = "choose: " + "   ".join(
                f"{i}: {render.choice_label(game, a, self.choosing)}" for i, a in enumerate(self.choosing, 1)
            ) + "   (Esc: back)"
        elif self.hand and self.me is not None:
            choices = self.flag_hint()
        box = self.query_one("#choices", Static)
        box.update(shown(choices))
        box.display = bool(choices)
        self.draw_buttons()
        status = self.query_one("#status", Static)
        status.update(shown(self.message))
        status.display = bool(self.message)

    def flag_hint(self) -> str:
        """What `+` does for the chosen card, in the game's words, when it has a play that says more."""
        card = self.hand[min(self.selected, len(self.hand) - 1)]
        flagged = render.split_by_flags(self.game, render.actions_for(self.game, card, self.legal))[1]
        if not flagged:
            return ""
        says = render.flag_words(self.game, flagged[0])
        return f"{self.game.card_label(card)}: Enter plays it · {FLAGGED} plays it and says: {says}"

    def title_text(self, width: int = 200) -> str:
        """The title, as full as fits in ``width`` (the version, then words, left out first)."""
        v = self.view
        if not v:
            return "meow"
        said = str(v.get("phase") or "")
        phase = f" / {self.game.tell(f'phase.{said}', {}, render.words(said))}" if said else ""
        who = f"seat {self.me}" if self.me is not None else "spectator"
        head = f"meow · {v.get('variant')}"
        return fitted(width - 2,
                      f"{head} · table {v.get('id')} · {v.get('status')}{phase} · round {v.get('round')} · "
                      f"v{v.get('version')} · you: {who}",
                      f"{head} · {v.get('id')} · {v.get('status')}{phase} · round {v.get('round')} · {who}",
                      f"{head} · {v.get('status')}{phase} · round {v.get('round')} · {who}")

    def hand_text(self) -> Text:
        if self.me is None:
            return Text("watching: no hand")
        hand, legal, game = self.hand, self.legal, self.game
        if not hand:
            return Text("your hand is empty")
        text = Text("your hand: ")
        for i, card in enumerate(hand):
            playable = bool(render.actions_for(game, card, legal))
            style = ("bold green" if playable else "dim") + (" red" if game.is_red(card) and not playable else "")
            if i == self.selected:
                style += " reverse"
            key = str(i + 1) if i < 9 else ("0" if i == 9 else " ")
            text.append(f" {key}:", style="bold" if playable else "dim")
            text.append(render.printable(f"{game.card_label(card)}{'*' if playable else ''}"), style=style)
        for line in render.you_lines(game, self.view):
            text.append("\n" + render.printable(line), style="italic")
        return text

    def draw_buttons(self) -> None:
        free = self.free()
        if free == self.buttons and self.game is self.buttons_game:
            return
        self.buttons_game = self.game
        self.buttons = free
        assigned = render.assign_keys(free)
        self.keys = dict(assigned)
        bar = self.query_one("#actions", Horizontal)
        bar.remove_children()
        bar.mount_all(ActionButton(key, action, self.game) for key, action in assigned)

    def tick(self) -> None:
        """The turn line's countdown, every half second; nothing while the screen is not composed
        (the interval can still fire once while the app is closing and its widgets are gone)."""
        if not self.view:
            return
        try:
            turn = self.query_one("#turn", Static)
        except NoMatches:
            return
        turn.update(shown(render.turn_line(self.game, self.view, self.me, time.time() * 1000)))

    def show_error(self, exc: object) -> None:
        self.message = (f"{exc.detail} ({exc.code})" if isinstance(exc, ApiError) else str(exc))
        self.hint = False
        self.query_one("#status", Static).update(shown(self.message))

    # ---- keys ----------------------------------------------------------------------------
    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, ActionButton):
            self.run_worker(self.send(event.button.sends), group="act")

    def on_key(self, event) -> None:
        key = event.key
        if self.choosing is not None:
            event.stop()
            if key.isdigit() and 1 <= int(key) <= len(self.choosing):
                self.run_worker(self.send(self.choosing[int(key) - 1]), group="act")
            elif key == "escape":
                self.choosing = None
                self.redraw()
            return
        hand = self.hand
        if key in ("left", "right") and hand:
            self.selected = (self.selected + (1 if key == "right" else -1)) % len(hand)
        elif key.isdigit() and (int(key) or 10) <= len(hand):
            self.selected = (int(key) or 10) - 1
        elif key in ("enter", "space") and hand:
            self.play_selected()
        elif key in (FLAGGED, "plus") and hand:
            self.play_selected(flagged=True)
        elif key in self.keys:
            self.run_worker(self.send(self.keys[key]), group="act")
        else:
            return
        event.stop()
        self.redraw()

    def play_selected(self, flagged: bool = False) -> None:
        """The chosen card's legal actions: with ``flagged`` (`+`) those with a yes/no argument set
        (its announcement), else those without; one is sent at once, several (a suit to call) ask."""
        card = self.hand[self.selected]
        actions = render.actions_for(self.game, card, self.legal)
        plain, said = render.split_by_flags(self.game, actions)
        actions = (said if flagged else plain) or actions
        if not actions:
            self.message, self.hint = f"{self.game.card_label(card)} cannot be played now", True
        elif len(actions) == 1:
            self.run_worker(self.send(actions[0]), group="act")
        else:
            self.choosing = actions  # a suit to call, an announcement to make, ...


async def play(server: str, plan: Plan) -> Seat | None:
    client = MeowClient(server)
    app = TableApp(client, plan)
    try:
        await app.run_async()
    finally:
        await client.close()
    return app.seat
