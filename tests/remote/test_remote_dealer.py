"""The dealer of a game with hidden cards (``controller.remote.dealer``), at two tables wired to each other in
one process: each table's dealer, its engine position and its journal lines, the far table's lines checked
(``waits``, ``check``) as remote play checks them, its deck messages and seals delivered as the link would (pure:
no broker; the whole path over Mosquitto is in ``test_remote_demo.py`` and ``bench.remote``).

An honest race ends with the same public position at both tables, each having read only its own seats' cards.
Then every way a table running other software could cheat is planted, and the honest table refuses it, naming it:
a card or bet shown in clear, a bet changed after the race with a seal of its own making, a horse card turned
that is not the deck's, and a takeback after reading the next card."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.journal import UNDO
from controller.remote.dealer import Dealer, secrets_path
from controller.remote.seals import SealBroken, digest
from engines.base import Move, acting_seat, sample_chance
from engines.hannipe import State, new_game

CODE = "DEAL2026"


class Table:
    """One table: its seats, its dealer and position, and what it sent."""

    def __init__(self, folder: Path, seats: set[str], far: set[str]) -> None:
        folder.mkdir()
        self.seats = seats
        self.state = new_game(players=3, cards="deal")
        self.lines: list[dict[str, Any]] = []
        self.outbox: list[dict[str, Any]] = []
        self.seals: list[tuple[int, str, str]] = []
        self.dealer = Dealer(folder / "t.jsonl", "g1", CODE, frozenset(far), self.outbox.append,
                             lambda seq, player, sealed: self.seals.append((seq, player, sealed)), random.Random(7))

    def deliver(self, far: Table) -> None:
        while self.outbox:
            far.dealer.take(self.outbox.pop(0))
        while self.seals:
            far.dealer.far_seal(*self.seals.pop(0))

    def act(self, rng: random.Random) -> dict[str, Any] | None:
        """This table's move now, if its seat acts and the move can be made: journaled as announced."""
        s = self.state
        if acting_seat(s) not in self.seats:
            return None
        if s.is_chance() or s.step == "turn":
            move: Move | None = self.dealer.draw(s) if s.decks() or s.face_down() else sample_chance(s, rng)
        elif s.step == "reveal":
            [move] = s.legal_moves()
        else:
            move = rng.choice(s.legal_moves())
        if move is None:
            return None  # the far share is on its way
        player = s.current_player or "chance"
        said = s.announce(move)
        seq = len(self.lines) + 1
        if said != move:
            self.dealer.keep(seq, player, move, said, not s.is_chance())
        s.apply(move)
        self.lines.append({"seq": seq, "player": player, "move": str(said)})
        self.dealer.flush(seq)
        return self.lines[-1]

    def take(self, line: dict[str, Any]) -> bool:
        """The far table's line, if this table may apply it now (else it waits); ``SealBroken`` if never."""
        if self.dealer.waits(line, self.state):
            return False
        self.dealer.check(line, self.state)
        self.state.apply(self.state.parse_move(line["move"]))
        self.lines.append(dict(line))
        return True


Cheat = Callable[[Table, Table, dict[str, Any]], dict[str, Any]]


def play(tmp_path: Path, until: Callable[[State], bool], cheat: Cheat | None = None, seed: int = 3
         ) -> tuple[Table, Table]:
    """Tables A (p1, p2) and B (p3) play until ``until`` holds at both; ``cheat`` may change each of B's lines."""
    a = Table(tmp_path / "a", {"p1", "p2"}, {"p3"})
    b = Table(tmp_path / "b", {"p3"}, {"p1", "p2"})
    rng = random.Random(seed)
    pending: list[tuple[Table, dict[str, Any]]] = []
    for _ in range(5_000):
        if (until(a.state) and until(b.state) and not pending) or a.state.is_over():
            break
        for here, there in ((a, b), (b, a)):
            here.deliver(there)
            here.dealer.poll(here.state)
        if pending and pending[0][0].take(pending[0][1]):
            pending.pop(0)
            continue
        if pending:
            continue
        for here, there in ((a, b), (b, a)):
            line = here.act(rng)
            if line is not None:
                pending.append((there, cheat(b, a, line) if cheat and here is b else line))
                break
    return a, b


def test_an_honest_race_ends_alike_and_each_table_read_only_its_own_cards(tmp_path: Path) -> None:
    a, b = play(tmp_path, lambda s: s.race == 2)
    assert a.state.race == b.state.race == 2 and a.lines == b.lines
    assert a.state.public() == b.state.public() and a.state.coins == b.state.coins
    assert all(line["move"].endswith("?") for line in a.lines if line["move"].split()[0] in ("deal", "bet"))
    kept_a, kept_b = (secrets_path(tmp_path / side / "t.jsonl").read_text() for side in "ab")
    assert '"deal p3 ' not in kept_a and '"deal p1 ' not in kept_b and '"deal p2 ' not in kept_b
    assert a.dealer.checked == b.dealer.checked == {"1"}  # each checked the other's deck at the race's end


def _shown(b: Table, a: Table, line: dict[str, Any]) -> dict[str, Any]:
    """B announces its seat's cards as they are."""
    if line["move"].startswith("deal p3"):
        kept = b.dealer.records.own[line["seq"]][1]
        return {**line, "move": kept}
    return line


def test_a_card_shown_in_clear_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SealBroken, match=r"deal p3 \w+:\w\): shows what the rules hide \(it must say deal p3 \?\)"):
        play(tmp_path, lambda s: s.race == 2, _shown)


def _late_bet(b: Table, a: Table, line: dict[str, Any]) -> dict[str, Any]:
    """After the last tip B seals a winning bet at a seq of its own making, opens it, and reveals it."""
    if not line["move"].startswith("reveal p3"):
        return line
    winner = next(iter(a.state.order[0]))
    salt = "cd" * 16
    a.dealer.far_seal(999, "p3", digest(CODE, 999, "p3", f"bet p3 {winner}", salt))
    a.dealer.take({"part": "open", "shuffle": "1", "seq": 999, "salt": salt})
    return {**line, "move": f"reveal p3 {winner}"}


def test_a_bet_changed_after_the_race_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SealBroken, match=r"reveal p3 \w+\): does not open the seal of p3's bet at seq \d+ "):
        play(tmp_path, lambda s: s.race == 2, _late_bet, seed=5)


def test_a_horse_card_turned_that_is_not_the_decks_is_refused(tmp_path: Path) -> None:
    """B leads race 3 (p3): its turn names another horse than the one both tables' shares give."""
    def wrong_turn(b: Table, a: Table, line: dict[str, Any]) -> dict[str, Any]:
        if not line["move"].startswith("turn "):
            return line
        other = next(h for h in a.state.values if h not in a.state.turned and h != line["move"].split()[1])
        return {**line, "move": f"turn {other}"}

    with pytest.raises(SealBroken, match=r"turn \w+\): this table's deck turns turn \w+"):
        play(tmp_path, lambda s: s.race == 4, wrong_turn)


def test_a_takeback_after_the_next_card_was_shared_is_refused(tmp_path: Path) -> None:
    """B leads race 3 and tips last in a round; with A's share of the next horse card out, B takes its tip back."""
    a, _ = play(tmp_path, lambda s: s.race == 3 and s.step == "turn" and s.round == 1)
    assert a.state.leader == "p3" and acting_seat(a.state) == "p3"
    a.dealer.poll(a.state)  # A's share of the card to turn goes out
    assert any(m["part"] == "share" and m["deck"] == "horses" for m in a.outbox)
    with pytest.raises(SealBroken, match="a takeback after this table gave its share of the next card"):
        a.dealer.check({"seq": len(a.lines) + 1, "player": "p3", "move": UNDO}, a.state)
