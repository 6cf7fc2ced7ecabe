"""fastdou.adapters.pettingzoo against the real PettingZoo: its api_test and seed_test for
every preset, its registry, and the environment's observations, masks and rewards checked
step by step against the same ids replayed through a fresh fastdou.Game."""

import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402
from pettingzoo.test.state_test import test_state_space as pz_state_space  # noqa: E402

import fastdou  # noqa: E402
from fastdou import Game  # noqa: E402
from fastdou.adapters import pettingzoo as fpz  # noqa: E402
from fastdou.kernels import encoding as KE  # noqa: E402
from fastdou.kernels import state as S  # noqa: E402
from fastdou.rules import rules_array  # noqa: E402

from tests.shared.rulesets import PRESETS, every_rules, rules_id  # noqa: E402

STARTS = ("bidding", "play")

# PettingZoo's checks warn about any Dict observation / observation space unless the env's
# name is on lists of its own classic environments (api_test: env_obs_dicts, env_obs_space),
# and about all-zero masks, which its classic convention gives every agent not to act.
# Every other warning is a failure.
PZ_NAME_LISTED = ("Observation is not a NumPy array",
                  "Observation space for each agent probably should be gymnasium.spaces.box",
                  "Action mask numpy array is all zeros")


def _pz_checked(check, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    other = [str(w.message) for w in caught if not str(w.message).startswith(PZ_NAME_LISTED)]
    assert not other, other


# ----------------------------------------------------------------------- PettingZoo's tests
@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("preset", PRESETS)
def test_api_test(preset, start):
    env = pettingzoo.make("aec", fpz.ENV_IDS[preset], start=start)
    _pz_checked(api_test, env, num_cycles=150, verbose_progress=False)


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("preset", PRESETS)
def test_seed_test(preset, start):
    _pz_checked(seed_test, lambda: fpz.env(preset, start=start), num_cycles=150)


@pytest.mark.parametrize("preset", PRESETS)
def test_registry(preset):
    env_id = fpz.ENV_IDS[preset]
    assert env_id == f"fastdou/{preset}-v0"
    assert env_id in pettingzoo.aec_registry
    spec = pettingzoo.spec("aec", env_id)
    assert spec.namespace == "fastdou" and spec.version == 0
    env = pettingzoo.make("aec", f"fastdou/{preset}")          # the latest version
    assert env.unwrapped.rules == fastdou.rules(preset)
    assert str(env.unwrapped) == f"fastdou_{preset}_v0"
    assert env.possible_agents == [f"player_{k}" for k in range(fastdou.rules(preset).players)]


def test_state_space():
    env = fpz.env("classic")
    env.reset(seed=0)
    _pz_checked(pz_state_space, env)


# ----------------------------------------------------------------------- the replay check
def _plane(counts, rules):
    """A card plane (the encoding's): deck[r] entries for rank r, the first counts[r] set."""
    rows = [np.arange(d) < c for c, d in zip(counts, rules.deck)]
    return np.concatenate(rows).astype(np.int8)


def _hand_of(encoding, rules):
    """The counts of the encoding's first block (the observer's hand)."""
    ends = np.cumsum(rules.deck.astype(np.int64))
    return np.array([encoding[e - d:e].sum() for e, d in zip(ends, rules.deck)])


def _expected_scores(game):
    """Every seat's score as docs/rules.md §4.6 says, from the finished replay."""
    r, res = game.rules, game.result()
    n = r.players
    if res.winner == "void":
        return np.zeros(n)
    landlords = {res.landlord, res.partner} - {-1}
    won = res.winner == "landlord"
    if r.scoring == "points":
        points = np.array(r.card_points)
        left = [float(points @ game.perfect_information_hand(s)) * res.multiplier
                for s in range(n)]
        pay = [left[s] if won else left[res.landlord] for s in range(n)]
        out = np.array([-pay[s] if won else pay[s] for s in range(n)])
        out[res.landlord] = -(out.sum() - out[res.landlord])
        return out
    stake = res.bid * res.multiplier
    if r.scoring == "landlord":
        sign = 1 if won else -1
        return np.array([sign * (n - 1) * stake if s in landlords else -sign * stake
                         for s in range(n)])
    winners = landlords if won else set(range(n)) - landlords       # team
    losers = set(range(n)) - winners
    return np.array([stake if s in winners else -stake * len(winners) / len(losers)
                     for s in range(n)])


def _check_against(env, replay, agents_left):
    """Every agent's observation, the mask and state() against the replayed Game."""
    raw = env.unwrapped
    rules = replay.rules
    acting = env.agent_selection
    for k, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.int8 and obs["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs["observation"], replay.encode(k))
        np.testing.assert_array_equal(_hand_of(obs["observation"], rules),
                                      replay.perfect_information_hand(k))
        if agent == acting and not replay.is_terminal():
            assert acting == f"player_{replay.current_player}"
            np.testing.assert_array_equal(obs["action_mask"], replay.action_mask())
            np.testing.assert_array_equal(np.flatnonzero(obs["action_mask"]),
                                          np.sort(replay.legal_action_ids()))
            assert obs["action_mask"].sum() == len(replay.legal_action_ids())
        else:
            assert not obs["action_mask"].any()
    n, size = rules.players, int(KE.encoding_size(rules_array(rules, wild=True)))
    state = raw.state()
    assert raw.state_space.contains(state)
    for k in range(n):
        np.testing.assert_array_equal(state[k * size:(k + 1) * size], replay.encode(k))
    kitty = fastdou.cards.unpack(int(replay.state[S.G_KITTY]))
    np.testing.assert_array_equal(state[n * size:], _plane(kitty, rules))
    assert set(env.agents) == set(agents_left)
    assert not any(env.truncations.values())


def _play_episode(env, rules, start, seed, rng, *, options=None):
    """One hand with random legal ids, checked at every step; returns the ids played."""
    env.reset(seed=seed, options=options)
    stream, deal = env.unwrapped.deal
    assert stream == seed
    replay = Game.new(rules, seed=seed, deal=deal, start=start)
    ids, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    with pytest.raises(fastdou.GameStateError):
        replay.scores
    _check_against(env, replay, env.possible_agents)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        assert not trunc and info == {}
        if term:
            env.step(None)
            continue
        assert reward == 0
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        replay.play_id(action)
        ids.append(action)
        _check_against(env, replay, env.possible_agents)
        if replay.is_terminal():
            assert all(env.terminations.values())
            scores = replay.result().scores
            assert replay.scores == scores
            assert [env.rewards[a] for a in env.possible_agents] == list(scores)
    assert env.agents == []
    got = np.array([totals[a] for a in env.possible_agents])
    np.testing.assert_array_equal(got, replay.result().scores)
    np.testing.assert_allclose(got, _expected_scores(replay), atol=1e-9)
    assert abs(got.sum()) < 1e-9                      # every accepted rules set is zero sum
    assert np.round(got * S.SCORE_UNIT).sum() == 0
    return ids


@pytest.mark.parametrize("start", STARTS)
@pytest.mark.parametrize("rules", every_rules(), ids=rules_id)
def test_steps_match_a_replayed_game(rules, start):
    env = fpz.env(rules, start=start)
    rng = np.random.default_rng(7)
    for seed in (0, 11):
        _play_episode(env, rules, start, seed, rng)


@pytest.mark.parametrize("preset", PRESETS)
def test_rewards_follow_the_scoring(preset):
    """30 random hands: the rewards are the scores §4.6 gives, for both sides winning."""
    env = fpz.raw_env(preset)
    rng = np.random.default_rng(3)
    winners = set()
    env.reset(seed=21)
    for h in range(30):
        if h:
            env.reset()
        totals = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            agent = env.agent_selection
            totals[agent] += env.last(observe=False)[1]
            if env.terminations[agent]:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        game = env.game
        winners.add(game.result().winner)
        np.testing.assert_allclose([totals[a] for a in env.possible_agents],
                                   _expected_scores(game), atol=1e-9)
    assert {"landlord", "farmers"} <= winners


def test_void_hand_ends_with_zero_rewards():
    """four_player is void after three deals without a bid: everyone terminates with 0."""
    env = fpz.env("four_player")
    env.reset(seed=0)
    pass_id = fastdou.action_table("four_player").pass_id
    steps = 0
    while not any(env.terminations.values()):
        env.step(pass_id)
        steps += 1
    assert steps == 12 and env.unwrapped.game.result().winner == "void"
    assert env.rewards == dict.fromkeys(env.possible_agents, 0.0)
    assert all(env.terminations.values()) and not any(env.truncations.values())


def test_seeds_and_deals():
    env = fpz.env("classic")
    rules = fastdou.rules("classic")
    first = lambda: env.observe(env.agent_selection)["observation"]    # noqa: E731
    env.reset(seed=5)
    a = first()
    assert env.unwrapped.deal == (5, 0)
    seat = lambda: int(env.agent_selection.split("_")[1])             # noqa: E731
    np.testing.assert_array_equal(a, Game.new(rules, seed=5).encode(seat()))
    env.reset()                                   # the next deal of the same stream
    assert env.unwrapped.deal == (5, 1)
    np.testing.assert_array_equal(first(), Game.new(rules, seed=5, deal=1).encode(seat()))
    env.reset(seed=5)
    np.testing.assert_array_equal(first(), a)
    env.reset(seed=5, options={"deal": 9})
    assert env.unwrapped.deal == (5, 9)
    env.reset()
    assert env.unwrapped.deal == (5, 10)
    env.reset(seed=6)
    assert env.unwrapped.deal == (6, 0)
    fresh = fpz.env("classic")
    fresh.reset()                                 # no seed ever: a random stream
    assert fresh.unwrapped.deal[1] == 0 and 0 <= fresh.unwrapped.deal[0] < 2 ** 63
    other = fpz.env("classic")
    other.reset()
    assert other.unwrapped.deal[0] != fresh.unwrapped.deal[0]


def test_episode_with_options_deal():
    rules = fastdou.rules("four_player")
    env = fpz.env(rules)
    _play_episode(env, rules, "bidding", 3, np.random.default_rng(1), options={"deal": 4})


def test_start_play_begins_with_the_landlord():
    env = fpz.env("classic", start="play", landlord=2)
    env.reset(seed=1)
    assert env.agent_selection == "player_2"
    assert env.unwrapped.game.phase == "play" and env.unwrapped.game.landlord == 2


# ----------------------------------------------------------------------- illegal actions
def test_illegal_actions_raise_naming_the_id():
    env = fpz.env("classic")
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.observe(agent)
    legal = set(np.flatnonzero(before["action_mask"]))
    table = fastdou.action_table("classic")
    play_id = next(i for i in range(table.n_plays) if i not in legal)   # a play while bidding
    for bad in (play_id, table.size, -1, np.int64(table.size + 5)):
        with pytest.raises(fastdou.IllegalMoveError, match=rf"{agent}.*{int(bad)}"):
            env.step(bad)
    for bad in (None, 1.5, "pass", True):
        with pytest.raises(fastdou.IllegalMoveError, match=agent):
            env.step(bad)
    after = env.observe(agent)                    # nothing changed
    assert env.agent_selection == agent
    for key in before:
        np.testing.assert_array_equal(before[key], after[key])
    env.step(np.array(min(legal)))                # a 0-d array id is an id
    assert env.agent_selection != agent


def test_illegal_play_names_the_id_and_the_reason():
    env = fpz.env("classic", start="play")
    env.reset(seed=4)
    agent = env.agent_selection
    game = env.unwrapped.game
    table = game.action_table
    held = game.perfect_information_hand(0)
    missing = next(r for r in range(15) if held[r] == 0)
    bad = table.id(fastdou.cards.TOKENS[missing])
    with pytest.raises(fastdou.IllegalMoveError, match=rf"{agent}: id {bad}: .*does not hold"):
        env.step(bad)
    with pytest.raises(fastdou.IllegalMoveError, match=rf"{table.pass_id}"):
        env.step(table.pass_id)                   # the landlord leads: no pass


def test_step_after_the_end_is_none_only():
    env = fpz.raw_env("jinling")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)
                                               ["action_mask"]))))
    with pytest.raises(ValueError, match="None"):
        env.step(0)


# ----------------------------------------------------------------------- the rest
def test_render_modes(capsys):
    env = fpz.env("classic", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    game = env.unwrapped.game
    for k in range(3):
        assert f"player_{k}" in text
        assert fastdou.cards.to_text(game.perfect_information_hand(k)) in text
    human = fpz.env("two_player", render_mode="human")
    human.reset(seed=3)
    assert human.render() is None
    assert "player_1" in capsys.readouterr().out
    silent = fpz.env("classic")
    silent.reset(seed=3)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None
    env.close()


def test_bad_arguments():
    with pytest.raises(fastdou.RulesError):
        fpz.env("no_such_preset")
    with pytest.raises(fastdou.ArgumentError, match="render_mode"):
        fpz.env("classic", render_mode="rgb_array")
    with pytest.raises(fastdou.ArgumentError, match="start"):
        fpz.env("classic", start="middle")
    with pytest.raises(fastdou.ArgumentError, match="landlord"):
        fpz.env("classic", landlord=1)
    with pytest.raises(fastdou.ArgumentError, match="max_cycles"):
        pettingzoo.make("aec", "fastdou/classic-v0", max_cycles=100)
    env = fpz.env("classic")
    with pytest.raises(fastdou.ArgumentError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(fastdou.ArgumentError, match="deal"):
        env.reset(seed=1, options={"deal": "x"})
    with pytest.raises(fastdou.ArgumentError, match="options"):
        env.reset(seed=1, options=[1])
    env.reset(seed=1)
    with pytest.raises(fastdou.ArgumentError, match="player_3"):
        env.observe("player_3")
    with pytest.raises(fastdou.ArgumentError, match="player_3"):
        env.action_space("player_3")


def test_spaces():
    for preset in PRESETS:
        env = fpz.raw_env(preset)
        rules = fastdou.rules(preset)
        table = fastdou.action_table(preset)
        size = int(KE.encoding_size(rules_array(rules, wild=True)))
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            assert space["observation"].shape == (size,)
            assert space["observation"].dtype == np.int8
            assert space["action_mask"].shape == (table.size,)
            assert env.action_space(agent).n == table.size
        assert env.observation_space("player_0") is not env.observation_space("player_1")


@pytest.mark.parametrize("start", STARTS)
def test_wild_cards(start):
    """laizi (``fastdou/laizi-v0``): PettingZoo's api_test, and every step checked against
    the replayed Game under the drawn wild rank, over the wild ids."""
    rules = fastdou.rules("laizi")
    env = fpz.env(rules, start=start)
    assert env.action_space("player_0").n == fastdou.action_table(rules).size
    _pz_checked(api_test, fpz.env(rules, start=start), num_cycles=60, verbose_progress=False)
    rng = np.random.default_rng(5)
    ids = _play_episode(env, rules, start, 3, rng)
    assert len(ids) > 10 and env.unwrapped.game.wild is not None
