"""House rules from text: ``FIELD=VALUE`` pairs (the command line's ``--set``) turned into
:func:`fastdou.rules` overrides, each value read by the type of its :class:`Rules` field.

* whole numbers: ``bomb_min=5``;
* true or false: ``handicap=true`` (``true/false``, ``yes/no``, ``on/off``, ``1/0``);
* names: ``doubling=farmers``;
* tuples of whole numbers, comma-separated: ``bomb_factors=1,1,1,1,2,2,2,2,2``,
  ``removed_ranks=`` (empty: none);
* kinds, comma-separated names: ``kinds=solo,pair,trio``; ``four_two=false`` as in the API.

The rules themselves then validate the values with the API's own errors.
"""

from __future__ import annotations

import dataclasses

from fastdou.checks import short
from fastdou.errors import RulesError
from fastdou.rules import Rules, rules

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_TYPES = {f.name: type(getattr(Rules, f.name)) for f in dataclasses.fields(Rules)}
_TYPES["four_two"] = bool
# name and profile are what the preset and --profile choose; not house rules.
SETTABLE = tuple(k for k in _TYPES if k not in ("name", "profile"))


def _whole(field, text):
    t = text.strip()
    if not t.lstrip("+-").isdecimal() or not t.lstrip("+-").isascii() or len(t) > 20:
        raise RulesError(f"{field} must be a whole number, not {short(text)}")
    return int(t)


def parse_value(field: str, text: str):
    """The value of ``field`` written as ``text``."""
    if field not in _TYPES:
        raise RulesError(f"unknown rules field {short(field)}; fields: {', '.join(SETTABLE)}")
    if field not in SETTABLE:
        raise RulesError(f"{field} is chosen by the preset name and --profile, not --set")
    kind = _TYPES[field]
    if kind is bool:
        t = text.strip().lower()
        if t in _TRUE:
            return True
        if t in _FALSE:
            return False
        raise RulesError(f"{field} must be true or false, not {short(text)}")
    if kind is int:
        return _whole(field, text)
    if kind is tuple:
        parts = [p for p in text.replace(" ", "").split(",")]
        if parts == [""]:
            return ()
        return tuple(_whole(field, p) for p in parts)
    if kind is frozenset:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        return parts                     # rules() reads kind names (unknown: RulesError)
    return text.strip()


def parse_sets(items) -> dict:
    """``["bomb_min=5", "doubling=farmers"]`` -> overrides; later pairs win."""
    out = {}
    for item in items or ():
        if not isinstance(item, str) or "=" not in item:
            raise RulesError(f"--set takes FIELD=VALUE, not {short(item)}")
        field, text = item.split("=", 1)
        field = field.strip()
        out[field] = parse_value(field, text)
    return out


def house_rules(name: str, profile=None, sets=()) -> Rules:
    """The preset ``name`` with a kicker ``profile`` and ``--set`` pairs applied."""
    return rules(name, profile=profile, **parse_sets(sets))
