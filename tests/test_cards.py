"""DECK-CARDS: cards, their text forms, and card sets."""

import pytest

from hearts_ref import CARDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, CardSet, InvalidCardError, Rank, Suit
from hearts_ref.cards import DECK, suit_of
from hearts_ref.cardset import QUEEN, faces


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
    assert len(DECK) == 52 and len({str(c) for c in DECK}) == 52 and all("#" not in str(c) for c in DECK)
    assert all(Card.parse(str(c)) is c and eval(repr(c)) is c for c in CARDS)


def test_two_decks_copies_have_their_own_identity_and_text():
    """DECK-CARDS with two decks: 104 identities, the second deck's written with #2; #1 is the first deck's."""
    assert len({str(c) for c in CARDS}) == 104 and CARDS[:52] == DECK
    jack, copy = Card.parse("JC"), Card.parse("jc#2")
    assert copy != jack and copy.face is jack and jack.face is jack and Card.parse("JC#1") is jack
    assert (copy.suit, copy.rank, copy.copy, jack.copy) == (Suit.CLUBS, Rank.JACK, 2, 1)
    assert str(copy) == "JC#2" and copy.glyph == "J♣#2" and Card.parse("J♣#2") is copy
    assert Card.of(Rank.QUEEN, Suit.SPADES, copy=2).index == QUEEN_OF_SPADES.index + 52
    assert all(suit_of(c.index) == c.suit for c in CARDS)
    for text in ("JC#3", "JC#", "JC#0", "#2"):
        with pytest.raises(InvalidCardError):
            Card.parse(text)


def test_cardset_of_two_decks_reads_each_copy_beside_its_face():
    hand = CardSet.parse("QS#2 2C AH QS 2C#2")
    assert str(hand) == "2C 2C#2 QS QS#2 AH" and hand.glyphs() == "2♣ 2♣#2 Q♠ Q♠#2 A♥"
    assert len(hand & CardSet.from_mask(QUEEN)) == 2 and eval(repr(hand)) == hand
    assert CardSet.from_mask(faces(hand.mask)) == CardSet.parse("2C QS AH")
    assert hand.suit(Suit.CLUBS) == CardSet.parse("2C 2C#2")


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
        CardSet(1 << 104)
