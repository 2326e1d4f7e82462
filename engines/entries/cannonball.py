"""Cannon Ball (1968): marches on the designed battlefield and the Fort Commander spinner.

The game's registry entry, found through the ``boardkeeper.games`` entry point (``pyproject.toml``):
a data module that imports no rules, so listing the games stays cheap.
"""

from engines.registry import GameInfo

GAME = GameInfo(
    name="cannonball",
    title="Cannon Ball (1968)",
    listed=5,
    players=("blue", "gray"),
    min_players=2,
    max_players=2,
    chance=True,
    hidden=False,
    sensing=("matrix", "buttons"),
    module="engines.cannonball",
    buttons=("SPIN", "OK", "NEXT", "PREV", "BACK"),
    evaluator="engines.cannonball.heuristic:evaluate",
    zero_sum=True,
    candidates="engines.cannonball.heuristic:candidates",
    flow="controller.flows.cannonball:create",
    screen="controller.flows.cannonball_screens:position_screen",
    board_view="controller.flows.cannonball_screens:board_view",
    notation=(
        "spin blue 6  a spin-off spin; spin 9  a march's spin",
        'march  a march chosen',
        'i1-j1  a trooper step; b11=b9  a bridge crossing',
        'C k15-j14  a cannon step',
        'C j1-j6 +j2-k6 +j3-l6  a cannon and its two escorts',
        'tnt k11, tnt gate west  TNT laid',
        'undo  the step before it taken back',
    ),
    chance_screen="controller.flows.cannonball_screens:chance_shown",
    scripted="sim_hardware.cannonball_players:ScriptedCannonballTable",
    profiles=("cannonball", "cannonball-sim"),
    printable="controller.printable.cannonball:draw",
    demo_options={"turn_limit": 300},  # a bot game ends: the share decided within 300 turns is high
    # each iteration that reaches a march plans it (about 4 ms); against the heuristic bot over the same
    # 600 seeded games, 10 iterations won 354, 12 won 356 and 32 won 357 (issue 16's note)
    search_iterations=10,
)
