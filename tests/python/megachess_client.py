#!/usr/bin/env python3
"""A Megachess client written from the rules page alone (docs/rules/megachess.md and the
protocol's fixed core), with its own implementation of the movement rules: no code of the engine.

It builds `position megachess ...` lines by hand for several worlds, sends them to an engine over
its standard input, and checks that every move of every `bestturn` is legal when applied in the
order written (each piece moves at most once; captures, army hand-over and bonus collection
happen as the moves are applied). On some worlds it goes on as a tiny server would: it applies
the turn, ends it (fading), and asks the other team's player, for a few turns.

Usage:
    python3 megachess_client.py [--movetime MS] [--turns N] -- ENGINE [ARGS...]
    python3 megachess_client.py --self-test

The engine is any program that speaks the protocol (`roger`, or `roger play greedy --variant
megachess`). Exit status 0 when every answer was legal and in time; 1 with a reason otherwise.
`--self-test` checks that the checker refuses illegal turns (so that it can fail).
"""

import random
import subprocess
import sys
import threading
import queue
import time

KINGS, QUEENS, ROOKS, BISHOPS, KNIGHTS, PAWNS = "KQRBNP"
DEFAULT_RANKS = {"K": 10, "Q": 9, "R": 5, "B": 3, "N": 3, "P": 1}
KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
RANGE = {"Q": 7, "R": 6, "B": 6}


class Illegal(Exception):
    """A move the rules refuse."""


class Piece:
    def __init__(self, owner, kind, moved=False, orthogonal=False, life=None):
        self.owner = owner
        self.kind = kind
        self.moved = moved
        self.orthogonal = orthogonal
        self.life = life


class World:
    """The world as the rules page describes it: squares to pieces, players to teams."""

    def __init__(self, width, height, turn, players, params=None):
        self.width = width
        self.height = height
        self.turn = turn
        self.players = dict(players)  # id -> 'a' or 'm'
        self.pieces = {}  # (x, y) -> Piece
        self.params = {
            "kingdom_radius": 16,
            "fade_base": 2,
            "fade_per_rank": 1,
        }
        self.params.update(params or {})
        self.moved_now = set()  # squares of the pieces that moved in this turn

    def team_to_move(self):
        return "a" if self.turn % 2 == 1 else "m"

    def put(self, owner, kind, x, y, flags="", life=None):
        assert (x, y) not in self.pieces, f"two pieces on {x},{y}"
        assert 0 <= x < self.width and 0 <= y < self.height, f"{x},{y} off the board"
        self.pieces[(x, y)] = Piece(owner, kind, "m" in flags, "o" in flags, life)

    def army(self, owner, x, y, direction):
        """The chess back rank R N B Q K B N R on row y from x eastwards, pawns one row towards
        `direction` (+1 north, -1 south)."""
        for i, kind in enumerate("RNBQKBNR"):
            self.put(owner, kind, x + i, y)
            self.put(owner, "P", x + i, y + direction)

    def allied(self, a, b):
        return a != 0 and b != 0 and self.players.get(a) == self.players.get(b)

    def rank(self, kind):
        return self.params.get("rank_" + {"K": "king", "Q": "queen", "R": "rook", "B": "bishop",
                                          "N": "knight", "P": "pawn"}[kind], DEFAULT_RANKS[kind])

    def full_life(self, kind):
        return self.params["fade_base"] + self.params["fade_per_rank"] * self.rank(kind)

    def king_of(self, owner):
        for square, piece in self.pieces.items():
            if piece.owner == owner and piece.kind == "K":
                return square
        return None

    # ---- the text the bot reads -------------------------------------------------------------

    def token(self, square, piece):
        flags = ("m" if piece.moved else "") + ("o" if piece.orthogonal else "")
        text = f"{piece.owner}{piece.kind}{square[0]},{square[1]}"
        if flags:
            text += "." + flags
        if piece.life is not None:
            text += f"/{piece.life}"
        return text

    def line(self, me):
        players = " ".join(f"{pid}:{team}" for pid, team in sorted(self.players.items()))
        pieces = " ".join(self.token(sq, p) for sq, p in sorted(self.pieces.items()))
        return (f"position megachess size {self.width} {self.height} turn {self.turn} me {me} "
                f"players {players} pieces {pieces}")

    # ---- the rules of movement --------------------------------------------------------------

    def on_board(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height

    def path_clear(self, frm, to, step):
        x, y = frm[0] + step[0], frm[1] + step[1]
        while (x, y) != to:
            if (x, y) in self.pieces:
                raise Illegal(f"the path is blocked at {x},{y}")
            x, y = x + step[0], y + step[1]

    def check(self, me, frm, to):
        """Raises Illegal unless `me` may move the piece on `frm` to `to` now; returns whether it
        is the bishop's orthogonal step."""
        if self.players.get(me) != self.team_to_move():
            raise Illegal(f"it is not player {me}'s team's turn")
        if not self.on_board(*frm) or not self.on_board(*to):
            raise Illegal("a square is off the board")
        piece = self.pieces.get(frm)
        if piece is None:
            raise Illegal(f"no piece on {frm[0]},{frm[1]}")
        if piece.owner != me:
            raise Illegal(f"the piece on {frm[0]},{frm[1]} belongs to {piece.owner}")
        if frm in self.moved_now:
            raise Illegal(f"the piece on {frm[0]},{frm[1]} has moved in this turn already")
        if frm == to:
            raise Illegal("a move must change square")
        target = self.pieces.get(to)
        if target is not None and (target.owner == 0 or target.owner == me
                                   or self.allied(me, target.owner)):
            raise Illegal(f"{to[0]},{to[1]} holds an own, allied or neutral piece")
        dx, dy = to[0] - frm[0], to[1] - frm[1]
        adx, ady = abs(dx), abs(dy)
        kind = piece.kind
        sign = lambda v: (v > 0) - (v < 0)
        if kind == "K":
            if max(adx, ady) != 1:
                raise Illegal("a king moves one square")
        elif kind == "N":
            if (adx, ady) not in ((1, 2), (2, 1)):
                raise Illegal("not a knight's jump")
        elif kind in "QRB":
            straight = dx == 0 or dy == 0
            diagonal = adx == ady
            distance = max(adx, ady)
            if kind == "B" and straight and distance == 1:
                if piece.orthogonal:
                    raise Illegal("the bishop has used its orthogonal step")
                if target is not None:
                    raise Illegal("the bishop's orthogonal step never captures")
                return True
            allowed = {"Q": straight or diagonal, "R": straight, "B": diagonal}[kind]
            if not allowed:
                raise Illegal(f"not a line the {kind} moves along")
            if distance > RANGE[kind]:
                raise Illegal(f"beyond the {kind}'s range of {RANGE[kind]}")
            self.path_clear(frm, to, (sign(dx), sign(dy)))
        elif kind == "P":
            if max(adx, ady) == 1:
                if target is not None and (adx == 0 or ady == 0):
                    raise Illegal("a pawn captures diagonally only")
            elif (adx, ady) in ((2, 0), (0, 2)):
                if piece.moved:
                    raise Illegal("the pawn's double step is gone")
                if target is not None:
                    raise Illegal("the pawn's double step never captures")
                self.path_clear(frm, to, (sign(dx), sign(dy)))
            else:
                raise Illegal("not a pawn's move")
        return False

    def apply(self, me, frm, to):
        orthogonal_step = self.check(me, frm, to)
        piece = self.pieces.pop(frm)
        captured = self.pieces.pop(to, None)
        piece.moved = True
        piece.life = None
        if orthogonal_step:
            piece.orthogonal = True
        self.pieces[to] = piece
        self.moved_now.add(to)
        if captured is not None and captured.kind == "K":
            loser = captured.owner
            for other in self.pieces.values():
                if other.owner == loser:
                    other.owner = me
            self.players.pop(loser, None)
        for dx, dy in KING_STEPS:
            square = (to[0] + dx, to[1] + dy)
            neighbour = self.pieces.get(square)
            if neighbour is not None and neighbour.owner == 0:
                neighbour.owner = me
                neighbour.moved = False
                neighbour.life = None

    def end_turn(self):
        """Fading for the pieces of the team whose turn ends, then the next turn."""
        team = self.team_to_move()
        radius = self.params["kingdom_radius"]
        for square in list(self.pieces):
            piece = self.pieces[square]
            if piece.owner == 0 or self.players.get(piece.owner) != team or piece.kind == "K":
                continue
            king = self.king_of(piece.owner)
            inside = king is None or ((square[0] - king[0]) ** 2 + (square[1] - king[1]) ** 2
                                      <= radius * radius)
            if inside or square in self.moved_now:
                piece.life = None
                continue
            life = (piece.life if piece.life is not None else self.full_life(piece.kind)) - 1
            if life <= 0:
                del self.pieces[square]
            else:
                piece.life = life
        self.moved_now = set()
        self.turn += 1


def parse_square(text):
    x, y = text.split(",")
    if not (x.isdigit() and y.isdigit()):
        raise Illegal(f"'{text}' is not a square")
    return int(x), int(y)


def check_turn(world, me, answer):
    """Applies the moves of a `bestturn` line in order; raises Illegal naming the first bad one."""
    words = answer.split()
    if not words or words[0] != "bestturn":
        raise Illegal(f"not a bestturn line: {answer!r}")
    for number, text in enumerate(words[1:], 1):
        try:
            frm, to = text.split("-")
            world.apply(me, parse_square(frm), parse_square(to))
        except (Illegal, ValueError) as error:
            raise Illegal(f"move {number} {text!r} of {answer!r}: {error}") from None
    return len(words) - 1


# ---- the engine -------------------------------------------------------------------------------

class Engine:
    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix, timeout=30.0):
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Illegal(f"no {prefix!r} line within {timeout} s; got {seen}") from None
            if line is None:
                raise Illegal(f"the engine closed its output; got {seen}")
            seen.append(line)
            if line.split(" ")[0] == prefix:
                return seen

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


# ---- the worlds ---------------------------------------------------------------------------------

def facing(width=256, height=256, gap=4, x=100, y=100):
    world = World(width, height, 1, {1: "a", 2: "m"})
    world.army(1, x, y, +1)
    world.army(2, x, y + 3 + gap, -1)
    return world


def crowded(seed):
    rng = random.Random(seed)
    world = World(256, 256, 1, {1: "a", 2: "m", 3: "a", 4: "m"})
    squares = [(x, y) for x in range(40, 52) for y in range(40, 52)]
    rng.shuffle(squares)
    for owner in (1, 2, 3, 4):
        world.put(owner, "K", *squares.pop())
    for _ in range(70):
        owner = rng.choice((0, 1, 2, 3, 4))
        kind = rng.choice("QRRBBNNPPPP")
        flags = "" if owner == 0 else rng.choice(["", "", "m", "mo" if kind == "B" else "m"])
        world.put(owner, kind, *squares.pop(), flags=flags)
    return world


def neutrals():
    world = facing(gap=6)
    for x, y, kind in [(99, 102, "N"), (104, 104, "P"), (108, 103, "Q"), (101, 105, "B"),
                       (103, 105, "R"), (106, 106, "P")]:
        world.put(0, kind, x, y)
    return world


def flags():
    world = World(64, 64, 2, {5: "a", 6: "m", 7: "m"})
    world.put(5, "K", 10, 10)
    world.put(6, "K", 30, 30)
    world.put(7, "K", 33, 30)
    for x, y, kind, flag, life in [(29, 31, "B", "mo", None), (31, 31, "B", "m", 2),
                                   (30, 29, "P", "m", 1), (32, 29, "P", "", None),
                                   (34, 31, "B", "", None), (33, 28, "N", "m", 4),
                                   (28, 28, "R", "m", None), (31, 33, "Q", "m", 3)]:
        world.put(6 if x < 33 else 7, kind, x, y, flag, life)
    for x, y, kind in [(29, 32, "P"), (31, 28, "N"), (27, 30, "B"), (35, 30, "R"), (32, 31, "P")]:
        world.put(5, kind, x, y, "m")
    world.put(0, "P", 33, 33)
    return world


def big_board():
    world = World(1_000_000, 1_000_000, 1, {11: "a", 12: "m"})
    world.army(11, 999_990, 999_980, +1)
    world.army(12, 999_990, 999_985, -1)
    world.put(11, "Q", 0, 0, "m")
    world.put(12, "R", 500_000, 500_000, "m", 2)
    return world


def check_answer(engine, world, me, movetime, name):
    engine.send(world.line(me))
    start = time.monotonic()
    engine.send(f"go movetime {movetime}")
    lines = engine.until("bestturn", timeout=movetime / 1000 + 10)
    took = (time.monotonic() - start) * 1000
    errors = [line for line in lines if line.startswith("info string error")]
    if errors:
        raise Illegal(f"{name}: the engine reported {errors}")
    if not any(line.startswith("info time ") for line in lines[:-1]):
        raise Illegal(f"{name}: no progress info line before {lines[-1]!r}")
    moves = check_turn(world, me, lines[-1])
    # Generous: a loaded machine adds scheduling delays to the pipe's.
    if took > movetime + 250:
        raise Illegal(f"{name}: bestturn after {took:.0f} ms, movetime {movetime}")
    return moves


def play(engine, world, turns, movetime, name):
    """A tiny server: each turn, every player of the team to move plays; then the turn ends."""
    total = 0
    for _ in range(turns):
        team = world.team_to_move()
        for me in sorted(pid for pid, t in world.players.items() if t == team):
            if me in world.players:
                total += check_answer(engine, world, me, movetime, f"{name} turn {world.turn}")
        world.end_turn()
        if len(set(world.players.values())) < 2:
            break
    return total


def run(command, movetime, turns):
    engine = Engine(command)
    try:
        engine.send("uci")
        engine.until("uciok")
        engine.send("setoption name UCI_Variant value megachess")
        engine.send("isready")
        engine.until("readyok")
        moves = 0
        moves += play(engine, facing(gap=2), turns, movetime, "facing")
        moves += play(engine, crowded(7), turns, movetime, "crowded")
        moves += play(engine, neutrals(), turns, movetime, "neutrals")
        moves += check_answer(engine, flags(), 6, movetime, "flags, player 6")
        moves += check_answer(engine, flags(), 7, movetime, "flags, player 7")
        moves += play(engine, big_board(), turns, movetime, "big board")
        # Other parameters: a small kingdom and quick fading, told as options.
        for name, value in [("kingdom_radius", 3), ("fade_base", 1), ("fade_per_rank", 0)]:
            engine.send(f"setoption name {name} value {value}")
        world = facing(gap=3)
        world.params.update(kingdom_radius=3, fade_base=1, fade_per_rank=0)
        moves += play(engine, world, turns, movetime, "small kingdoms")
        engine.send("isready")
        lines = engine.until("readyok")
        errors = [line for line in lines if line.startswith("info string error")]
        if errors:
            raise Illegal(f"the engine reported {errors}")
    finally:
        engine.close()
    if moves == 0:
        raise Illegal("the engine never moved a piece")
    return moves


def self_test():
    """The checker refuses illegal turns: it can fail."""
    bad = [
        (facing, 1, "bestturn 100,101-100,103 100,103-100,104", "moved in this turn already"),
        (facing, 1, "bestturn 100,107-100,106", "belongs to 2"),
        (facing, 1, "bestturn 103,100-103,108", "range"),
        (facing, 1, "bestturn 100,100-100,102", "blocked"),
        (facing, 1, "bestturn 101,100-101,101", "own, allied or neutral"),
        (facing, 1, "bestturn 102,100-102,98", "not a line"),
        (facing, 1, "bestturn 100,101-100,102 100,102-99,103", "moved in this turn already"),
        (facing, 1, "bestturn 100,101-100,100", "own, allied or neutral"),
        (facing, 1, "bestturn 105,100-105,98", "not a line"),
        (facing, 1, "bestturn 104,100-104,98", "one square"),
        (facing, 1, "bestturn 999,0-999,1", "off the board"),
        (facing, 2, "bestturn 100,108-100,107", "not player 2's team's turn"),
        (flags, 6, "bestturn 29,31-29,30", "has used its orthogonal step"),
        (flags, 6, "bestturn 30,29-30,27", "double step is gone"),
        (flags, 6, "bestturn 31,31-32,31", "never captures"),
        (flags, 7, "bestturn 33,28-31,28", "not a knight's jump"),
        (flags, 6, "bestturn 28,28-35,28", "range"),
        (flags, 6, "bestturn 32,29-29,32", "not a pawn's move"),
        (neutrals, 1, "bestturn 100,101-99,102", "own, allied or neutral"),
        (facing, 1, "bestturn 100,101-100,102x", "not a square"),
        (facing, 1, "bestmove 100,101-100,102", "not a bestturn line"),
    ]
    for make, me, answer, reason in bad:
        try:
            check_turn(make(), me, answer)
        except Illegal as error:
            if reason not in str(error):
                raise AssertionError(f"{answer!r} refused for {error}, expected {reason!r}")
            continue
        raise AssertionError(f"{answer!r} was taken")
    good = [
        (facing, 1, "bestturn", 0),
        (facing, 1, "bestturn 100,101-100,103 101,100-102,102 100,100-100,102", 3),
        (flags, 7, "bestturn 34,31-34,30", 1),
        (flags, 6, "bestturn 32,29-31,28 30,30-30,31 31,31-31,32", 3),
    ]
    for make, me, answer, count in good:
        try:
            moved = check_turn(make(), me, answer)
        except Illegal as error:
            raise AssertionError(f"{answer!r} refused: {error}") from None
        if moved != count:
            raise AssertionError(f"{answer!r}: {moved} moves")
    # A captured king hands its army over, flags kept; the new pieces may move at once.
    world = World(32, 32, 1, {1: "a", 2: "m"})
    world.put(1, "K", 5, 5)
    world.put(1, "N", 6, 5)
    world.put(2, "K", 7, 7)
    world.put(2, "B", 9, 9, "mo", 2)
    world.put(0, "P", 5, 7)
    check_turn(world, 1, "bestturn 6,5-7,7 9,9-8,8 5,5-4,6 5,7-5,9")
    bishop = world.pieces[(8, 8)]
    assert bishop.owner == 1 and bishop.moved and bishop.orthogonal, "hand-over keeps flags"
    assert world.pieces[(5, 9)].owner == 1, "the collected pawn moved"
    # Fading: outside and unmoved loses a turn of life; inside or moved is full again.
    world = World(64, 64, 1, {1: "a", 2: "m"}, {"kingdom_radius": 2})
    world.put(1, "K", 0, 0)
    world.put(1, "P", 2, 0, "m", 1)
    world.put(1, "P", 3, 0, "m", 2)
    world.put(1, "P", 5, 5, "m", 1)
    world.put(2, "K", 60, 60)
    check_turn(world, 1, "bestturn 5,5-5,6")
    world.end_turn()
    assert world.pieces[(2, 0)].life is None and world.pieces[(3, 0)].life == 1
    assert world.pieces[(5, 6)].life is None and world.turn == 2
    return len(bad) + len(good)


def main(argv):
    if argv[1:] == ["--self-test"]:
        print(f"self-test ok: {self_test()} turns judged")
        return 0
    movetime, turns = 300, 3
    args = argv[1:]
    while args and args[0] != "--":
        if args[0] == "--movetime":
            movetime = int(args[1])
        elif args[0] == "--turns":
            turns = int(args[1])
        else:
            print(f"unknown argument {args[0]!r}\n{__doc__}", file=sys.stderr)
            return 2
        args = args[2:]
    command = args[1:]
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        moves = run(command, movetime, turns)
    except Illegal as error:
        print(f"FAILED: {error}")
        return 1
    print(f"ok: {moves} moves checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
