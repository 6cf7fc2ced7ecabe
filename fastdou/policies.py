"""Policies of a simulation, per seat: a built-in one by name (:data:`POLICIES`), an
``@njit`` function, or its import path ``module:function``; checked and turned into the
per-seat codes the compiled loops take, and the ``@njit`` functions they call for the seats
coded USER and USER_B (a user's, the expert's or pimc's): two different functions at most."""

from __future__ import annotations

import numba
import numpy as np

from fastdou.checks import short
from fastdou.errors import PolicyError
from fastdou.kernels import play as P
from fastdou.kernels import state as S
from fastdou.kernels.expert import expert_policy, expert_wild_policy
from fastdou.kernels.pimc import pimc_policy, pimc_wild_policy
from fastdou.kernels.play import USER_B
from fastdou.kernels.policies import GREEDY, RANDOM, USER, greedy_policy, random_policy

# Each built-in policy once: name -> (its code in the compiled loops, its @njit function).
# USER: the loops take it as a first-class function, as a user's, so that it (the expert,
# pimc, and the solver they search with) compiles only when it plays, once, cached.
BUILT_IN = {"random": (RANDOM, random_policy), "greedy": (GREEDY, greedy_policy),
            "expert": (USER, expert_policy), "pimc": (USER, pimc_policy)}
POLICIES = {name: code for name, (code, _) in BUILT_IN.items()}
FUNCTIONS = {name: fn for name, (_, fn) in BUILT_IN.items()}
# Their versions under wild cards (compiled apart: the classic ones hold no wild-card code).
WILD_FUNCTIONS = {"expert": expert_wild_policy, "pimc": pimc_wild_policy}
# Built in, passed to the loops as their user function (compiled for them alone).
PASSED = tuple(fn for code, fn in BUILT_IN.values() if code == USER) \
    + tuple(WILD_FUNCTIONS.values())


def passed(fn) -> bool:
    """Whether ``fn`` is a built-in policy the loops take as their user function."""
    return any(fn is f for f in PASSED)


def njit_policy(fn):
    """``fn`` if it is an ``@njit`` function, else a PolicyError."""
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        raise PolicyError(f"a policy function must be compiled with @numba.njit, not "
                          f"{short(fn)}")
    return fn


def built_in_function(name, rules):
    """The function of a built-in player passed to the loops (the expert, pimc), for
    ``rules``: its wild-card version under wild cards."""
    return WILD_FUNCTIONS[name] if rules.wilds else FUNCTIONS[name]


def built_in_name(fn) -> str:
    """The name of a built-in function passed to the loops."""
    return next(name for table in (FUNCTIONS, WILD_FUNCTIONS) for name, f in table.items()
                if f is fn)


def for_rules(fn, rules):
    """``fn``, or the version of a built-in function passed to the loops that ``rules``
    take (its wild-card version under wild cards, the classic one otherwise)."""
    return built_in_function(built_in_name(fn), rules) if passed(fn) else fn


def _first_line(e):
    return short((str(e).splitlines() or [type(e).__name__])[0])


def check_user_policy(fn, rules):
    """A user policy must be an ``@njit`` function ``(state, actions, n, rng) -> (i, rng)``."""
    njit_policy(fn)
    if passed(fn):                 # built in: no trial call (a second compile of it)
        fn.compile(P.POLICY_SIGNATURE)
        return
    state = np.zeros(S.STATE_SIZE, np.int64)
    actions = np.zeros((2, 2), np.uint64)
    try:
        out = fn(state, actions, 2, np.uint64(1))
    except (numba.core.errors.NumbaError, TypeError) as e:     # typing, or arity
        raise PolicyError(f"policy {fn.__name__} does not take (state, actions, n, rng): "
                          f"{_first_line(e)}") from None
    except Exception as e:   # the policy's own error, on a plain input
        raise PolicyError(f"policy {fn.__name__} raised {type(e).__name__} on a trial call "
                          f"(a zero state, two actions): {_first_line(e)}") from None
    if not (isinstance(out, tuple) and len(out) == 2
            and all(isinstance(v, (int, np.integer)) for v in out)):
        raise PolicyError(f"policy {fn.__name__} must return (index, rng), not {short(out)}")
    try:                          # the one signature the compiled loops call it with
        fn.compile(P.POLICY_SIGNATURE)
    except Exception as e:
        raise PolicyError(f"policy {fn.__name__} does not compile as (int64[:] state, "
                          f"uint64[:, :] actions, int64 n, uint64 rng) -> (int64, uint64): "
                          f"{_first_line(e)}") from None


def import_policy(path: str):
    """The ``@njit`` policy function at an import path ``package.module:function`` (how the
    command line and Dask workers name a user policy); modules are looked for on
    ``sys.path`` and in the current folder."""
    import importlib
    import os
    import sys
    module, _, name = path.partition(":")
    if os.getcwd() not in sys.path:           # as `python -m` does: the current folder
        sys.path.append(os.getcwd())
    try:
        fn = importlib.import_module(module.strip())
        for part in name.strip().split("."):
            fn = getattr(fn, part)
    except (Exception, SystemExit) as e:    # ImportError, AttributeError, the module's own
        raise PolicyError(f"cannot import policy {short(path)}: {type(e).__name__}: "
                          f"{short(str(e))}") from None
    if not callable(fn):
        raise PolicyError(f"policy {short(path)} is not a function")
    return fn


def policy_codes(policies, rules, functions: int = 1):
    """Per-seat policy codes and the policy functions: with ``functions=1`` (VectorEnv's
    loop) ``(codes, user)``, ``user`` the one function or None; with ``functions=2`` (the
    simulate and evaluate loops) ``(codes, (user, user_b))``, the first function met coded
    USER, a second one USER_B, each None when absent."""
    if isinstance(policies, str) or callable(policies):
        seats = [policies] * rules.players
    elif isinstance(policies, (list, tuple)):
        seats = list(policies)
    else:
        raise PolicyError(f"policies are a name, an @njit function or one per seat, not "
                          f"{short(policies)}")
    if len(seats) != rules.players:
        raise PolicyError(f"{len(seats)} policies for {rules.players} seats")
    found = []                      # the functions, in the order met
    codes = np.empty(rules.players, np.int64)
    for s, p in enumerate(seats):
        if isinstance(p, str) and ":" in p:
            p = import_policy(p)
        if isinstance(p, str):
            if p not in POLICIES:
                raise PolicyError(f"unknown policy {short(p)}; policies: "
                                  f"{', '.join(POLICIES)} or an @njit function")
            codes[s] = POLICIES[p]
            if codes[s] == USER:
                p = FUNCTIONS[p]
        if callable(p):
            p = for_rules(p, rules)
            k = next((j for j, f in enumerate(found) if f is p), len(found))
            if k == len(found):
                if k == functions:
                    raise PolicyError(_too_many(found, p, functions))
                check_user_policy(p, rules)
                found.append(p)
            codes[s] = (USER, USER_B)[k]
        elif not isinstance(p, str):
            raise PolicyError(f"a policy is a name or an @njit function, not {short(p)}")
    found += [None] * (functions - len(found))
    return (codes, found[0]) if functions == 1 else (codes, tuple(found))


def _too_many(found, p, functions) -> str:
    """Why one more policy function cannot play: the loops take ``functions``."""
    if functions == 1:
        if passed(found[0]) or passed(p):
            return ("expert and pimc play as this loop's one policy function: one of them "
                    "cannot play beside another function here (pair it with random or "
                    "greedy, or call it from your own policy)")
        return ("one user policy function at most here (it may look at the seat to act and "
                "behave differently per seat)")
    return (f"{functions} policy functions at most in one run (expert and pimc count "
            f"as one each; a function may look at the seat to act and behave differently per seat)")


def policy_names(policies, players: int) -> tuple:
    """Each seat's policy as text, for metadata: a name, or a function's import path."""
    seats = [policies] * players if isinstance(policies, str) or callable(policies) \
        else list(policies)
    out = []
    for p in seats:
        if isinstance(p, str):
            out.append(p)
        else:
            fn = getattr(p, "py_func", p)
            out.append(f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', '?')}")
    return tuple(out)
