"""§7.4 hard bot: determinized Monte-Carlo search over samples of the bot's own SeatView.

``choose(view, rng)`` is a policy like the others: its only inputs are the ``SeatView`` and the
rng. Every sample is a determinization (``determinize.Determinizer``: unseen cards = deck − own
hand − public discard; each opponent gets his public hand size; the rest is the stock in random
order), played out through ``engine.legal_actions`` / ``decide`` / ``evolve`` with the ``medium``
policy (ε = 0.1 uniformly random over the full legal-action enumeration, announcement variants
included) to the end of the round. Shuffles inside a simulation get seeds drawn from the rng
(``decide`` itself never draws randomness).

Two searches share that machinery:
- ``mode="pimc"`` (default, the §7.4 "acceptable first version"): every sampled deal is played
  out once after each root move with one shared rollout seed (common random numbers), and the
  medium move is kept unless another move beats it by more than two standard errors of the
  paired difference. At the budgets a bot can afford (~100-300 simulations) this measured
  stronger than the tree search below.
- ``mode="ismcts"``: single-observer ISMCTS, UCB1 c = 0.7 with availability counts, each node
  scored for the seat that chose its action, one re-determinization per iteration.

Reward per seat (§7.4): (mean opponent penalty − own penalty) / scale, clipped to [−1, 1], where
scale = hand_size × the mean card value (a full losing hand); −1 more if the round pushes the
seat over the penalty limit (elimination / match loss), +0.5 if it eliminates the last opponent.

Budget: ``hard_bot_budget_ms`` (default 800) or ``hard_bot_iterations`` (default 2000 simulated
playouts), whichever comes first, read from the view's options; both can be overridden (``None`` =
no limit of that kind). The time budget is the ONE impurity of the hard bot, and it is kept out of
this package (``tests/unit/rules/test_purity.py`` forbids ``time`` in ``service/bots``): the
caller passes ``clock=time.perf_counter`` (service/app/bots.py, bench/tournament.py). Without a
clock only the iteration budget applies, so a fixed rng seed gives a fixed decision.

Inference (H4, §7.4): the view's public ``table.drew_on`` caps (service/rules/inference.py) weight
the determinizations ×0.2 per card beyond a cap. Rollouts stop after ``CUTOFF_PLIES`` plies and
are scored from hand sizes/values (``estimate``); the reward is ``WIN_WEIGHT`` × going out first
(the tournament's measure) plus the rest × the penalty difference. Known limit: the ISMCTS treats
opponents' moves as fully observed (single observer).
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable, Mapping

from service.rules.cards import SHORT, hand_points
from service.rules.engine import decide, evolve, legal_actions
from service.rules.model import SEAT_ACTIONS, Context, NeedMoreSeeds
from service.rules.state import TURN_PHASES, Match
from service.rules.views import SeatView

from .determinize import Determinizer
from .medium import choose_situation
from .situation import from_state, from_view

UCB_C = 0.7
EPSILON = 0.1
T_MARGIN = 2.0  # PIMC leaves the medium move only when another beats it by > 2 standard errors
MAX_PLIES = 400  # safety cap per simulation (the engine's own max_turns_per_round also ends it)
CUTOFF_PLIES: int | None = 16  # rollouts stop after this many plies and are scored by hand sizes
WIN_WEIGHT = 0.8  # share of the reward given by winning the round (vs the penalty difference)
CARD_K = 0.35  # the cut-off evaluation: P(win) ~ 1/2 + tanh(CARD_K * hand-size lead) / 2
_DEFAULT = object()

Key = tuple


def choose(view: SeatView, rng: random.Random, *, budget_ms: Any = _DEFAULT,
           iterations: Any = _DEFAULT, c: float = UCB_C, epsilon: float = EPSILON,
           mode: str = "pimc", clock: Callable[[], float] | None = None) -> dict[str, Any]:
    """The hard policy. ``budget_ms`` / ``iterations`` override the options (None = unlimited).

    ``clock`` (seconds, e.g. ``time.perf_counter``) is passed in by the caller: without it the
    time budget is not applied and only the iteration budget bounds the search.
    """
    if not view.legal_actions:
        raise ValueError("no legal action")
    root_keys = canonical(view.legal_actions)
    if len(root_keys) == 1:
        return dict(next(iter(root_keys.values())))
    opts = view.public["options"]
    if budget_ms is _DEFAULT:
        budget_ms = opts.get("hard_bot_budget_ms", 800)
    if iterations is _DEFAULT:
        iterations = opts.get("hard_bot_iterations", 2000)
    if clock is None:
        budget_ms = None
    if budget_ms is None and iterations is None:
        raise ValueError("hard bot needs a time budget (with a clock) or an iteration budget")
    if mode == "ismcts":
        search = _Search(view, rng, c, epsilon, clock)
        search.run(budget_ms, iterations)
        return dict(root_keys[search.best(list(root_keys))])
    keys = _dedupe(root_keys)
    prior = _key_of(choose_situation(from_view(view), view.legal_actions, random.Random(0)))
    if prior not in keys:  # an equivalent wild card calling the same suit was kept instead
        prior = next((k for k in keys if k[0] == "play" and k[2] is not None and prior[0] == "play"
                      and (k[1][:-1], k[2]) == (prior[1][:-1], prior[2])), next(iter(keys)))
    search = _Search(view, rng, c, epsilon, clock)
    return dict(root_keys[search.pimc(list(keys), prior, budget_ms, iterations)])


def canonical(actions: Any) -> dict[Key, Mapping[str, Any]]:
    """Search moves: one per (type, card face, suit), the announcing variant where listed (H13)."""
    out: dict[Key, Mapping[str, Any]] = {}
    for a in actions:
        t = a["type"]
        if t == "announce":
            continue
        key: Key = ("play", SHORT[a["card"]], a.get("called_suit")) if t == "play" else (t,)
        if key not in out or a.get("announce"):
            out[key] = a
    if not out:
        for a in actions:
            out[(a["type"],)] = a
    return out


def _key_of(a: Mapping[str, Any]) -> Key:
    t = a["type"]
    return ("play", SHORT[a["card"]], a.get("called_suit")) if t == "play" else (t,)


def _dedupe(keys: Mapping[Key, Any]) -> dict[Key, Any]:
    """Two wild cards calling the same suit are the same move (only the kept copy differs)."""
    out: dict[Key, Any] = {}
    seen: set[tuple[str, str]] = set()
    for k, a in keys.items():
        if k[0] == "play" and k[2] is not None:
            face = (k[1][:-1], k[2])  # rank and called suit
            if face in seen:
                continue
            seen.add(face)
        out[k] = a
    return out


class _Node:
    __slots__ = ("seat", "n", "w", "avail", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.children: dict[Key, _Node] = {}


class _Search:
    def __init__(self, view: SeatView, rng: random.Random, c: float, epsilon: float,
                 clock: Callable[[], float] | None = None) -> None:
        self.clock = clock
        self.det = Determinizer(view)
        self.rng = rng
        self.c = c
        self.eps = epsilon
        self.now = view.now
        self.root = _Node(view.seat)
        self.iterations = 0
        o = self.det.options
        ranks = list(o["deck_ranks"])
        mean_card = sum(o["card_points"].get(r, 0) for r in ranks) / max(1, len(ranks))
        self.scale = max(1.0, int(o["hand_size"]) * mean_card)
        self.limit = int(o["penalty_limit"])
        self.gt = o["penalty_limit_comparison"] == "gt"
        self.mode = o["match_end_mode"]

    # ------------------------------------------------------------------ search
    def run(self, budget_ms: float | None, iterations: int | None) -> None:
        clock = self.clock
        deadline = None if budget_ms is None or clock is None else clock() + budget_ms / 1000.0
        n = 0
        while iterations is None or n < iterations:
            if deadline is not None and n > 0 and clock() >= deadline:
                break
            self.iterate()
            n += 1
        self.iterations = n

    def iterate(self) -> None:
        rng = self.rng
        m = self.det.sample(rng)
        node = self.root
        path: list[_Node] = []
        while m.rnd.phase in TURN_PHASES and m.status == "running":
            seat = m.rnd.current
            cand = canonical(legal_actions(m, seat, self.now))
            if not cand:
                break
            children = node.children
            untried = []
            for k in cand:
                ch = children.get(k)
                if ch is None:
                    untried.append(k)
                else:
                    ch.avail += 1
            if untried:
                k = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = _Node(seat)
                child.avail = 1
                children[k] = child
                m = self.step(m, seat, cand[k])
                path.append(child)
                break
            k = self.select(children, cand)
            node = children[k]
            m = self.step(m, seat, cand[k])
            path.append(node)
        rewards = self.rollout(m)
        for nd in path:
            nd.n += 1
            nd.w += rewards.get(nd.seat, 0.0)

    def select(self, children: dict[Key, _Node], cand: Mapping[Key, Any]) -> Key:
        c = self.c
        best_k = None
        best_v = -math.inf
        for k in cand:
            ch = children[k]
            v = ch.w / ch.n + c * math.sqrt(math.log(ch.avail) / ch.n)
            if v > best_v:
                best_v, best_k = v, k
        return best_k  # type: ignore[return-value]

    def best(self, keys: list[Key]) -> Key:
        """The most visited root move (ties: the higher mean, then the listed order)."""
        ch = self.root.children

        def score(k: Key) -> tuple[int, float]:
            nd = ch.get(k)
            return (nd.n, nd.w / nd.n) if nd is not None and nd.n else (0, -math.inf)
        return max(keys, key=score)

    def pimc(self, keys: list[Key], prior: Key, budget_ms: float | None,
             iterations: int | None) -> Key:
        """Determinized Monte Carlo with common random numbers at the root.

        Every sampled deal is played out once after each root move, all with the same rollout
        seed, so the moves are compared on the same luck (paired differences). The medium move is
        kept unless another move beats it by more than ``T_MARGIN`` standard errors of the paired
        mean: a looser margin picks noise (one tempo is worth ~2-3 % of a 2-player prsi round,
        far below the noise of ~100 playouts), which measured worse than medium itself.
        """
        clock = self.clock
        deadline = None if budget_ms is None or clock is None else clock() + budget_ms / 1000.0
        me = self.det.me
        rng = self.rng
        diffs: dict[Key, list[float]] = {k: [] for k in keys}
        sims = 0
        while iterations is None or sims + len(keys) <= max(iterations, len(keys)):
            if deadline is not None and sims > 0 and clock() >= deadline:
                break
            m0 = self.det.sample(rng)
            seed = rng.getrandbits(64)
            got: dict[Key, float] = {}
            for k in keys:
                self.rng = random.Random(seed)
                m = self.step(m0, me, self.actions(m0, me)[k])
                got[k] = self.rollout(m).get(me, 0.0)
            self.rng = rng
            base = got[prior]
            for k in keys:
                diffs[k].append(got[k] - base)
            sims += len(keys)
        self.iterations = sims
        best, best_t = prior, 0.0
        for k in keys:
            d = diffs[k]
            n = len(d)
            if k == prior or n < 2:
                continue
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1)
            t = mean / math.sqrt(var / n) if var > 0 else (math.inf if mean > 0 else 0.0)
            if mean > 0 and t > T_MARGIN and t > best_t:
                best, best_t = k, t
        return best

    def actions(self, m: Match, seat: int) -> dict[Key, Mapping[str, Any]]:
        return canonical(legal_actions(m, seat, self.now))

    # ------------------------------------------------------------------ simulation
    def step(self, m: Match, seat: int, action: Mapping[str, Any]) -> Match:
        a = dict(action)
        cmd = SEAT_ACTIONS[a.pop("type")](seat=seat, **a)
        rng = self.rng
        seeds: tuple[bytes, ...] = () if len(m.rnd.stock) > 12 else (rng.randbytes(32), rng.randbytes(32))
        while True:
            try:
                evs = decide(m, cmd, Context(self.now, seeds))
                break
            except NeedMoreSeeds as e:
                seeds = tuple(rng.randbytes(32) for _ in range(e.needed + 1))
        for ev in evs:
            m = evolve(m, ev)
        return m

    def rollout(self, m: Match) -> dict[int, float]:
        rng = self.rng
        eps = self.eps
        plies = 0
        cap = MAX_PLIES if CUTOFF_PLIES is None else CUTOFF_PLIES
        while m.rnd.phase in TURN_PHASES and m.status == "running" and plies < cap:
            seat = m.rnd.current
            acts = legal_actions(m, seat, self.now)
            if not acts:
                break
            if rng.random() < eps:
                a = rng.choice(acts)
            else:
                a = choose_situation(from_state(m, seat), acts, rng)
            m = self.step(m, seat, a)
            plies += 1
        if m.rnd.phase in TURN_PHASES and m.status == "running":
            return self.estimate(m)
        return self.rewards(m)

    def estimate(self, m: Match) -> dict[int, float]:
        """A cut-off rollout: the reward expected from the hand sizes (fewer cards: more likely
        to go out first) and the hand values."""
        rnd = m.rnd
        active = [s.seat for s in m.seats if s.state == "active"]
        pts_table = m.rules.points
        sizes = {s: len(rnd.hands[s]) for s in active}
        values = {s: hand_points(rnd.hands[s], pts_table) for s in active}
        n = len(active)
        out: dict[int, float] = {}
        for s in active:
            opp_n = (sum(sizes.values()) - sizes[s]) / (n - 1) if n > 1 else 0.0
            opp_v = (sum(values.values()) - values[s]) / (n - 1) if n > 1 else 0.0
            win = math.tanh(CARD_K * (opp_n - sizes[s]))
            pen = max(-1.0, min(1.0, 0.5 * (opp_v - values[s]) / self.scale))
            out[s] = WIN_WEIGHT * win + (1 - WIN_WEIGHT) * pen
        return out

    def rewards(self, m: Match) -> dict[int, float]:
        """§7.4 reward per active seat, with the match-level shaping."""
        rnd = m.rnd
        active = [s.seat for s in m.seats if s.state == "active"]
        pts_table = m.rules.points
        values = {s: hand_points(rnd.hands[s], pts_table) for s in active}
        if rnd.end_reason == "out" and rnd.winner is not None:
            mult = 1
            o = m.options
            if o.get("jack_ends_round_doubles") and rnd.last_card and rnd.last_card.startswith(o["wild_rank"]):
                mult = int(o.get("jack_end_multiplier", 2))
            pts = {s: 0 if s == rnd.winner else v * mult for s, v in values.items()}
        elif m.options.get("blocked_round_rule", "lowest_hand_wins") == "lowest_hand_wins" and values:
            low = min(values.values())
            pts = {s: 0 if v == low else v for s, v in values.items()}
        else:
            pts = values
        totals = {s.seat: s.total for s in m.seats}
        over = {s: self.exceeds(totals.get(s, 0) + p) for s, p in pts.items()}
        out: dict[int, float] = {}
        n = len(active)
        for s in active:
            own = pts[s]
            opp = (sum(pts.values()) - own) / (n - 1) if n > 1 else 0.0
            r = max(-1.0, min(1.0, (opp - own) / self.scale))
            if WIN_WEIGHT:
                won = 1.0 if own == 0 else -1.0
                r = WIN_WEIGHT * won + (1 - WIN_WEIGHT) * r
            if self.mode != "single_round" and over[s]:
                r -= 1.0
            if self.mode == "elimination" and n == 2 and not over[s] and any(over[o] for o in active if o != s):
                r += 0.5
            out[s] = r
        return out

    def exceeds(self, total: int) -> bool:
        return total > self.limit if self.gt else total >= self.limit
