"""Factional Hannibal: the Honor ledger of a four-player game played on the map; people only.

The game's registry entry, found through the ``boardkeeper.games`` entry point (``pyproject.toml``):
a data module that imports no rules, so listing the games stays cheap.
"""

from engines.registry import GameInfo

GAME = GameInfo(
    name="factional",
    title="Factional Hannibal",
    listed=3,
    players=("rome-silver", "rome-copper", "carthage-silver", "carthage-copper"),
    min_players=4,
    max_players=4,
    chance=True,
    hidden=False,
    sensing=("matrix", "buttons"),
    module="engines.factional",
    # the Honor tray is the matrix; one button per faction names who plays or who won a battle
    buttons=("OK", "NEXT", "PREV", "BACK", *(f"faction:{f}" for f in ("rome-silver", "rome-copper",
                                                                     "carthage-silver", "carthage-copper"))),
    bots=(),  # no bot plays it: the table only keeps the ledger of a game played on the HRC map
    flow="controller.flows.factional:create",
    printable="controller.printable.factional:draw",
    screen="controller.flows.factional_screens:position_screen",
    board_view="controller.flows.factional_screens:board_view",
    notation=(
        'reinforced  the reinforcement phase over',
        "initiative rome  Rome's side plays first",
        "play rome-copper  a card played; approve / veto  the partner's answer",
        'control latium carthage-copper  Latium now held by carthage-copper',
        'battle rome-silver carthage-copper 2  a battle: winner, loser, PCs',
        'roll, then die 4  the die asked for, and its outcome',
        'end carthage  the war is over and Carthage won',
        'undo  the event before it taken back',
    ),
    chance_screen="controller.flows.factional_screens:chance_shown",
    scripted="sim_hardware.factional_players:ScriptedFactionalTable",
    profiles=("factional", "factional-sim"),
)
