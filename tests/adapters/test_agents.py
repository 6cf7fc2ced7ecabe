"""fastdou policies as the agents of RLCard, DouZero and OpenSpiel, played by each
ecosystem's own loop: every action an agent takes is what ``Policy.choose`` picks on the
same position, and greedy beats random."""

import numpy as np
import pytest

import fastdou
from fastdou.errors import ArgumentError, FastdouError


def checker(agent_policy):
    """A Policy like ``agent_policy`` whose stream is set to the agent's before each check."""
    return fastdou.policy(agent_policy.name, agent_policy.rules, seed=agent_policy.seed)


# ------------------------------------------------------------------ RLCard
def test_rlcard_tournament():
    rlcard = pytest.importorskip("rlcard")
    from rlcard.utils import tournament

    from fastdou.adapters import rlcard as RA

    seen = []

    class Logged(RA.Agent):
        def eval_step(self, state):
            st, rng = state["raw_obs"].fastdou_state.copy(), self.policy.rng
            action, info = super().eval_step(state)
            seen.append((self.policy, st, rng, action))
            return action, info

    env = rlcard.make(RA.ENV_ID, config={"seed": 5})
    greedy, random = Logged("greedy"), Logged(fastdou.policy("random", seed=9))
    env.set_agents([greedy, random, random])
    landlord_greedy = tournament(env, 150)[0]
    assert len(seen) > 150 * 20
    for policy, st, rng, action in seen[:3000]:
        check = checker(policy)
        check.rng = rng
        assert check.choose_id(fastdou.Game(policy.rules, st, {})) == action
    env.set_agents([random, greedy, greedy])
    landlord_random = tournament(env, 150)[0]
    assert landlord_greedy - landlord_random > 0.4, (landlord_greedy, landlord_random)
    with pytest.raises(ArgumentError):
        RA.Agent("greedy").eval_step({"obs": None})
    with pytest.raises(FastdouError):
        RA.Agent(fastdou.policy("greedy", "two_player"))


# ------------------------------------------------------------------ DouZero
def _douzero_deals(n, seed):
    from fastdou.adapters import douzero as DZ
    np.random.seed(seed)
    return [DZ.random_deal() for _ in range(n)]


def _evaluate(env_class, players, deals):
    """DouZero's evaluation loop (``mp_simulate``): each deal played to its end."""
    env = env_class(players)
    for deal in deals:
        env.card_play_init({k: list(v) for k, v in deal.items()})
        while not env.game_over:
            env.step()
        env.reset()
    return env.num_wins, env.num_scores


def test_douzero_game_env():
    from fastdou.adapters import douzero as DZ

    seen = []

    class Logged(DZ.Agent):
        def act(self, infoset):
            st, rng = infoset._state.copy(), self.policy.rng
            action = super().act(infoset)
            seen.append((self.policy, st, rng, action))
            assert action in infoset.legal_actions
            return action

    greedy, random = Logged("greedy"), Logged(fastdou.policy("random", seed=4))
    deals = _douzero_deals(200, 1)
    wins_g, _ = _evaluate(DZ.GameEnv, {"landlord": greedy, "landlord_up": random,
                                      "landlord_down": random}, deals)
    for policy, st, rng, action in seen[:3000]:
        check = checker(policy)
        check.rng = rng
        move = check.choose(fastdou.Game(policy.rules, st, {}))
        assert DZ.card_list(move.packed) == action
    wins_r, _ = _evaluate(DZ.GameEnv, {"landlord": random, "landlord_up": greedy,
                                      "landlord_down": greedy}, deals)
    assert wins_g["landlord"] - wins_r["landlord"] > 0.4 * len(deals), (wins_g, wins_r)


def test_douzero_own_game_env():
    """DouZero's own GameEnv with these agents plays the hands fastdou's GameEnv plays."""
    pytest.importorskip("douzero")
    from douzero.env.game import GameEnv as DouZeroGameEnv

    from fastdou.adapters import douzero as DZ

    deals = _douzero_deals(60, 2)
    for name in ("greedy", "random"):
        logs, results = [], []
        for env_class in (DZ.GameEnv, DouZeroGameEnv):
            log = []

            class Logged(DZ.Agent):
                def act(self, infoset):
                    action = super().act(infoset)
                    log.append(list(action))
                    return action

            players = {p: Logged(fastdou.policy(name, seed=3)) for p in DZ.POSITIONS}
            results.append(_evaluate(env_class, players, deals))
            logs.append(log)
        # the same actions (random too: each seat's stream is drawn alike), the same results
        assert len(logs[0]) > 60 * 20
        assert logs[1] == logs[0]
        assert results[1] == results[0]


def test_douzero_agent_on_an_old_infoset():
    """An infoset read after its hand moved on is replayed into its own position."""
    from fastdou.adapters import douzero as DZ

    agent = DZ.Agent("greedy")
    env = DZ.Env("adp")
    np.random.seed(3)
    kept = []
    for _ in range(5):
        env.reset()
        done = False
        while not done:
            action = agent.act(env.infoset)
            kept.append((env.infoset, action))
            _, _, done, _ = env.step(action)
    assert len(kept) > 100
    for info, action in kept:
        assert agent.act(info) == action


def test_douzero_kitty_from_what_is_left():
    from fastdou.adapters.douzero import _kitty

    rng = np.random.default_rng(0)
    values = [3, 3, 4, 4, 5, 9, 9, 17]
    for _ in range(500):
        kitty = sorted(rng.choice(values, 3, replace=True).tolist())
        played = rng.choice(values, int(rng.integers(0, 6)), replace=True).tolist()
        left = list(kitty)
        for v in played:                          # DouZero's GameEnv.step, one for one
            if v in left:
                left.remove(v)
        guess = _kitty(left, played)
        again = list(guess)
        for v in played:
            if v in again:
                again.remove(v)
        assert len(guess) == 3 and sorted(again) == sorted(left)
        if not any(v not in left and v in played for v in set(played)):
            assert guess == kitty


# ------------------------------------------------------------------ OpenSpiel
def test_openspiel_evaluate_bots():
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from fastdou.adapters import openspiel as OS

    seen = []

    class Logged(OS.Bot):
        def step(self, state):
            game, rng = state.fastdou_game.clone(), self.policy.rng
            action = super().step(state)
            seen.append((self.policy, game, rng, action))
            assert action in state.legal_actions()
            return action

    game = pyspiel.load_game("python_fastdou_classic")
    rng = np.random.RandomState(0)
    random = fastdou.policy("random", seed=2)
    totals = np.zeros(2)
    for k in range(120):
        bots = [Logged("greedy" if p == k % 3 else random, p) for p in range(3)]
        totals[0] += evaluate_bots(game.new_initial_state(), bots, rng)[k % 3]
        bots = [Logged(random if p == k % 3 else "greedy", p) for p in range(3)]
        totals[1] += evaluate_bots(game.new_initial_state(), bots, rng)[k % 3]
    assert totals[0] > 0 > totals[1], totals       # one greedy seat wins, one random loses
    for policy, g, rng_before, action in seen[:3000]:
        check = checker(policy)
        check.rng = rng_before
        assert check.choose_id(g) == action

    # OpenSpiel's own ids (the classic openspiel profile): the policy is rebound to it
    game = pyspiel.load_game("python_fastdou_classic_openspiel")
    greedy = fastdou.policy("greedy")
    returns = evaluate_bots(game.new_initial_state(),
                            [OS.Bot(greedy, p) for p in range(3)], rng)
    assert sum(returns) == 0
    state = game.new_initial_state()
    with pytest.raises(ArgumentError):
        OS.Bot("greedy", 0).step(state)           # chance deals first: no Game yet
    g2 = pyspiel.load_game("python_fastdou_two_player")
    bot = OS.Bot("random", 0)
    returns = evaluate_bots(g2.new_initial_state(), [bot, OS.Bot("greedy", 1)], rng)
    assert bot.policy.rules.name == "two_player" and len(returns) == 2
