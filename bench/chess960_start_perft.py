#!/usr/bin/env python3
"""Counts perft 1-4 of the 960 Chess960 start positions with two programs that share no code
with Roger: Stockfish (`UCI_Chess960 true`, `go perft`) and python-chess (chess960=True), and
writes them as the data file tests/data/chess960/start_positions.epd reads.

Usage: python3 bench/chess960_start_perft.py [--python-depth N] > tests/data/chess960/start_positions.epd

Each line: `FEN ;D1 n ;D2 n ;D3 n ;D4 n ;id N`, the FEN in Shredder form (rook files). Stockfish
gives every count; python-chess recounts each position to --python-depth (default 3; 4 takes
hours in Python) and the script stops at the first disagreement.
"""
import argparse
import shutil
import subprocess
import sys

import chess


def stockfish_perft(engine, fen, depth):
    engine.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
    engine.stdin.flush()
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("stockfish ended early")
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])


def python_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_perft(board, depth - 1)
        board.pop()
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--python-depth", type=int, default=3)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    engine = subprocess.Popen(
        [args.stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    engine.stdin.write("uci\nsetoption name UCI_Chess960 value true\nisready\n")
    engine.stdin.flush()
    while engine.stdout.readline().strip() != "readyok":
        pass
    print("# The 960 Chess960 start positions by their standard numbers, perft 1-4: counted by")
    print("# Stockfish (UCI_Chess960) and recounted by python-chess; see bench/chess960_start_perft.py.")
    for number in range(960):
        board = chess.Board.from_chess960_pos(number)
        board.chess960 = True
        fen = board.fen(shredder=True)
        counts = [stockfish_perft(engine, fen, depth) for depth in range(1, 5)]
        for depth in range(1, args.python_depth + 1):
            recount = python_perft(board, depth)
            if recount != counts[depth - 1]:
                sys.exit(f"{fen}: depth {depth}: stockfish {counts[depth - 1]}, python-chess {recount}")
        fields = " ".join(f";D{depth} {count}" for depth, count in enumerate(counts, 1))
        print(f"{fen} {fields} ;id {number}", flush=True)
    engine.stdin.write("quit\n")
    engine.stdin.flush()


if __name__ == "__main__":
    main()
