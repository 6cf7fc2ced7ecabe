"""The eight presets and their kicker profiles as data
(docs/rules.md §2.2, §5), and the deck a preset deals. :mod:`fastdou.rules` builds and
validates a ``Rules`` from them; this module sits below it so that card notation
(:mod:`fastdou.cards`) can check counts against a preset's deck by name.
"""

from __future__ import annotations

import numpy as np

from fastdou.checks import short
from fastdou.errors import RulesError
from fastdou.kernels import layout as L
from fastdou.kinds import Kind


def kinds(*names: str) -> frozenset:
    return frozenset(Kind[n.upper()] for n in names)


CLASSIC_KINDS = kinds("solo", "pair", "trio", "trio_solo", "trio_pair", "solo_chain",
                      "pair_chain", "trio_chain", "plane_solo", "plane_pair",
                      "four_two_solo", "four_two_pair")


# Kicker profiles of the one-deck presets (docs/rules.md §2.2, §5).
# ``four_two`` applies to presets that have four_two kinds at all.
PROFILES = {
    "standard": dict(rocket_kickers=False, bomb_wings=False, wing_trio="not_adjacent",
                     four_two=True),
    "openspiel": dict(rocket_kickers=False, bomb_wings=False, wing_trio="anywhere",
                      four_two=False),
    "douzero": dict(rocket_kickers=True, bomb_wings=True, wing_trio="anywhere",
                    four_two=True),
}

PRESETS = {
    "classic": dict(),
    "two_player": dict(players=2, removed_ranks=(0, 1), hand_size=17, kitty=3, chain_low=2,
                       bidding="call_grab", max_grabs=3, handicap=True, spring="none"),
    "two_landlords": dict(players=2, hand_size=20, kitty=3, kitty_shown=False, bidding="call"),
    "four_player": dict(
        players=4, decks=2, hand_size=25, kitty=8, joker_pairs=True, bomb_min=4, bomb_max=8,
        kinds=kinds("solo", "pair", "trio", "trio_pair", "solo_chain", "pair_chain",
                    "trio_chain", "plane_pair"),
        bidding="score_once", max_redeals=3,
        bomb_factors=(1, 1, 1, 1, 1, 1, 2, 2, 3), joker_bomb_factor=3),
    "five_player": dict(
        players=5, decks=2, hand_size=21, kitty=3, kitty_shown=False, bomb_min=4, bomb_max=8,
        joker_bombs="any",
        kinds=kinds("solo", "solo_chain", "pair", "pair_chain", "trio", "trio_chain",
                    "trio_pair", "plane_pair"),
        bidding="marked", doubling="everyone", spring="losers_silent",
        scoring="team", bomb_factors=(1, 1, 1, 1, 1, 2, 2, 2, 2)),
    "emperor": dict(
        players=3, decks=2, hand_size=33, kitty=9, kitty_shown=False, joker_pairs=True,
        bomb_min=5, bomb_max=8,
        pair_chain_min=4, trio_chain_min=3,
        kinds=kinds("solo", "solo_chain", "pair", "pair_chain", "trio", "trio_chain",
                    "trio_pair", "plane_pair", "quad", "quad_chain", "quad_trio", "carrier",
                    "dress", "spaceship")),
    "jinling": dict(
        players=3, hand_size=17, kitty=3, landlord_gets_kitty=False, kitty_shown=False,
        bomb_min=3, bomb_max=3,
        bomb_order="rank", joker_bombs="lone",
        kinds=kinds("solo", "pair", "solo_chain", "pair_chain"), kitty_trump=True,
        joker_solos=False,
        bidding="call", doubling="landlord", spring="none", scoring="points",
        bomb_factors=(1,) * 9, joker_bomb_factor=1,
        # 3..9 face value, 10 J Q K 10, A 5, 2 10, small joker 15, big joker 20.
        card_points=(3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 5, 10, 15, 20)),
    # wild cards (docs/rules.md §5.8); bombs by class soft x2, hard x4, wild x4, rocket x4
    "laizi": dict(wilds=1, bomb_factors=(1, 1, 1, 1, 4, 2, 2, 2, 2), joker_bomb_factor=4),
}


def is_preset(name) -> bool:
    """Whether ``name`` names a preset of :data:`PRESETS`."""
    return isinstance(name, str) and name in PRESETS


def preset_name(name) -> str:
    """``name`` if it names a preset; RulesError listing the presets otherwise."""
    if not is_preset(name):
        raise RulesError(f"unknown preset {short(name)}; presets: {', '.join(PRESETS)}")
    return name


def preset_fields(name) -> dict:
    """The fields preset ``name`` sets (a RulesError for an unknown name)."""
    name = preset_name(name)
    return PRESETS[name]


def deck_of(decks: int, removed_ranks: tuple = ()) -> np.ndarray:
    """A deck as 15 counts (uint8): ``decks`` copies of each card, ``removed_ranks`` out."""
    deck = np.full(L.N_RANKS, 4 * decks, dtype=np.uint8)
    deck[L.SMALL_JOKER:] = decks
    for r in removed_ranks:
        deck[r] = 0
    return deck


def preset_deck(name) -> np.ndarray:
    """The deck of preset ``name`` (``fastdou.rules(name).deck``), without building it."""
    fields = preset_fields(name)
    return deck_of(fields.get("decks", 1), fields.get("removed_ranks", ()))
