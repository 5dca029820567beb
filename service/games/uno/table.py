"""decide for the table commands: join and start (before the deal), leave, the timers, score."""
from __future__ import annotations

from service.games.kernel.lobby import join_while_open, start_when_seated
from service.games.kernel.table import leave_replaced_by_bot, round_jobs
from service.games.kernel.turn_timer import TurnTimer, turn_due
from service.games.uno.actions import default_action
from service.games.uno.flow import deal_round, score_round
from service.games.uno.moves import act
from service.games.uno.options import BOT_STRENGTHS
from service.games.uno.state import PLAY

MAX_CHAIN = 4  # a timed-out turn is one play or one draw: a guard, not a rule

join = join_while_open("UNO takes no seats once the hand is dealt", "UNO", BOT_STRENGTHS)
start = start_when_seated(deal_round)
leave = leave_replaced_by_bot  # K-15: before the start the seat is freed; afterwards a bot takes it over (with the hand)

TIMER = TurnTimer(phases=frozenset({PLAY}), due=turn_due, default_action=default_action, act=act, leave=leave,
                  max_chain=MAX_CHAIN)
fire = TIMER.fire  # a turn timer plays the default (§2.7); an absence timer removes the seat (§3.10)

score, deal = round_jobs(score_round, deal_round)
