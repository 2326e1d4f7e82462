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
    printable="controller.printable.scipio:draw",
    screen="controller.flows.scipio_screens:position_screen",
    board_view="controller.flows.scipio_screens:board_view",
    notation=(
        'org rome 6,5,6,5,6,6  an organisation: tokens per formation, yellow.0 to green.1',
        'tiles Y2 P3 G1  the strike order tiles per field',
        "place rome Y6 P2 G4  an army's three cards, per field",
        'remove carthage yellow 2,1  damage: 2 tokens from yellow.0, 1 from yellow.1',
        'draw carthage / pass  take the New Orders draw, or decline',
        'card opportune  the card drawn',
    ),
    seat_screen="controller.flows.scipio_screens:seat_screen",
    scripted="sim_hardware.scipio_players:ScriptedScipioTable",
    profiles=("scipio", "scipio-sim"),
    test_seeds=(1, 2, 3),  # enough to reach its menus and fix-ups in the generic tests
)
