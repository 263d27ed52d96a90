"""Checks moves with python-chess for roger's protocol fuzzer (`roger fuzz protocol`).

One request a line on standard input, tab separated:

    FEN <tab> MOVES <tab> BEST <tab> PONDER

MOVES are the moves played from FEN (space separated, may be empty), BEST the engine's
`bestmove` (`0000` when it found no move) and PONDER its ponder move (may be empty). The answer
is one line: `ok`, or a reason starting with `illegal` or `error`. Prints `ready` first.
"""

import sys

import chess


def check(fen, moves, best, ponder):
    try:
        board = chess.Board(fen)
    except ValueError as error:
        return f"error: python-chess refuses the FEN {fen!r}: {error}"
    for number, text in enumerate(moves.split(), 1):
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            return f"illegal: move {number} {text!r} of the position is not UCI"
        if move not in board.legal_moves:
            return f"illegal: move {number} {text} of the position is not legal in {board.fen()}"
        board.push(move)
    if best == "0000":
        if any(board.legal_moves):
            return f"illegal: bestmove 0000 although {board.fen()} has legal moves"
        return "ok"
    for label, text in (("bestmove", best), ("ponder", ponder)):
        if not text:
            continue
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            return f"illegal: {label} {text!r} is not UCI"
        if move not in board.legal_moves:
            return f"illegal: {label} {text} is not legal in {board.fen()}"
        board.push(move)
    return "ok"


def main():
    print("ready", flush=True)
    for line in sys.stdin:
        fields = line.rstrip("\n").split("\t")
        while len(fields) < 4:
            fields.append("")
        print(check(*fields[:4]), flush=True)


if __name__ == "__main__":
    main()
