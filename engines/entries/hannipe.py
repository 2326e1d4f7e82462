"""Hannipe!: 2-7 players bet and tip on a horse race; pawns sensed on the track mat.

The game's registry entry, found through the ``boardkeeper.games`` entry point (``pyproject.toml``):
a data module that imports no rules, so listing the games stays cheap.
"""

from engines.registry import GameInfo

GAME = GameInfo(
    name="hannipe",
    title="Hannipe!",
    listed=4,
    players=tuple(f"p{i}" for i in range(1, 8)),  # seats of the largest table; a game has the first N
    min_players=2,
    max_players=7,
    chance=True,
    hidden=True,
    sensing=("matrix", "buttons"),
    module="engines.hannipe",
    # one button per horse names the horse of a bet or a tip card at one press
    buttons=("OK", "NEXT", "PREV", "BACK", *(f"horse:{h}" for h in ("noiro", "roujo", "grisette", "vertige",
                                                                    "pepite", "cocotte"))),
    evaluator="engines.hannipe.heuristic:evaluate",
    flow="controller.flows.hannipe:create",
    printable="controller.printable.hannipe:draw",
    screen="controller.flows.hannipe_screens:position_screen",
    board_view="controller.flows.hannipe_screens:board_view",
    notation=(
        "programme 3  the race's programme (chance)",
        'shuffle a,b,c  the order of the horse cards (chance)',
        'deal p2 noiro:2  a tip card dealt to a seat (chance)',
        "bet p2 roujo  a seat's secret bet",
        'turn  the leader turns the next horse card',
        'tip p3 noiro 2  a tip card played; c = cravache',
        'undo  the tip before it taken back',
    ),
    seat_screen="controller.flows.hannipe_screens:seat_screen",
    chance_screen="controller.flows.hannipe_screens:chance_shown",
    scripted="sim_hardware.hannipe_players:ScriptedHannipeTable",
    profiles=("hannipe", "hannipe-sim"),
    player_option="players",
    demo_options={"cards": "deal"},  # bots are dealt their tip cards by the table
    table_options={"cards": "table"},  # people hold the physical cards; the table counts what is unplayed
    remote_options={"cards": "deal"},  # two homes hold no one deck: the tables deal, face down (G-10)
)
