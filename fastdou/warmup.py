"""Compile (and cache to disk) every kernel the API uses, for every preset's rules array."""

import numpy as np

from fastdou.actions import action_table
from fastdou.cold_start import generator_from_helper
from fastdou.game import Game
from fastdou.generation import beats, generate_batch, legal_moves
from fastdou.moves import classify
from fastdou.position import Position
from fastdou.simulation import simulate
from fastdou.solver import min_plays, perft, perft_divide, solve


def warmup() -> None:
    """Run each entry point once; later processes load the compiled code from the cache."""
    with generator_from_helper():
        simulate(10)
    legal_moves("33344455BR")
    legal_moves("33344455BR", last="3334")
    classify("333444555666")
    beats("BR", "2222")
    generate_batch(np.ones((2, 15), dtype=np.uint8) * np.array([1] * 13 + [0, 0], np.uint8))
    game = Game.new()
    game.play(game.legal_actions()[-1])
    game.push(game.legal_actions()[0])
    game.pop()
    ids = game.legal_action_ids()                      # the RL paths: ids, views, encoding
    game.play_id(ids[-1])
    game.push_id(game.legal_action_ids()[0])
    game.pop()
    game.observation(0)
    game.encode(0)
    game.action_mask()
    table = action_table("classic")
    table.records(table.ids(table.records(np.array([0, table.pass_id]))))
    Game.new(start="play")
    pos = Position(["3455KK", "345522"])
    solve(pos)
    solve(pos, threads=2)
    perft(pos, 3)
    perft_divide(pos, 2)
    min_plays("33344455BR")
