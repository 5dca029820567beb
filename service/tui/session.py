"""What `meow play` was asked to do (create, join or watch a table) and the seat it ends up with."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.tui.client import MeowClient


@dataclass(frozen=True)
class Plan:
    """Create a table (`variant`, `bots`, `options`), join one (`join`, with `token` to return to a
    seat already held) or watch one (`watch`)."""
    variant: str | None = None
    bots: tuple[str, ...] = ()
    options: dict = field(default_factory=dict)
    max_players: int | None = None
    join: str | None = None
    watch: str | None = None
    token: str | None = None
    name: str = "me"
    start: bool = True


@dataclass
class Seat:
    """Where the client sits: the game, its seat token (None for a spectator), the owner token if
    it created the table, and the seat number once known."""
    game: str
    token: str | None = None
    owner: str | None = None
    seat: int | None = None


async def open_table(client: MeowClient, plan: Plan) -> Seat:
    """Creates, joins or only looks up the table, through the public API (raises ApiError)."""
    if plan.watch:
        await client.view(plan.watch, None)  # 404 now rather than a silent empty screen
        return Seat(plan.watch)
    if plan.join:
        if plan.token:
            view = await client.view(plan.join, plan.token)
            return Seat(plan.join, plan.token, None, (view.get("you") or {}).get("seat"))
        taken = await client.take_seat(plan.join, None, name=plan.name)
        return Seat(plan.join, taken["token"], None, taken["seat"])
    if not plan.variant:
        raise ValueError("a table needs a variant")
    created = await client.create(plan.variant, plan.options, plan.max_players)
    game, owner = created["id"], created["owner_token"]
    mine = await client.take_seat(game, owner, name=plan.name)  # with the owner token: the owner's seat
    for strength in plan.bots:
        await client.take_seat(game, owner, bot=strength)
    if plan.start:
        await client.start(game, owner)
    return Seat(game, mine["token"], owner, mine["seat"])
