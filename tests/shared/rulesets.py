"""The rule sets under test, random hands, and whether the long variants run."""
import os

import numpy as np

import fastdou

SLOW = os.environ.get("FASTDOU_SLOW") == "1"

CLASSIC_PROFILES = ("standard", "openspiel", "douzero")
PRESETS = tuple(fastdou.PRESETS)


def every_rules():
    """The three classic profiles and every other preset without wild cards (the classic
    generator's rules; wild cards have their own tests, ``test_wild_*``)."""
    out = [fastdou.rules("classic", profile=p) for p in CLASSIC_PROFILES]
    out += [fastdou.rules(name) for name in PRESETS
            if name != "classic" and not fastdou.rules(name).wilds]
    return out


def rules_id(r):
    return r.name if r.name != "classic" else f"classic-{r.profile}"


def random_hand(rng, rules, size):
    """A uniformly random ``size``-card hand from the rules' deck, as 15 uint8 counts."""
    deck = np.repeat(np.arange(15), rules.deck)
    picked = rng.choice(deck, size, replace=False)
    return np.bincount(picked, minlength=15).astype(np.uint8)
