"""Sealed choices (``controller.remote.seals``): the seal file beside a table's journal and the checks a far line
must pass. Scipio's armies organise and place cards at once; at two tables, neither may see the other's choice
first, nor change its own after seeing it (pure: no network; the whole path over a broker is in
``test_remote_demo.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.remote.lines import BadSignature, decode, encode_line, encode_seal
from controller.remote.seals import SealBroken, Sealer, digest, seals_path
from engines.scipio import State, new_game

CODE = "SEAL2026"
ORG_ROME = "org rome 5,5,6,7,5,6"
ORG_CARTHAGE = "org carthage 6,5,6,5,6,6"


def _sealer(tmp_path: Path, far: str, sent: list[tuple[int, str, str]] | None = None, game: str = "g1") -> Sealer:
    out = [] if sent is None else sent
    return Sealer(seals_path(tmp_path / "t.jsonl"), CODE, game, frozenset({far}),
                  lambda seq, player, seal: out.append((seq, player, seal)))


def _line(seq: int, player: str, move: str) -> dict[str, object]:
    return {"seq": seq, "player": player, "move": move, "state": {"game": "scipio"}}


def test_the_later_army_decides_first_on_a_stand_in_and_then_waits(tmp_path: Path) -> None:
    """Carthage's table is asked for Carthage's organisation before Rome's is known (on a stand-in for Rome's);
    sealed, it waits for Rome; Rome's table, its own sealed, waits for Carthage; neither journals yet."""
    game = new_game()
    carthage_sent: list[tuple[int, str, str]] = []
    (tmp_path / "c").mkdir()
    (tmp_path / "r").mkdir()
    carthage = _sealer(tmp_path / "c", "rome", carthage_sent)
    view = carthage.view(game, 0)
    assert view.current_player == "carthage" and game.current_player == "rome"
    assert carthage.hold(game, 0, view.parse_move(ORG_CARTHAGE), "carthage") == (True, None)
    assert carthage.view(game, 0).current_player == "rome"  # the far army's turn: this table waits
    assert [(seq, player) for seq, player, _ in carthage_sent] == [(2, "carthage")]
    rome = _sealer(tmp_path / "r", "carthage")
    assert rome.hold(game, 0, game.parse_move(ORG_ROME), "rome") == (True, None)
    assert rome.view(game, 0).current_player == "carthage" and rome.due(game, 0) is None  # no far seal yet
    rome.far_seal(*carthage_sent[0])
    assert str(rome.due(game, 0)) == ORG_ROME  # both seals in: Rome's line is journaled now
    assert rome.hold(game, 0, game.parse_move(ORG_ROME), "rome") == (False, None)


def test_a_far_choice_changed_after_its_seal_is_refused(tmp_path: Path) -> None:
    carthage = _sealer(tmp_path, "rome")
    game = new_game()
    carthage.hold(game, 0, carthage.view(game, 0).parse_move(ORG_CARTHAGE), "carthage")
    salt = "ab" * 16
    carthage.far_seal(1, "rome", digest(CODE, 1, "rome", ORG_ROME, salt))
    carthage.check(_line(1, "rome", ORG_ROME), salt)  # opens its seal
    with pytest.raises(SealBroken, match="does not open the seal"):
        carthage.check(_line(1, "rome", "org rome 6,5,6,5,6,6"), salt)
    with pytest.raises(SealBroken, match="does not open the seal"):
        carthage.check(_line(1, "rome", ORG_ROME), "cd" * 16)
    with pytest.raises(SealBroken, match="two different seals"):
        carthage.far_seal(1, "rome", digest(CODE, 1, "rome", "org rome 6,5,6,5,6,6", salt))
    with pytest.raises(SealBroken, match="a seat this table plays"):
        carthage.far_seal(2, "carthage", digest(CODE, 2, "carthage", ORG_CARTHAGE, salt))


def test_a_secret_choice_sent_without_its_seal_is_refused(tmp_path: Path) -> None:
    carthage = _sealer(tmp_path, "rome")
    game = new_game()
    carthage.hold(game, 0, carthage.view(game, 0).parse_move(ORG_CARTHAGE), "carthage")
    assert carthage.waits_for_seal(_line(1, "rome", ORG_ROME))  # the table waits and asks; it never applies it
    with pytest.raises(SealBroken, match="without its seal"):
        carthage.check(_line(1, "rome", ORG_ROME), None)
    carthage.check(_line(3, "chance", "tiles Y1 P2 G3"), None)  # a draw is no secret
    assert not carthage.waits_for_seal(_line(3, "chance", "tiles Y1 P2 G3"))


def test_a_sealed_choice_is_the_same_after_a_power_cut(tmp_path: Path) -> None:
    """The choice and its salt are on disk before the seal goes out: after a restart the seat is not asked
    again and the same salt opens the same seal. A torn last line (the cut came while writing it) and the last
    game's seals are left out."""
    sent: list[tuple[int, str, str]] = []
    first = _sealer(tmp_path, "rome", sent)
    game: State = new_game()
    first.hold(game, 0, first.view(game, 0).parse_move(ORG_CARTHAGE), "carthage")
    path = seals_path(tmp_path / "t.jsonl")
    with path.open("ab") as f:
        f.write(b'{"code": "SEAL2026", "game": "g1", "seq": 4, "pla')  # torn
    again = _sealer(tmp_path, "rome")
    assert again.pending(1) == sent and again.salt_for(2) == first.salt_for(2)
    assert again.view(game, 0).current_player == "rome"  # not asked again
    assert _sealer(tmp_path, "rome", game="another game").pending(1) == []
    salt = "ab" * 16
    again.far_seal(1, "rome", digest(CODE, 1, "rome", ORG_ROME, salt))  # appended after the torn tail, not onto it
    third = _sealer(tmp_path, "rome")
    assert third.pending(1) == sent and third.far_seals == {1: ("rome", digest(CODE, 1, "rome", ORG_ROME, salt))}


def test_a_far_seal_kept_before_a_restart_still_binds_the_far_choice(tmp_path: Path) -> None:
    """The far table's seal is written down before it counts: after this table restarts, another seal or a line
    that does not open the first is refused."""
    game = new_game()
    _sealer(tmp_path, "rome").far_seal(1, "rome", digest(CODE, 1, "rome", ORG_ROME, "ab" * 16))
    restarted = _sealer(tmp_path, "rome")
    with pytest.raises(SealBroken, match="two different seals"):
        restarted.far_seal(1, "rome", digest(CODE, 1, "rome", "org rome 6,5,6,5,6,6", "cd" * 16))
    with pytest.raises(SealBroken, match="does not open the seal"):
        restarted.check(_line(1, "rome", "org rome 6,5,6,5,6,6"), "cd" * 16)
    assert restarted.view(game, 0).current_player == "carthage"  # its own seat still decides


def test_a_line_journaled_before_a_restart_counts_as_sealed(tmp_path: Path) -> None:
    """Carthage sealed line 2, Rome's line 1 came and was journaled, then the power went: after the restart
    Carthage's sealed choice is due at once, though Rome's seal was not kept in memory, and is not asked again."""
    game = new_game()
    sent: list[tuple[int, str, str]] = []
    carthage = _sealer(tmp_path, "rome", sent)
    carthage.hold(game, 0, carthage.view(game, 0).parse_move(ORG_CARTHAGE), "carthage")
    after_rome = game.clone()
    after_rome.apply(after_rome.parse_move(ORG_ROME))
    (tmp_path / "t.jsonl.seals").write_bytes(
        b"".join(raw + b"\n" for raw in (tmp_path / "t.jsonl.seals").read_bytes().splitlines() if b'"far"' not in raw))
    restarted = _sealer(tmp_path, "rome")
    assert str(restarted.due(after_rome, 1)) == ORG_CARTHAGE
    assert restarted.pending(2) == sent  # a far table that asks from line 2 gets the seal of line 2


def test_seals_and_salts_are_signed_and_checked_on_the_wire() -> None:
    seal = digest(CODE, 2, "carthage", ORG_CARTHAGE, "ab" * 16)
    msg = decode(CODE, encode_seal(CODE, "carthage", 2, "carthage", seal))
    assert (msg.kind, msg.seq, msg.player, msg.seal) == ("seal", 2, "carthage", seal)
    line = decode(CODE, encode_line(CODE, "carthage", _line(2, "carthage", ORG_CARTHAGE), "ab" * 16))
    assert line.salt == "ab" * 16 and line.line is not None and line.line["move"] == ORG_CARTHAGE
    forged = encode_seal(CODE, "carthage", 2, "carthage", seal).replace(b'"seq":2', b'"seq":3')
    with pytest.raises(BadSignature):
        decode(CODE, forged)


def test_a_finished_games_seals_go_aside_with_its_journal(tmp_path: Path) -> None:
    """A new game at the same journal path starts with no seal file; the last game's goes with its journal."""
    from controller.table import set_aside

    journal = tmp_path / "scipio.jsonl"
    journal.write_text("{}\n")
    seals_path(journal).write_text("sealed\n")
    aside = set_aside(journal, "finished")
    assert not journal.exists() and not seals_path(journal).exists()
    assert seals_path(aside).read_text() == "sealed\n"
