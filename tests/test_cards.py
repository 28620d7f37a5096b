"""DECK-CARDS: cards, their text forms, and card sets."""

import pytest

from hearts_ref import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, CardSet, InvalidCardError, Rank, Suit


@pytest.mark.parametrize("text", ["QS", "qs", "Q♠", " Qs ", "Q♤"])
def test_deck_cards_parse_queen_of_spades_forms(text):
    assert Card.parse(text) is QUEEN_OF_SPADES


@pytest.mark.parametrize("text", ["10H", "TH", "t♥", "10h"])
def test_deck_cards_parse_ten_forms(text):
    assert Card.parse(text) == Card.of(Rank.TEN, Suit.HEARTS)
    assert str(Card.parse(text)) == "10H"


@pytest.mark.parametrize("text", ["", "1S", "11H", "QX", "Q", "S", "QSS", "♠Q", "10", "JOKER"])
def test_invalid_card_text_names_the_text(text):
    with pytest.raises(InvalidCardError) as error:
        Card.parse(text)
    assert repr(text) in str(error.value)


def test_invalid_card_not_a_string():
    with pytest.raises(InvalidCardError, match="expected a string"):
        Card.parse(12)


def test_deck_cards_52_distinct_round_trip():
    assert len({str(c) for c in CARDS}) == 52
    assert all(Card.parse(str(c)) is c and eval(repr(c)) is c for c in CARDS)


def test_deck_cards_ace_high_order_within_suit():
    ranks = [Card.parse(t + "S").index for t in ["2", "5", "9", "10", "J", "Q", "K", "A"]]
    assert ranks == sorted(ranks)
    assert TWO_OF_CLUBS.index == 0 and QUEEN_OF_SPADES.glyph == "Q♠"


def test_cardset_is_immutable_and_set_like():
    hand = CardSet.parse("2C QS 4H AH")
    with pytest.raises(AttributeError):
        hand.mask = 0
    assert len(hand) == 4 and QUEEN_OF_SPADES in hand and TWO_OF_CLUBS in hand
    assert str(hand - CardSet.parse("QS")) == "2C 4H AH"
    assert CardSet.parse("2C") <= hand and not hand <= CardSet.parse("2C")
    assert eval(repr(hand)) == hand and hash(eval(repr(hand))) == hash(hand)
    assert hand.glyphs() == "2♣ Q♠ 4♥ A♥"


def test_invalid_cardset_duplicate_card():
    with pytest.raises(InvalidCardError, match="twice"):
        CardSet.parse("QS 2C qs")


def test_invalid_cardset_mask_out_of_range():
    with pytest.raises(InvalidCardError, match="out of range"):
        CardSet(1 << 52)
