"""Fuzz every public entry point with arbitrary types and values: each call gives a
``FastdouError`` or a correct answer, nothing else. Plus the named regressions of the
"no input crashes the interpreter" issue.

Run by tests/fuzz/test_fuzz.py in a subprocess (a crash would otherwise kill the test run), and by
.ci/run once more under ``NUMBA_BOUNDSCHECK=1``. Hypothesis is derandomized with no example
database, so every run tries the same inputs. ``FASTDOU_FUZZ_EXAMPLES`` sets the examples
per test.
"""

import dataclasses
import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastdou
from fastdou import FastdouError, Game, Move, cards
from fastdou import kernels as K
from fastdou.cli import main
from fastdou.compiling.warmup import warmup

EXAMPLES = int(os.environ.get("FASTDOU_FUZZ_EXAMPLES", "150"))
fuzz = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=5000,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.function_scoped_fixture])

RULES = [fastdou.rules(n) for n in fastdou.PRESETS] + [
    fastdou.rules("classic", profile=p) for p in ("openspiel", "douzero")]
warmup()          # compile (or load) every kernel before the deadlines start counting

# ------------------------------------------------------------------ arbitrary values
_dtypes = st.sampled_from([np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64,
                           np.float64, np.bool_])
arrays = st.builds(   # small counts, negative ones (wrapping to huge in unsigned dtypes)
    lambda dtype, shape, fill, seed: np.random.default_rng(seed).integers(
        -fill, fill + 1, size=shape).astype(dtype),
    _dtypes, st.sampled_from([(15,), (14,), (16,), (3, 15), (0, 15), (2, 14), (), (15, 1)]),
    st.sampled_from([0, 1, 2, 4, 8, 20, 300]), st.integers(0, 2 ** 32))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.sampled_from(
        [0, 1, 2, 3, -1, 2 ** 63 - 1, 2 ** 63, 2 ** 64, 2 ** 64 - 1, 10 ** 6]),
    st.floats(allow_nan=True), st.text(max_size=30), st.binary(max_size=10),
    st.sampled_from([np.int64(1), np.uint64(2 ** 64 - 1), np.bool_(True), np.float32(1.5)]))
card_text = st.text(alphabet="3456789TJQKA2BRXD10 ,+pass小王大王zx", max_size=60)
values = st.one_of(scalars, card_text, arrays,
                   st.lists(st.one_of(st.integers(-3, 40), st.booleans(), st.none()),
                            max_size=25), st.tuples(scalars, scalars),
                   st.dictionaries(st.text(max_size=5), scalars, max_size=3))
rules_arg = st.one_of(st.sampled_from(RULES), st.sampled_from(list(fastdou.PRESETS)), values)


def legal_or_error(call, *args, **kwargs):
    """``call(...)``'s result, or None when it raised a FastdouError (anything else fails)."""
    try:
        return call(*args, **kwargs)
    except FastdouError as e:
        assert str(e), "an error without a message"
        assert len(str(e)) < 2000, "an error message that echoes its whole input"
        return None


# ------------------------------------------------------------------ cards and moves
@fuzz
@given(values, st.one_of(st.none(), st.sampled_from(RULES)))
def test_parse(x, rules):
    counts = legal_or_error(cards.parse, x, rules)
    if counts is not None:
        deck = rules.deck if rules is not None else np.array([4] * 13 + [1, 1])
        assert counts.dtype == np.uint8 and counts.shape == (15,)
        assert (counts <= deck).all()
        assert (cards.parse(cards.to_text(counts), rules) == counts).all()
        assert (cards.unpack(cards.pack(counts)) == counts).all()


@fuzz
@given(values)
def test_pack_unpack_and_writers(x):
    packed = legal_or_error(cards.pack, x)
    if packed is not None:
        assert (cards.unpack(packed).astype(np.int64) == np.asarray(x, np.int64)).all()
    for write in (cards.to_text, cards.to_douzero, cards.unpack):
        legal_or_error(write, x)


@fuzz
@given(values, values, values, values)
def test_move_constructor(packed, kind, rank, length):
    move = legal_or_error(Move, packed, kind, rank, length)
    if move is not None:
        assert Move.from_record(move.record) == move


@fuzz
@given(st.one_of(card_text, values), rules_arg, st.one_of(st.none(), values))
def test_move_parse_and_classify(text, rules, kind):
    move = legal_or_error(Move.parse, text, rules, kind=kind)
    if move is not None and not move.is_pass:
        r = fastdou.rules(rules) if isinstance(rules, str) else rules
        assert move in fastdou.classify(move.cards, r)
        assert Move.parse(move.text(), r, kind=move.kind) == move
    for m in legal_or_error(fastdou.classify, text, rules) or []:
        assert m.kind != fastdou.Kind.PASS


@fuzz
@given(st.one_of(card_text, values), st.one_of(st.none(), card_text, values), rules_arg)
def test_legal_moves(hand, last, rules):
    moves = legal_or_error(fastdou.legal_moves, hand, last=last, rules=rules)
    if moves is None:
        return
    r = moves.rules
    held = cards.parse(hand, r)
    for m in moves:
        assert (m.cards <= held).all()
        assert m.text() in moves
        if last is not None and not fastdou.generation.as_move(last, r).is_pass:
            assert fastdou.beats(m, last, r)


@fuzz
@given(st.one_of(card_text, values), st.one_of(card_text, values), rules_arg)
def test_beats(a, b, rules):
    result = legal_or_error(fastdou.beats, a, b, rules)
    assert result in (None, True, False)


@fuzz
@given(values, st.one_of(st.none(), values), st.sampled_from(RULES))
def test_generate_batch(hands, lasts, rules):
    out = legal_or_error(fastdou.generate_batch, hands, lasts, rules)
    if out is not None:
        moves, offsets = out
        assert offsets[0] == 0 and offsets[-1] == len(moves)
        packed = K.pack_rows(np.ascontiguousarray(hands, np.uint8),
                             np.empty(len(hands), np.uint64))
        for i in range(len(hands)):
            for rec in moves[offsets[i]:offsets[i + 1]]:
                assert K.contains(packed[i], rec[0])


# ------------------------------------------------------------------ rules
_FIELD_VALUES = {
    int: st.one_of(st.integers(0, 12), st.integers(0, 12), st.integers(-3, 60), scalars),
    bool: st.one_of(st.booleans(), st.booleans(), scalars),
    str: st.one_of(st.sampled_from(["none", "all", "any", "lone", "rank", "size_rank",
                                    "score", "call", "call_grab", "marked", "farmers",
                                    "everyone", "landlord", "classic", "team", "points",
                                    "never", "anywhere", "not_adjacent", "standard"]),
                   scalars),
    tuple: st.one_of(st.lists(st.integers(-1, 16), max_size=10).map(tuple), values),
    frozenset: st.one_of(*[st.sets(st.sampled_from([k.name.lower() for k in fastdou.Kind]),
                                   max_size=8).map(lambda s: s | {"solo"})] * 2,
                         st.sets(st.sampled_from([k.name.lower() for k in fastdou.Kind]),
                                 max_size=8), values),
}
_FIELDS = [f for f in dataclasses.fields(fastdou.Rules) if f.name not in ("name", "profile")]
overrides = st.lists(st.sampled_from(_FIELDS), min_size=1, max_size=4, unique=True).flatmap(
    lambda fs: st.fixed_dictionaries(
        {f.name: _FIELD_VALUES[type(getattr(fastdou.Rules, f.name))] for f in fs}))


_PLAUSIBLE = dict(
    players=st.integers(2, 8), decks=st.integers(1, 2), hand_size=st.integers(1, 30),
    kitty=st.integers(0, 10), landlord_gets_kitty=st.booleans(),
    removed_ranks=st.sets(st.integers(0, 14), max_size=4).map(tuple),
    bomb_min=st.sampled_from([0, 2, 3, 4, 5]), bomb_max=st.integers(2, 8),
    joker_bombs=st.sampled_from(["none", "all", "any", "lone"]),
    bomb_order=st.sampled_from(["size_rank", "rank"]),
    bidding=st.sampled_from(["score", "score_once", "call", "call_grab", "marked"]),
    doubling=st.sampled_from(["none", "farmers", "landlord", "everyone"]),
    spring=st.sampled_from(["none", "classic", "losers_silent"]),
    scoring=st.sampled_from(["landlord", "team", "points"]), max_grabs=st.integers(0, 4),
    handicap=st.booleans(), max_redeals=st.integers(0, 3), max_bid=st.integers(1, 5),
    joker_solos=st.booleans(), kitty_trump=st.booleans(),
    joker_pairs=st.booleans(), wing_trio=st.sampled_from(["never", "not_adjacent", "anywhere"]),
    solo_chain_min=st.integers(2, 6), chain_low=st.integers(0, 4),
    kinds=st.sets(st.sampled_from([k.name.lower() for k in fastdou.Kind]),
                  max_size=10).map(lambda s: s | {"solo"}))
plausible = st.lists(st.sampled_from(sorted(_PLAUSIBLE)), min_size=1, max_size=5,
                     unique=True).flatmap(
    lambda fs: st.fixed_dictionaries({f: _PLAUSIBLE[f] for f in fs}))


def play_randomly(game, rng):
    """Play a game to its end with random legal actions; cards are conserved throughout."""
    total = sum(game.perfect_information_hand(s).astype(int).sum()
                for s in range(game.rules.players))
    for _ in range(2000):
        if game.is_terminal():
            break
        actions = game.legal_actions()
        assert actions, "no legal action in a game that is not over"
        game.play(actions[rng.integers(len(actions))])
        if game.phase == "play":
            held = sum(game.perfect_information_hand(s).astype(int).sum()
                       for s in range(game.rules.players))
            assert held <= total + game.rules.kitty
    return game


@fuzz
@given(st.sampled_from(list(fastdou.PRESETS)), st.one_of(overrides, plausible))
def test_rules_overrides_give_rules_that_play(name, changes):
    r = legal_or_error(fastdou.rules, name, **changes)
    if r is None:
        return
    result = fastdou.simulate(30, r, seed=1, per_deal=True)
    assert result.summary.deals == 30
    assert np.allclose(result.per_deal["scores"].sum(axis=1), 0), "scores not zero-sum"
    game = play_randomly(Game.new(r, seed=2), np.random.default_rng(0))
    assert game.is_terminal() or game.phase != "done"


@fuzz
@given(overrides)
def test_rules_built_directly_are_validated(changes):
    try:
        r = fastdou.Rules(**changes)
    except FastdouError:
        return
    assert fastdou.simulate(20, r).summary.deals == 20


# ------------------------------------------------------------------ games
@fuzz
@given(st.sampled_from(RULES), st.integers(0, 10 ** 6), values, values, values)
def test_game_methods(rules, deal, a, b, c):
    game = Game.new(rules, seed=3, deal=deal)
    rng = np.random.default_rng(deal)
    for _ in range(int(rng.integers(0, 40))):
        if game.is_terminal():
            break
        actions = game.legal_actions()
        game.play(actions[rng.integers(len(actions))])
    before, depth = game.state, len(game.history)
    for view in (game.perfect_information_hand, game.observation, game.encode):
        legal_or_error(view, a)
    legal_or_error(game.encode, 0, out=b)
    for call in (game.play, game.push, game.play_id, game.push_id):
        if not game.is_terminal():
            legal_or_error(call, a)
    while len(game.history) > depth:             # each call that went through is undone
        game.pop()
    assert (game.state == before).all()
    legal_or_error(Game.new, b, seed=a, deal=c)
    legal_or_error(Game.new, rules, start=a, landlord=b)
    legal_or_error(Game.from_hands, a, rules, kitty=b, first=c)
    table = fastdou.action_table(rules)
    for lookup in (table.id, table.action, table.ids, table.records):
        legal_or_error(lookup, a)
    if not game.is_terminal():
        legal_or_error(game.result)


@fuzz
@given(st.sampled_from(RULES), st.integers(0, 10 ** 6), st.integers(0, 12), values)
def test_from_hands_with_one_argument_broken(rules, deal, which, value):
    """A real deal given back to from_hands, one of its arguments replaced by ``value``."""
    dealt = Game.new(rules, seed=5, deal=deal)
    hands = [cards.to_text(dealt.perfect_information_hand(s)) for s in range(rules.players)]
    kitty = cards.unpack(int(dealt.state[fastdou.kernels.state.G_KITTY]))
    kwargs = dict(kitty=kitty, first=1)
    if rules.bidding == "marked":           # the deal named the landlords, who took the kitty
        kwargs["landlords"] = (0, 1)
        hands[dealt.landlord] = cards.to_text(
            dealt.perfect_information_hand(dealt.landlord) - kitty)
    if which < rules.players:
        hands[which] = value
    elif which == 8:
        kwargs["kitty"] = value
    elif which >= 10:
        kwargs[("start", "landlord", "marked")[which - 10]] = value
    else:
        kwargs["first" if rules.bidding != "marked" else "landlords"] = value
    game = legal_or_error(Game.from_hands, hands, rules, **kwargs)
    if game is not None:
        play_randomly(game, np.random.default_rng(deal))


def _mutate(obj, path, value):
    if not path or not isinstance(obj, (dict, list)) or not obj:
        return value
    keys = list(obj) if isinstance(obj, dict) else list(range(len(obj)))
    key = keys[path[0] % len(keys)]
    obj = dict(obj) if isinstance(obj, dict) else list(obj)
    obj[key] = _mutate(obj[key], path[1:], value)
    return obj


_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 2 ** 65),
                               st.floats(allow_nan=False), st.text(max_size=12)),
                     lambda inner: st.one_of(st.lists(inner, max_size=4),
                                             st.dictionaries(st.text(max_size=6), inner,
                                                             max_size=4)), max_leaves=10)


@fuzz
@given(st.sampled_from(RULES), st.lists(st.integers(0, 50), max_size=4), _json)
def test_loads_of_broken_records(rules, path, value):
    game = play_randomly(Game.new(rules, seed=4), np.random.default_rng(1))
    record = _mutate(game.record(), path, value)
    replay = legal_or_error(Game.loads, json.dumps(record))
    if replay is not None:
        assert (Game.loads(replay.dumps()).state == replay.state).all()


@fuzz
@given(st.one_of(st.text(max_size=200), st.binary(max_size=50), values))
def test_loads_of_arbitrary_text(text):
    legal_or_error(Game.loads, text)


# ------------------------------------------------------------------ simulate
@fuzz
@given(st.one_of(st.integers(-2, 50), values), rules_arg,
       st.one_of(st.sampled_from(["random", "greedy", ["greedy", "random", "random"]]),
                 values), values, st.one_of(st.none(), st.integers(0, 3), values),
       st.one_of(st.booleans(), values), st.one_of(st.integers(0, 2 ** 63), values))
def test_simulate(deals, rules, policies, seed, threads, per_deal, first):
    if isinstance(deals, (int, np.integer)) and not isinstance(deals, (bool, np.bool_)) \
            and deals > 100:
        deals = 100
    result = legal_or_error(fastdou.simulate, deals, rules, policies, seed=seed,
                            threads=threads, per_deal=per_deal, first=first)
    if result is not None:
        assert result.summary.deals == deals
        if per_deal:
            assert len(result.per_deal["winner"]) == deals


# ------------------------------------------------------------------ analysis: house rules,
# comparisons, results files, plots
from fastdou.overrides import SETTABLE, house_rules  # noqa: E402
from fastdou.rules import Rules  # noqa: E402

_set_items = st.one_of(
    st.builds(lambda f, v: f"{f}={v}", st.sampled_from(SETTABLE + ("name", "bogus", "")),
              st.one_of(st.sampled_from(["0", "1", "5", "-1", "true", "no", "farmers",
                                         "1,1,1,1,2,2,2,2,2", "solo,pair", "", "2" * 30,
                                         "anywhere", "none", "1.5"]),
                        st.text(max_size=12))),
    st.text(max_size=20), values)


@fuzz
@given(st.sampled_from(list(fastdou.PRESETS)), st.one_of(st.none(), st.sampled_from(
    list(fastdou.PROFILES)), values), st.lists(_set_items, max_size=4))
def test_house_rules_from_text(name, profile, items):
    r = legal_or_error(house_rules, name, profile, items)
    if r is not None:
        assert Rules.from_json(r.to_json()) == r
        assert fastdou.simulate(20, r, seed=1).summary.deals == 20


@fuzz
@given(st.one_of(st.dictionaries(st.sampled_from(SETTABLE[:-1] + ("name", "x")), values,
                                 max_size=4), values))
def test_rules_from_metadata(d):
    r = legal_or_error(Rules.from_json, d)
    if r is not None:
        assert Rules.from_json(r.to_json()) == r


@fuzz
@given(st.one_of(st.lists(st.sampled_from(["random", "greedy", "x:y", "os:getcwd", ""]),
                          max_size=4), values),
       st.one_of(st.integers(-2, 60), values), rules_arg, values)
def test_compare(policies, deals, rules, seed):
    if isinstance(deals, (int, np.integer)) and not isinstance(deals, (bool, np.bool_)) \
            and deals > 60:
        deals = 60
    result = legal_or_error(fastdou.compare, policies, deals, rules, seed)
    if result is not None:
        assert result.deals == deals and len(result.per_policy) == len(policies)


@fuzz
@given(st.sampled_from([".parquet", ".csv", ".jsonl", ".npz", ".txt", ""]),
       st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_load_results_of_arbitrary_files(tmp_path_factory, suffix, content):
    path = tmp_path_factory.mktemp("res") / f"f{suffix}"
    path.write_bytes(content)
    legal_or_error(fastdou.load_results, str(path))


@fuzz
@given(values, values, values)
def test_simulate_with_bad_dask_and_plot_arguments(client, out, labels):
    if client is not None:
        legal_or_error(fastdou.simulate, 10, client=client)
    if out is not None or client is not None:
        legal_or_error(fastdou.simulate, 10, out=out, chunk=client)
    res = fastdou.simulate(50, per_deal=True)
    legal_or_error(res.plot, out, labels=labels)


# ------------------------------------------------------------------ the command line
_options = ["--deals", "--rules", "--profile", "--policy", "--seed", "--threads", "--out",
            "--json", "--last", "--depth", "--version", "-h", "--set", "--policies",
            "--chunk", "-o", "--labels"]
_words = st.one_of(st.sampled_from(_options), st.sampled_from(
    ["simulate", "moves", "rules", "warmup", "classic", "jinling", "1k", "50", "0", "-1",
     "inf", "nan", "1e400", "greedy,random,random", "run.npz", "run.jsonl", "run.txt",
     "run.parquet", "run.csv", "report.png", "bomb_min=5", "doubling=farmers", "x=1",
     "bomb_factors=1,2", "greedy", "random", "no:such",
     "3334", "33344455BR", "openspiel", "emperor", "", " "]),
    st.text(alphabet="abc0123456789.,-+ eEkKmMBR/\\x00", max_size=12))


@fuzz
@given(st.sampled_from(["simulate", "moves", "rules", "compare", "plot", "bogus"]),
       st.lists(_words, max_size=8))
def test_command_line(tmp_path_factory, monkeypatch, capsys, command, argv):
    monkeypatch.chdir(tmp_path_factory.mktemp("cli"))
    monkeypatch.setattr(fastdou.sim.simulation, "MAX_DEALS", 2000)
    argv = [command] + [a.replace("/", "_") for a in argv]     # files only in the tmp dir
    if command in ("simulate", "compare") and "--deals" not in argv:
        argv += ["--deals", "100"]
    try:
        status = main(argv)
    except SystemExit as e:                          # --help and --version exit 0
        status = e.code
    out, err = capsys.readouterr()
    assert status in (0, 2), (argv, status, err)
    if status == 2:
        assert err.startswith("fastdou: error: ") or err.startswith("usage:"), err
        assert "Traceback" not in err
    assert not [f for f in os.listdir(".") if f.startswith(".fastdou-")]


# ------------------------------------------------------------------ named regressions
@pytest.mark.parametrize("make", [
    lambda: fastdou.rules("classic", hand_size=10 ** 6, kitty=54 - 3 * 10 ** 6),
    lambda: fastdou.rules("classic", hand_size=19, kitty=-3),
    lambda: fastdou.rules("classic", hand_size=40, kitty=-66),
    lambda: fastdou.rules("classic", hand_size=0),
    lambda: fastdou.Rules(decks=3),
    lambda: fastdou.Rules(players=1000, hand_size=0, kitty=0),
    lambda: fastdou.rules("classic", kinds=[]),
    lambda: fastdou.rules("jinling", kinds=["pair"], bomb_min=0, joker_bombs="none"),
    lambda: fastdou.Rules(players=2, decks=2, hand_size=2, kitty=0,
                          removed_ranks=tuple(range(13)), bidding="marked", scoring="team"),
    lambda: fastdou.rules("five_player", scoring="landlord"),
], ids=["huge-hands", "negative-kitty", "nibble-overflow", "empty-hands", "three-decks",
        "1000-players", "no-kinds", "no-solo", "marked-only-jokers", "marked-not-zero-sum"])
def test_rules_that_crashed_are_refused(make):
    with pytest.raises(fastdou.RulesError):
        make()


def test_silent_wrong_answers_are_errors_or_right():
    with pytest.raises(fastdou.InvalidCardsError, match="impossible count"):
        fastdou.legal_moves(np.array([2 ** 64 - 1] + [0] * 14, np.uint64))
    with pytest.raises(fastdou.InvalidCardsError):
        cards.pack([16] + [0] * 14)
    openspiel = fastdou.rules("classic", profile="openspiel")
    moves = fastdou.legal_moves("333444555666", rules=openspiel)
    for m in moves:
        assert m.text() in moves and m in moves
    assert "333444555666" in moves and "444555666+333" in moves and "3456" not in moves
    game = Game.new("jinling")
    for seat in (-1, 3, 1.0, True):
        with pytest.raises(fastdou.ArgumentError):
            game.perfect_information_hand(seat)
    with pytest.raises(fastdou.ArgumentError):
        fastdou.simulate(10, first=2 ** 63 - 5)


def test_raw_errors_are_fastdou_errors():
    game = Game.new()
    for call in (game.result, game.pop, lambda: game.play(2 ** 64), lambda: game.push(-1),
                 lambda: Game.new(seed=-1), lambda: Game.new(seed=1.5),
                 lambda: fastdou.simulate(10, threads=1.0),
                 lambda: fastdou.simulate(10, seed=True),
                 lambda: Game.loads('{"rules": {"name": "classic"}, "start": 5, '
                                    '"actions": []}'),
                 lambda: Game.loads("[" * 100_000), lambda: Game.loads('{"a": 1}'),
                 lambda: Game.loads('{"rules": 1, "start": {}, "actions": []}'),
                 lambda: Game.from_hands(5), lambda: fastdou.rules("classic", kinds=5)):
        with pytest.raises(FastdouError):
            call()
    assert fastdou.simulate(10, threads=np.int64(1)).summary.deals == 10


def test_a_policy_that_raises_is_a_policy_error():
    from numba import njit

    @njit
    def raises(state, actions, n, rng):
        if n > 3:
            raise ValueError("no")
        return 0, rng

    with pytest.raises(fastdou.PolicyError, match="raised ValueError"):
        fastdou.simulate(20, policies=["random", raises, "random"])


def test_long_inputs_are_cut_in_messages():
    with pytest.raises(fastdou.InvalidCardsError) as info:
        cards.parse("3" * 10_000_000)
    assert len(str(info.value)) < 200


# ------------------------------------------------------------------ positions and search
small_hand = st.text(alphabet="3456789TJQKA2BR", min_size=1, max_size=6)


@fuzz
@given(st.one_of(st.lists(small_hand, min_size=2, max_size=4), st.lists(values, max_size=4),
                 values), rules_arg,
       st.one_of(st.integers(-1, 4), values), st.one_of(st.none(), st.integers(-1, 4), values),
       st.one_of(st.none(), card_text, values), st.one_of(st.none(), st.integers(-1, 4), values))
def test_positions_and_search(hands, rules, landlord, to_move, last, last_player):
    pos = legal_or_error(fastdou.Position, hands, rules, landlord=landlord, to_move=to_move,
                         last=last, last_player=last_player)
    if pos is None:
        return
    assert fastdou.Position.parse(str(pos), rules=pos.rules) == pos
    sol = legal_or_error(fastdou.solve, pos, max_nodes=3000)
    if sol is not None and sol.landlord_wins is not None:
        assert (len(sol.winning_moves) > 0) == (sol.landlord_wins == (pos.side(pos.to_move)
                                                                      == "landlord"))
    assert fastdou.perft(pos, 1) == len(fastdou.perft_divide(pos, 1))
    game = fastdou.Game.from_position(pos)
    assert game.position() == pos


_WILD = fastdou.Position(["3457", "4448"], "laizi", wild="7")
fastdou.perft_divide(_WILD, 2), fastdou.solve(_WILD)          # compiled before the deadlines
fastdou.Game.from_position(_WILD).position()


@fuzz
@given(st.lists(small_hand, min_size=2, max_size=3),
       st.one_of(st.sampled_from(list("3456789TJQKA2BR")), values),
       st.one_of(st.none(), card_text, values), st.integers(0, 2), st.integers(0, 2))
def test_wild_positions(hands, wild, last, to_move, last_player):
    pos = legal_or_error(fastdou.Position, hands, "laizi", wild=wild, to_move=to_move,
                         last=last, last_player=None if last is None else last_player)
    if pos is None:
        return
    assert fastdou.Position.parse(str(pos)) == pos
    assert fastdou.perft(pos, 1) == len(fastdou.perft_divide(pos, 1))
    assert fastdou.Game.from_position(pos).position() == pos
    sol = legal_or_error(fastdou.solve, pos, max_nodes=3000)
    if sol is not None and sol.landlord_wins is not None:
        assert (len(sol.winning_moves) > 0) == (sol.landlord_wins == (pos.side(pos.to_move)
                                                                      == "landlord"))


@fuzz
@given(st.one_of(values, small_hand), rules_arg, values)
def test_search_arguments(hand, rules, depth):
    legal_or_error(fastdou.min_plays, hand, rules)
    pos = fastdou.Position(["3455KK", "345522"])
    if not (isinstance(depth, int) and depth > 3):
        legal_or_error(fastdou.perft, pos, depth)
    legal_or_error(fastdou.solve, pos, max_nodes=depth)
    legal_or_error(fastdou.solve, pos, time_limit=depth)
    legal_or_error(fastdou.solve, hand)
