#!/usr/bin/env python3
"""Play a match between a UCI engine (roger) and Fairy-Max (xboard protocol).

Usage:
    python3 bench/match_fairymax.py [ROGER_PATH] [--games 20] [--tc 10+0.1]
                                    [--concurrency 1] [--pgn FILE] [--fairymax PATH]

ROGER_PATH defaults to target/release/roger (relative to the repo root).

How it works
  * Openings: a built-in list of 10 balanced openings (move sequences from the
    start position); game 2k and 2k+1 use the same opening with colours swapped.
    Fairy-Max advertises `feature setboard=0`, so it cannot be given a FEN; every
    opening is therefore fed to it as moves in force mode.
  * This script keeps both clocks itself (wall clock, measured from the moment
    the search command is written until the engine's move line is read), adds
    the increment after each move and forfeits a side whose clock goes below
    -timemargin.  A side also loses on an illegal move, a crash (EOF), a hang
    (no move by the time its clock runs out) or a resignation.
  * Games are adjudicated with python-chess: checkmate, stalemate,
    insufficient material, threefold repetition (position actually occurred 3
    times), 50-move rule (100 half-moves without capture or pawn move).  The
    engines' own result claims are ignored.
  * roger is driven directly over UCI (position startpos moves ... / go wtime
    btime winc binc).  Fairy-Max is driven directly over xboard: it is kept in
    `force` mode; on its turn we send `time`/`otim` (centiseconds) and `go`,
    read `move XXXX` and send `force` again; the opponent's moves are sent in
    force mode followed by `ping N` / `pong N` to catch `Illegal move` replies.
    python-chess's popen_xboard cannot be used: it insists on the setboard
    feature, which Fairy-Max lacks.  Polyglot can't help either: it adapts UCI
    engines to xboard, not the other way round.

Prints each game's result and the final W-D-L score from roger's point of view.
"""

import argparse
import math
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

import chess
import chess.pgn

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

OPENINGS = [
    ("Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("Sicilian Najdorf", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("French Classical", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7"),
    ("Caro-Kann", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O"),
    ("Slav", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5"),
    ("King's Indian", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O"),
    ("Nimzo-Indian", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O"),
    ("English Four Knights", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5"),
    ("Italian Giuoco Pianissimo", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6"),
]

RESULT_RE = re.compile(r"^(1-0|0-1|1/2-1/2)\b")


class EngineDied(Exception):
    pass


class Proc:
    """A child process with a reader thread that timestamps every line."""

    def __init__(self, argv, name, log=None):
        self.name = name
        self.log = log
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        self.t = threading.Thread(target=self._reader, daemon=True)
        self.t.start()

    def _reader(self):
        try:
            for line in self.p.stdout:
                self.q.put((time.monotonic(), line.rstrip("\r\n")))
        except Exception:
            pass
        self.q.put((time.monotonic(), None))

    def send(self, line):
        if self.log:
            self.log(f"{self.name} < {line}")
        try:
            self.p.stdin.write(line + "\n")
            self.p.stdin.flush()
            return time.monotonic()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineDied(f"{self.name}: cannot write (process exited?)")

    def readline(self, deadline):
        """Return (timestamp, line), or None on timeout; raises EngineDied on EOF."""
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            # still take anything already queued
            try:
                ts, line = self.q.get_nowait()
            except queue.Empty:
                return None
        else:
            try:
                ts, line = self.q.get(timeout=timeout)
            except queue.Empty:
                return None
        if line is None:
            self.q.put((ts, None))  # keep EOF sticky
            try:
                self.p.wait(timeout=1)
            except Exception:
                pass
            raise EngineDied(f"{self.name}: process exited (code {self.p.poll()})")
        if self.log:
            self.log(f"{self.name} > {line}")
        return ts, line

    def wait_for(self, pred, timeout):
        deadline = time.monotonic() + timeout
        while True:
            r = self.readline(deadline)
            if r is None:
                return None
            if pred(r[1]):
                return r

    def alive(self):
        return self.p.poll() is None

    def kill(self):
        try:
            if self.p.poll() is None:
                self.p.kill()
            self.p.wait(timeout=5)
        except Exception:
            pass


class Engine:
    """What both engine drivers share: waiting for a move, and quitting."""

    def read_reply(self, t0, max_wait, reply):
        """Feeds each line to `reply` until it returns a move (or 'resign').

        Returns (move or None, seconds since t0); None = nothing within max_wait."""
        deadline = t0 + max_wait
        while True:
            r = self.proc.readline(deadline)
            if r is None:
                return None, time.monotonic() - t0
            ts, line = r
            move = reply(line)
            if move is not None:
                return move, ts - t0

    def quit(self):
        try:
            self.proc.send("quit")
            self.proc.p.wait(timeout=3)
        except Exception:
            pass
        self.proc.kill()


class UciEngine(Engine):
    def __init__(self, path, options, log=None):
        self.path = path
        self.options = options
        self.log = log
        self.proc = None
        self.name = os.path.basename(path)
        self.start()

    def start(self):
        self.proc = Proc([self.path], "roger", self.log)
        self.proc.send("uci")
        advertised = set()

        def handshake(line):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            elif line.startswith("option name "):
                m = re.match(r"option name (.*?) type ", line)
                if m:
                    advertised.add(m.group(1).strip().lower())
            return line.strip() == "uciok"

        if self.proc.wait_for(handshake, 30) is None:
            raise EngineDied("roger: no uciok within 30 s")
        for k, v in self.options.items():
            if k.lower() in advertised:
                self.proc.send(f"setoption name {k} value {v}")
        self.isready()

    def isready(self, timeout=30):
        self.proc.send("isready")
        if self.proc.wait_for(lambda l: l.strip() == "readyok", timeout) is None:
            raise EngineDied("roger: no readyok")

    def new_game(self):
        if not self.proc.alive():
            self.proc.kill()
            self.start()
        self.proc.send("ucinewgame")
        self.isready()

    def go(self, moves, wtime, btime, inc, max_wait):
        """Returns (move_str or None, elapsed). None = no bestmove within max_wait."""
        pos = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        self.proc.send(pos)
        ms = lambda s: max(0, int(round(s * 1000)))
        t0 = self.proc.send(f"go wtime {ms(wtime)} btime {ms(btime)} winc {ms(inc)} binc {ms(inc)}")

        def bestmove(line):
            if line.startswith("bestmove"):
                parts = line.split()
                return parts[1] if len(parts) > 1 else "(none)"
            return None

        return self.read_reply(t0, max_wait, bestmove)

    def recover_after_timeout(self):
        """The engine overran: stop it; restart it if it does not answer."""
        try:
            self.proc.send("stop")
            if self.proc.wait_for(lambda l: l.startswith("bestmove"), 2.0) is not None:
                self.isready(5)
                return
        except EngineDied:
            pass
        self.proc.kill()
        self.start()


class FairyMax(Engine):
    def __init__(self, path, base, inc, hash_mb, log=None):
        self.path = path
        self.base = base
        self.inc = inc
        self.hash_mb = hash_mb
        self.log = log
        self.name = "Fairy-Max"
        self.ping_nr = 0
        self.start()

    def start(self):
        self.proc = Proc([self.path], "fmax", self.log)
        self.proc.send("xboard")
        self.proc.send("protover 2")

        def features(line):
            m = re.search(r'myname="([^"]*)"', line)
            if m:
                self.name = m.group(1)
            return "done=1" in line

        if self.proc.wait_for(features, 30) is None:
            raise EngineDied("fairymax: no 'feature done=1' within 30 s")
        self.proc.send("accepted done")
        if self.hash_mb:
            self.proc.send(f"memory {self.hash_mb}")
        self.ping()

    def ping(self, timeout=30):
        """Round trip; returns the list of lines seen before the pong."""
        self.ping_nr += 1
        n = self.ping_nr
        self.proc.send(f"ping {n}")
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            r = self.proc.readline(deadline)
            if r is None:
                raise EngineDied(f"fairymax: no pong {n}")
            if r[1].strip() == f"pong {n}":
                return seen
            seen.append(r[1])

    def level_cmd(self):
        # Fairy-Max parses "level MPS MIN:SEC INC" with an *integer* INC, so a
        # fractional increment is lost here; it still learns its real clock
        # from the "time" command we send before every move.
        secs = int(round(self.base))
        return f"level 0 {secs // 60}:{secs % 60:02d} {int(self.inc)}"

    def new_game(self, moves):
        if not self.proc.alive():
            self.proc.kill()
            self.start()
        self.proc.send("new")
        self.proc.send("force")
        self.proc.send("easy")
        self.proc.send("nopost")
        self.proc.send(self.level_cmd())
        for mv in moves:
            self.proc.send(mv)
        seen = self.ping()
        bad = [l for l in seen if l.startswith("Illegal move") or l.startswith("Error")]
        if bad:
            raise EngineDied(f"fairymax rejected the opening: {bad[0]}")

    def user_move(self, mv):
        """Send the opponent's move (in force mode); returns an error line or None."""
        self.proc.send(mv)
        seen = self.ping()
        for l in seen:
            if l.startswith("Illegal move") or l.startswith("Error"):
                return l
        return None

    def go(self, own_clock, opp_clock, max_wait):
        """Returns (move_str | 'resign' | None, elapsed)."""
        cs = lambda s: max(0, int(s * 100))
        self.proc.send(f"time {cs(own_clock)}")
        self.proc.send(f"otim {cs(opp_clock)}")
        t0 = self.proc.send("go")

        def move(line):
            if line.startswith("move "):
                self.proc.send("force")
                return line.split()[1]
            if line.startswith("resign"):
                self.proc.send("force")
                return "resign"
            return None  # thinking output, '#' debug lines, result claims (ignored)

        return self.read_reply(t0, max_wait, move)

    def recover_after_timeout(self):
        try:
            self.proc.send("force")
            self.ping(3)
        except EngineDied:
            self.proc.kill()
            self.start()


def adjudicate(board):
    """Result by python-chess rules, or None if the game goes on."""
    if board.is_checkmate():
        return ("0-1" if board.turn == chess.WHITE else "1-0"), "checkmate"
    if board.is_stalemate():
        return "1/2-1/2", "stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2", "insufficient material"
    if board.is_repetition(3):
        return "1/2-1/2", "threefold repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2", "50-move rule"
    return None


def parse_tc(s):
    m = re.fullmatch(r"\s*([0-9.]+)\s*(?:\+\s*([0-9.]+))?\s*", s)
    if not m:
        raise argparse.ArgumentTypeError(f"bad time control {s!r}, expected BASE+INC in seconds, e.g. 10+0.1")
    return float(m.group(1)), float(m.group(2) or 0.0)


def play_game(gi, roger, fmax, opening, roger_white, base, inc, margin):
    name, san_moves = opening
    board = chess.Board()
    for san in san_moves.split():
        board.push_san(san)
    opening_uci = [m.uci() for m in board.move_stack]
    roger.new_game()
    fmax.new_game(opening_uci)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    roger_color = chess.WHITE if roger_white else chess.BLACK
    result = reason = None

    def lose(color, why):
        return ("0-1" if color == chess.WHITE else "1-0"), why

    while True:
        adj = adjudicate(board)
        if adj:
            result, reason = adj
            break
        side = board.turn
        who = "roger" if side == roger_color else "fairymax"
        max_wait = clocks[side] + margin + 1.0  # wait a bit past flag fall to read a late move
        try:
            if side == roger_color:
                mv, elapsed = roger.go([m.uci() for m in board.move_stack],
                                       clocks[chess.WHITE], clocks[chess.BLACK], inc, max_wait)
            else:
                mv, elapsed = fmax.go(clocks[side], clocks[not side], max_wait)
        except EngineDied as e:
            result, reason = lose(side, f"{who} crashed ({e})")
            break
        if mv is None:
            (roger if side == roger_color else fmax).recover_after_timeout()
            result, reason = lose(side, f"{who} lost on time (no move after {elapsed:.2f}s)")
            break
        clocks[side] -= elapsed
        if clocks[side] < -margin:
            result, reason = lose(side, f"{who} lost on time ({-clocks[side]:.3f}s over)")
            break
        if mv == "resign":
            result, reason = lose(side, f"{who} resigned")
            break
        try:
            move = chess.Move.from_uci(mv)
        except ValueError:
            move = None
        if move is None or move not in board.legal_moves:
            result, reason = lose(side, f"{who} played illegal move {mv!r} in {board.fen()}")
            break
        clocks[side] += inc
        board.push(move)
        if side == roger_color:
            try:
                err = fmax.user_move(move.uci())
            except EngineDied as e:
                result, reason = lose(not side, f"fairymax crashed ({e})")
                break
            if err:
                result, reason = lose(not side, f"fairymax rejected legal move {move.uci()}: {err}")
                break
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "roger vs Fairy-Max"
    game.headers["Round"] = str(gi + 1)
    game.headers["White"] = roger.name if roger_white else fmax.name
    game.headers["Black"] = fmax.name if roger_white else roger.name
    game.headers["Result"] = result
    game.headers["Opening"] = name
    game.headers["TimeControl"] = f"{base:g}+{inc:g}"
    game.headers["Termination"] = reason
    return result, reason, board, game


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roger", nargs="?", default=os.path.join(REPO, "target", "release", "roger"))
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tc", type=parse_tc, default=(10.0, 0.1), help="BASE+INC seconds (default 10+0.1)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--fairymax", default=shutil.which("fairymax") or "/usr/games/fairymax")
    ap.add_argument("--hash", type=int, default=64, help="hash MB for both engines (default 64)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="extra UCI option for roger (repeatable)")
    ap.add_argument("--timemargin", type=int, default=50,
                    help="ms a side may overstep its clock before forfeiting (default 50)")
    ap.add_argument("--pgn", help="write all games to this PGN file")
    ap.add_argument("--debug", action="store_true", help="log all engine traffic to stderr")
    args = ap.parse_args()

    base, inc = args.tc
    margin = args.timemargin / 1000.0
    for path, what in ((args.roger, "roger"), (args.fairymax, "fairymax")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            print(f"error: {what} binary not found or not executable: {path}", file=sys.stderr)
            return 2
    options = {"Hash": args.hash, "Threads": 1}
    for o in args.option:
        k, _, v = o.partition("=")
        options[k.strip()] = v.strip()

    print_lock = threading.Lock()

    def log(msg):
        with print_lock:
            print(f"[{time.monotonic():.3f}] {msg}", file=sys.stderr, flush=True)

    dbg = log if args.debug else None
    n = args.games
    tasks = queue.Queue()
    for gi in range(n):
        tasks.put(gi)
    results = [None] * n
    score = {"W": 0, "D": 0, "L": 0}
    fatal = []

    def worker(wid):
        try:
            roger = UciEngine(args.roger, options, dbg)
            fmax = FairyMax(args.fairymax, base, inc, args.hash, dbg)
        except EngineDied as e:
            fatal.append(str(e))
            return
        try:
            while True:
                try:
                    gi = tasks.get_nowait()
                except queue.Empty:
                    return
                opening = OPENINGS[(gi // 2) % len(OPENINGS)]
                roger_white = gi % 2 == 0
                try:
                    result, reason, board, game = play_game(gi, roger, fmax, opening, roger_white,
                                                            base, inc, margin)
                except EngineDied as e:  # failure while setting a game up
                    fatal.append(f"game {gi + 1}: {e}")
                    return
                if result == "1/2-1/2":
                    outcome = "D"
                elif (result == "1-0") == roger_white:
                    outcome = "W"
                else:
                    outcome = "L"
                with print_lock:
                    results[gi] = game
                    score[outcome] += 1
                    w_name = roger.name if roger_white else fmax.name
                    b_name = fmax.name if roger_white else roger.name
                    done = sum(score.values())
                    print(f"Game {gi + 1:3d}/{n} [{opening[0]}] {w_name} - {b_name}: {result} "
                          f"({reason}; {len(board.move_stack)} plies)  "
                          f"roger {'+' if outcome == 'W' else '=' if outcome == 'D' else '-'}   "
                          f"score after {done}: +{score['W']} ={score['D']} -{score['L']}",
                          flush=True)
        finally:
            roger.quit()
            fmax.quit()

    print(f"roger: {args.roger}\nfairymax: {args.fairymax}\n"
          f"{n} games, tc {base:g}+{inc:g}, concurrency {args.concurrency}", flush=True)
    t0 = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(max(1, args.concurrency))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    if args.pgn:
        with open(args.pgn, "w") as f:
            for g in results:
                if g is not None:
                    print(g, file=f, end="\n\n")

    played = sum(score.values())
    print(f"\nFinished {played}/{n} games in {time.monotonic() - t0:.0f}s")
    if played:
        pts = score["W"] + 0.5 * score["D"]
        frac = pts / played
        line = f"Score of roger vs Fairy-Max: W-D-L {score['W']}-{score['D']}-{score['L']}  ({pts:g}/{played}, {100 * frac:.1f}%)"
        if 0 < frac < 1:
            line += f"  Elo diff ~ {-400 * math.log10(1 / frac - 1):+.0f}"
        print(line)
    if fatal:
        for f in fatal:
            print(f"FATAL: {f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
