"""Storage that fails under the game (full disk, read-only state directory): the table says so, applies
nothing, leaves nothing half-written, and carries on when storage is back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hannibal_harness import Harness

from controller.flows.hannibal import Phase
from controller.journal import Journal, JournalWriteError, read


def _break_storage(table: Harness, tmp_path: Path) -> Journal:
    """Point the game's journal at a device that is always full, as a full SD card is."""
    good = table.table.flow.journal
    full = tmp_path / "full.jsonl"
    full.symlink_to("/dev/full")
    table.table.flow.ledger.journal = Journal(full, good.header, good.seq)
    return good


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_full_disk_pauses_the_roll_and_nothing_is_applied(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl")
    good = _break_storage(t, tmp_path)
    t.press("ROLL")
    assert t.phase is Phase.ROLL and "NOT SAVED: disk full" in t.text
    t.table.flow.ledger.journal = good  # the card has room again
    t.press("ROLL")
    assert t.phase is Phase.STEP and len(read(tmp_path / "game.jsonl").entries) == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_full_disk_during_a_move_keeps_the_position(tmp_path: Path) -> None:
    t = Harness(tmp_path / "game.jsonl")
    t.roll(1, 5)
    good = _break_storage(t, tmp_path)
    t.move(12, 17)
    assert "NOT SAVED: disk full" in t.text and t.table.flow.game.dice == (1, 5)
    t.table.flow.ledger.journal = good
    t.press("OK")  # try again: the board still shows the move
    assert t.moves() == ["R1,5", "12-17"]


def test_a_failed_write_leaves_no_partial_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal.create(path, "hannibal", {})
    before = path.read_bytes()
    os.chmod(path, 0o444)
    journal.close()
    reopened = Journal(path, journal.header, 0) if os.geteuid() != 0 else None
    if reopened is None:  # root ignores file modes: a read-only file is simulated by /dev/full
        link = tmp_path / "ro.jsonl"
        link.symlink_to("/dev/full")
        reopened = Journal(link, journal.header, 0)
    with pytest.raises(JournalWriteError):
        reopened.append("yellow", "R3,5", {"x": 1})
    assert reopened.seq == 0 and path.read_bytes() == before
