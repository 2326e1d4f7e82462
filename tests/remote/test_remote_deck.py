"""Cards shuffled face down by two tables (``controller.remote.deck``): each table reads the cards dealt to its
seats and nothing else; a card turned for all reads the same at both; and at the end each table's check of the
far table's work fails, naming it, on every way of cheating the deck: a lock that is not a shuffle, a card turned
that is not the one in the deck, a card played that was not dealt, a share that is not the card's."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.remote.deck import DeckBroken, P, Shuffle, encodings

HORSES = ("noiro", "roujo", "pepite", "cocotte")
TIPS = tuple(f"{h}:{f}" for h in HORSES for f, n in (("0", 2), ("1", 2), ("2", 2), ("c", 1)) for _ in range(n))
DEAL = ["p2", "p3", "p1"] * 4  # positions 0..11 of the tips, round-robin
HERE, THERE = {"p1", "p2"}, {"p3"}


def _tables(seed: int = 1) -> tuple[Shuffle, Shuffle]:
    rng = random.Random(seed)
    first = Shuffle.begin("1", {"horses": HORSES, "tips": TIPS}, rng)
    second = Shuffle.answer("1", {"horses": HORSES, "tips": TIPS}, first.locked_hex(), rng)
    first.take_final(second.final_hex())
    return first, second


def _deal(first: Shuffle, second: Shuffle) -> tuple[dict[int, str], dict[int, str]]:
    """Each card read by its seat's table, with the other's share."""
    here, there = {}, {}
    for position, seat in enumerate(DEAL):
        reader, giver, into = (first, second, here) if seat in HERE else (second, first, there)
        assert reader.read("tips", position) is None  # not without the far table's share
        reader.take_share("tips", position, format(giver.share("tips", position), "x"))
        card = reader.read("tips", position)
        assert card is not None
        into[position] = card
    return here, there


def test_each_table_reads_its_own_cards_only_and_both_read_a_turned_card_alike() -> None:
    first, second = _tables()
    assert first.final == second.final and first.locked == second.locked
    here, there = _deal(first, second)
    assert sum((Counter(here.values()) + Counter(there.values())).values()) == 12
    assert not Counter(here.values()) + Counter(there.values()) - Counter(TIPS)  # cards of the deck, none twice over
    for position in there:  # a far seat's card, with this table's own lock off: no card of the deck
        alone = pow(first.final["tips"][position], pow(first.key, -1, (P - 1) // 2), P)  # type: ignore[index]
        assert alone not in encodings("1", "tips", len(TIPS))
    for table, other in ((first, second), (second, first)):
        table.take_share("horses", 0, format(other.share("horses", 0), "x"))
    assert first.read("horses", 0) == second.read("horses", 0) in HORSES
    played = {"p3": [there[p] for p in sorted(there)]}
    dealt = {f"tips:{p}": DEAL[p] for p in there}
    first.check(second.key, {"horses": [first.read("horses", 0) or ""]}, dealt, played)
    mine = {seat: [here[p] for p in sorted(here) if DEAL[p] == seat] for seat in HERE}
    second.check(first.key, {"horses": [second.read("horses", 0) or ""]},
                 {f"tips:{p}": DEAL[p] for p in here}, mine)
    assert Shuffle.from_json(first.to_json()) == first


def test_no_card_is_a_product_of_cards_so_a_locked_deck_shows_no_relation() -> None:
    """A lock keeps products (x^e * y^e = (xy)^e): with cards written as small numbers, 3^2 * 4^2 = 12^2 would name
    three locked cards to anyone holding the deck. No card of either deck is another's square, or the product of
    two; and the two decks share no card."""
    for deck, size in (("horses", 6), ("tips", 42)):
        cards = encodings("1", deck, size)
        known = set(cards)
        assert not [(a, b) for i, a in enumerate(cards) for b in cards[i:] if a * b % P in known]
    assert not set(encodings("1", "horses", 6)) & set(encodings("1", "tips", 42))
    assert encodings("1", "tips", 42) != encodings("2", "tips", 42)  # a new deck every race


def test_the_order_is_the_second_tables_doing_too() -> None:
    """The first table's shuffle alone does not fix the order: the same first lock answered twice deals apart."""
    rng = random.Random(3)
    first = Shuffle.begin("1", {"horses": HORSES, "tips": TIPS}, rng)
    orders = set()
    for seed in range(4):
        second = Shuffle.answer("1", {"horses": HORSES, "tips": TIPS}, first.locked_hex(), random.Random(seed))
        table = Shuffle.from_json(first.to_json())
        table.take_final(second.final_hex())
        for r in range(4):
            table.take_share("horses", r, format(second.share("horses", r), "x"))
        orders.add(tuple(table.read("horses", r) for r in range(4)))
    assert len(orders) > 1


def test_a_second_lock_that_is_not_a_shuffle_is_caught() -> None:
    first, second = _tables()
    forged = second.final_hex()
    forged["tips"][0] = forged["tips"][1]  # one card twice, another gone
    first = Shuffle.begin("1", {"horses": HORSES, "tips": TIPS}, random.Random(1))
    first.take_final(forged)
    with pytest.raises(DeckBroken, match="deck tips: the far table's lock and shuffle is not a shuffle of our deck"):
        first.check(second.key, {}, {}, {})


def test_a_first_lock_that_is_not_a_shuffle_is_caught() -> None:
    rng = random.Random(2)
    first = Shuffle.begin("1", {"horses": HORSES, "tips": TIPS}, rng)
    forged = first.locked_hex()
    forged["tips"][0] = format(pow(encodings("1", "tips", len(TIPS))[-1], first.key, P), "x")  # a cravache twice
    second = Shuffle.answer("1", {"horses": HORSES, "tips": TIPS}, forged, rng)
    with pytest.raises(DeckBroken, match="deck tips: the far table's first lock is not a shuffle of the deck"):
        second.check(first.key, {}, {}, {})


def test_a_card_turned_that_the_deck_does_not_hold_is_caught() -> None:
    first, second = _tables()
    first.take_share("horses", 0, format(second.share("horses", 0), "x"))
    true = first.read("horses", 0)
    false = next(h for h in HORSES if h != true)
    with pytest.raises(DeckBroken, match=f"horses card 1: {false} was turned, the deck holds {true}"):
        second.check(first.key, {"horses": [false]}, {}, {})


def test_a_card_played_that_was_not_dealt_is_caught() -> None:
    first, second = _tables()
    _, there = _deal(first, second)
    played = [there[p] for p in sorted(there)]
    other = next(c for c in TIPS if c not in played)
    with pytest.raises(DeckBroken, match=r"p3 played .*, but was dealt"):
        first.check(second.key, {}, {f"tips:{p}": "p3" for p in there}, {"p3": [other, *played[1:]]})


def test_a_share_of_another_place_is_caught_at_the_end() -> None:
    """The far table hands this table's seat a card it knows, the share of a place it was dealt itself: the
    card reads, but the end's check names the share."""
    first, second = _tables()
    first.take_share("tips", 0, format(second.share("tips", 1), "x"))  # position 1 is p3's
    assert first.read("tips", 0) is not None
    with pytest.raises(DeckBroken, match="the far table's share of tips:0 is not the card at that place"):
        first.check(second.key, {}, {}, {})


def test_a_false_share_reads_no_card() -> None:
    first, _ = _tables()
    first.take_share("tips", 0, format(pow(12345, 2, P), "x"))
    with pytest.raises(DeckBroken, match="the card at tips:0 is no card of the deck: the far table's share is false"):
        first.read("tips", 0)
    with pytest.raises(DeckBroken, match="share of tips:1: a number out of range"):
        first.take_share("tips", 1, format(P + 1, "x"))
