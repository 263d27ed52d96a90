#!/usr/bin/env python3
"""Plays Chess960 and Double Fischer Random games against Roger through python-chess's UCI client
(`chess960=True` boards), which sets `UCI_Chess960`, sends Shredder-FEN start positions and
castling as king-takes-rook, and parses every reply against its own rules.

Usage: python3 tests/python/chess960_games.py ENGINE [--games N] [--nodes N] [--seed S]

Roger plays both sides, `go nodes N` a move, from Chess960 start positions (and every third game
a DFRC pair) chosen by the seed, until the game ends or 400 plies. Any illegal move, engine error
or protocol error fails with a message; the summary line counts games, plies and castlings.
"""

import argparse
import random
import sys

import chess
import chess.engine


def start_board(rng, game):
    white = rng.randrange(960)
    board = chess.Board.from_chess960_pos(white)
    if game % 3 == 2:
        # DFRC: Black's back rank from another number.
        black = chess.Board.from_chess960_pos(rng.randrange(960))
        placement = board.board_fen().split("/")
        placement[0] = black.board_fen().split("/")[0]
        board = chess.Board(None, chess960=True)
        board.set_board_fen("/".join(placement))
        board.castling_rights = board.rooks & (chess.BB_RANK_1 | chess.BB_RANK_8)
    board.chess960 = True
    return board


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=960)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    plies = castlings = 0
    with chess.engine.SimpleEngine.popen_uci(args.engine) as engine:
        if "UCI_Chess960" not in engine.options:
            sys.exit("the engine does not announce UCI_Chess960")
        for game in range(args.games):
            board = start_board(rng, game)
            start = board.fen()
            while not board.is_game_over(claim_draw=True) and board.ply() < 400:
                result = engine.play(board, chess.engine.Limit(nodes=args.nodes))
                move = result.move
                if move is None or move not in board.legal_moves:
                    sys.exit(f"game {game} from {start}: illegal move {move} in {board.fen()}")
                castlings += board.is_castling(move)
                board.push(move)
                plies += 1
            print(f"game {game}: {board.result(claim_draw=True)} in {board.ply()} plies from {start}")
    print(f"ok: {args.games} games, {plies} plies, {castlings} castlings, no illegal move")


if __name__ == "__main__":
    main()
