import random

from service.games.engine import decide, seat_view
from service.games.shedding.bots.easy import choose
from tests.unit.rules.helpers import Game, crafted, to_command


def test_easy_bot_plays_a_legal_action_and_never_draws_when_it_can_play():
    for i in range(30):
        g = Game(3, seed=f"bot{i}")
        g.start()
        seat = g.m.rnd.current
        view = seat_view(g.m, seat, g.now)
        action = choose(view, random.Random(i))
        assert action in [dict(a) for a in view.legal_actions]
        if any(a["type"] == "play" for a in view.legal_actions):
            assert action["type"] == "play"
        decide(g.m, to_command(seat, action), g.ctx())


def test_easy_bot_announces_with_flag():
    g = crafted(2, [["6H:0", "2C:0"], ["5D:0", "9H:0"]], "5H:0")
    action = choose(seat_view(g.m, 0, g.now), random.Random(1))
    assert action == {"type": "play", "card": "6H:0", "announce": True}


def test_easy_bot_may_forget_with_probability():
    g = crafted(2, [["6H:0", "2C:0"], ["5D:0", "9H:0"]], "5H:0", easy_bot_forget_announce_p=0.5)
    got = {choose(seat_view(g.m, 0, g.now), random.Random(i)).get("announce", False) for i in range(40)}
    assert got == {True, False}


def test_easy_bot_random_suit_on_jack_and_draw_when_forced():
    g = crafted(2, [["JS:0", "2C:0", "3C:0"], ["5D:0", "9H:0"]], "5H:0")
    suits = {choose(seat_view(g.m, 0, g.now), random.Random(i)).get("called_suit") for i in range(60)}
    assert {"C", "D", "H", "S"} <= suits
    g = crafted(2, [["2C:0", "3C:0"], ["5D:0", "9H:0"]], "5H:0")
    assert choose(seat_view(g.m, 0, g.now), random.Random(0)) == {"type": "draw"}
