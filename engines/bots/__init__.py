"""Game-agnostic bots over the State protocol; each takes its own ``random.Random``.

- ``RandomBot``: uniform over legal moves.
- ``HeuristicBot``: greedy over whole-turn plans, judged by the game's evaluation hook.
- ``MCTSBot``: tree search over turn plans with chance nodes, guided by the same hook.
"""

from engines.bots.heuristic import HeuristicBot
from engines.bots.match import Bot, GameRecord, GameTooLongError, play_game, win_rate
from engines.bots.mcts import MCTSBot
from engines.bots.random_bot import RandomBot

__all__ = ["Bot", "GameRecord", "GameTooLongError", "HeuristicBot", "MCTSBot", "RandomBot", "play_game",
           "win_rate"]
