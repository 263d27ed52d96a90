#!/usr/bin/env python3
"""A Megachess engine that misbehaves on purpose, for tests/arena/megachess.rs.

    fake_megachess.py bad      every answer: one legal pawn step, then garbage, the same pawn
                               again, an enemy piece, a square off the board; every third
                               answer comes late
    fake_megachess.py crash N  plays one legal pawn step per answer, and exits at its N-th go
    fake_megachess.py hang N   the same, but from its N-th go on it never answers, not even
                               after `stop`

It reads the `position megachess` line itself (it shares no code with Roger) to find a pawn of
its own with a vacant neighbour square.
"""

import re
import sys
import time

TOKEN = re.compile(r"^(\d+)([KQRBNP])(\d+),(\d+)")
STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read_position(words):
    """(width, height, me, {square: (owner, letter)}) from the words after `position megachess`."""
    width, height = int(words[words.index("size") + 1]), int(words[words.index("size") + 2])
    me = int(words[words.index("me") + 1])
    board = {}
    for token in words[words.index("pieces") + 1:]:
        match = TOKEN.match(token)
        if match:
            owner, letter, x, y = match.groups()
            board[(int(x), int(y))] = (int(owner), letter)
    return width, height, me, board


def vacant_step(square, board, width, height, taken):
    for dx, dy in STEPS:
        x, y = square[0] + dx, square[1] + dy
        if 0 <= x < width and 0 <= y < height and (x, y) not in board and (x, y) not in taken:
            return (x, y)
    return None


def text(a, b):
    return f"{a[0]},{a[1]}-{b[0]},{b[1]}"


def turn(position, bad):
    """The moves of one answer."""
    width, height, me, board = position
    pawns = sorted(sq for sq, (owner, letter) in board.items() if owner == me and letter == "P")
    moves = []
    for pawn in pawns:
        to = vacant_step(pawn, board, width, height, set())
        if to is None:
            continue
        moves.append(text(pawn, to))
        if bad:
            again = vacant_step(to, board, width, height, {pawn, to})
            moves.append("garbage!")
            if again:
                moves.append(text(to, again))  # the same pawn twice
            enemy = [sq for sq, (owner, _) in board.items() if owner not in (0, me)]
            if enemy:
                step = vacant_step(enemy[0], board, width, height, {to}) or enemy[0]
                moves.append(text(enemy[0], step))  # not its piece
            moves.append(text((width + 5, 0), (width + 5, 1)))  # off the board
        break
    return moves


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "bad"
    crash_at = int(sys.argv[2]) if mode == "crash" else None
    hang_at = int(sys.argv[2]) if mode == "hang" else None
    position = None
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            say("id name fake-megachess")
            say("option name UCI_Variant type combo default megachess var megachess")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "position" and words[1:2] == ["megachess"]:
            position = read_position(words[2:])
        elif command == "go":
            goes += 1
            if crash_at is not None and goes >= crash_at:
                sys.exit(3)
            if hang_at is not None and goes >= hang_at:
                continue
            movetime = int(words[words.index("movetime") + 1]) if "movetime" in words else 100
            moves = turn(position, mode == "bad") if position else []
            if mode == "bad" and goes % 3 == 0:
                time.sleep(movetime / 1000 + 0.6)
            say(" ".join(["bestturn"] + moves))
        elif command == "quit":
            return
        # setoption, ucinewgame, stop: nothing to do.


if __name__ == "__main__":
    main()
