"""decide for the table commands: join and start (before the deal), leave, the timers, score."""
from __future__ import annotations

from service.games.crazy_eights.actions import default_action
from service.games.crazy_eights.flow import deal_round, score_round
from service.games.crazy_eights.moves import act
from service.games.crazy_eights.options import BOT_STRENGTHS
from service.games.crazy_eights.state import PLAY
from service.games.kernel.lobby import join_while_open, start_when_seated
from service.games.kernel.table import leave_replaced_by_bot, round_jobs
from service.games.kernel.turn_timer import TurnTimer, turn_due

MAX_CHAIN = 64  # a timed-out turn ends after at most max_draw_cards draws and a pass: a guard, not a rule

join = join_while_open("Crazy Eights takes no seats once the hand is dealt", "Crazy Eights", BOT_STRENGTHS)
start = start_when_seated(deal_round)
leave = leave_replaced_by_bot  # K-15: before the start the seat is freed; afterwards a bot takes it over (with the hand)

TIMER = TurnTimer(phases=frozenset({PLAY}), due=turn_due, default_action=default_action, act=act, leave=leave,
                  max_chain=MAX_CHAIN)
fire = TIMER.fire  # a turn timer plays the defaults (§2.7); an absence timer removes the seat (§3.10)


score, deal = round_jobs(score_round, deal_round)
