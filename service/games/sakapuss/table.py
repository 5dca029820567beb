"""decide for Sakapuss' table commands: join (K-16), start (§6.5.1), leave (K-15), score, deal."""
from __future__ import annotations

from service.games.kernel.lobby import join_while_open, start_when_seated
from service.games.kernel.table import leave_replaced_by_bot, round_jobs
from service.games.sakapuss.flow import deal_round, score_round

join = join_while_open("Sakapuss takes no seats once the match has started", "Sakapuss")
start = start_when_seated(deal_round)  # §6.5.1: LOBBY with 3-5 seats -> round 1 (one cat kind per player)
leave = leave_replaced_by_bot  # K-15: before the start the seat is freed; afterwards a bot takes it over (with the hand)
score, deal = round_jobs(score_round, deal_round)
