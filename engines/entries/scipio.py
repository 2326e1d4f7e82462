"""Scipio: secret organisations, formation reeds sensed empty or not, New Orders.

The game's registry entry, found through the ``boardkeeper.games`` entry point (``pyproject.toml``):
a data module that imports no rules, so listing the games stays cheap.
"""

from engines.registry import GameInfo

GAME = GameInfo(
    name="scipio",
    title="Scipio: Sworn Enemy of Hannibal",
    listed=2,
    players=("rome", "carthage"),
    min_players=2,
    max_players=2,
    chance=True,
    hidden=True,
    sensing=("matrix", "buttons"),
    module="engines.scipio",
    # the formation buttons take tokens off; card pads ("card:rome:7") are optional
    buttons=("OK", "NEXT", "PREV", "BACK", *(f"tap:{army}:{side}.{i}" for army in ("rome", "carthage")
                                             for side in ("yellow", "purple", "green") for i in (0, 1))),
    evaluator="engines.scipio.heuristic:evaluate",
    candidates="engines.scipio.heuristic:candidates",
    successors="engines.scipio.heuristic:successors",
    flow="controller.flows.scipio:create",
    screen="controller.flows.scipio_screens:position_screen",
    board_view="controller.flows.scipio_screens:board_view",
    seat_screen="controller.flows.scipio_screens:seat_screen",
    scripted="sim_hardware.scipio_players:ScriptedScipioTable",
    profiles=("scipio", "scipio-sim"),
    test_seeds=(1, 2, 3),  # enough to reach its menus and fix-ups in the generic tests
)
