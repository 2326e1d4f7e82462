"""Hannibal (1974): a dice race on a 49-position track; bots may take a seat at the real table.

The game's registry entry, found through the ``boardkeeper.games`` entry point (``pyproject.toml``):
a data module that imports no rules, so listing the games stays cheap.
"""

from engines.registry import GameInfo

GAME = GameInfo(
    name="hannibal",
    title="Hannibal (1974)",
    listed=1,
    players=("yellow", "blue"),
    min_players=2,
    max_players=2,
    chance=True,
    hidden=False,
    sensing=("matrix", "buttons"),
    module="engines.hannibal",
    buttons=("ROLL", "OK", "NEXT", "PREV", "BACK"),
    evaluator="engines.hannibal.heuristic:evaluate",
    zero_sum=True,
    table_bots=True,
    flow="controller.flows.hannibal:create",
    screen="controller.flows.hannibal_screens:position_screen",
    board_view="controller.flows.hannibal_screens:board_view",
    notation=(
        'R3,5  a roll, smaller die first',
        '12-17  one piece from position 12 to 17',
        'S12-24  the whole stack on camp 12 to camp 24',
        'E3  enter a waiting piece on position 3',
        'undo  the step before it taken back',
    ),
    chance_screen="controller.flows.hannibal_screens:chance_shown",
    scripted="sim_hardware.hannibal_players:ScriptedTable",
    profiles=("hannibal", "hannibal-sim", "hannibal-bridge", "hannibal-bridge-sim"),
    printable="controller.printable.hannibal:draw",
    test_seeds=(1, 2),  # enough to reach its menus and fix-ups in the generic tests
)
