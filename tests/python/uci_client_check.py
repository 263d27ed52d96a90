#!/usr/bin/env python3
"""UCI conformance check of an engine through python-chess's client.

Usage:
    python3 tests/python/uci_client_check.py [ENGINE_PATH] [--plies N] [--seed S]

ENGINE_PATH defaults to target/release/roger (relative to the repo root).

What it does (any failure -> non-zero exit with a clear message):
  1. opens the engine with chess.engine.SimpleEngine.popen_uci;
  2. configures Hash, Threads and Move Overhead (each only if the engine
     advertises it; a missing one is reported as a warning);
  3. plays a full game of the engine against itself at 5 s + 0.05 s,
     keeping the clocks itself, checking every returned move is legal on
     python-chess's board, until the game is over (or --plies, default 300);
  4. runs analyse() with Limit(depth=8) and Limit(time=0.2) on several varied
     positions, checking the score and PV are sane; on a mate-in-2 position
     the score must be a mate score (mate in 2 for the side to move);
  5. if the engine has a MultiPV option, runs analyse(multipv=3) and checks
     three distinct legal first moves come back.
Prints a summary at the end.
"""

import argparse
import os
import sys
import time
import traceback

import chess
import chess.engine

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# (name, fen, expected mate distance for the side to move or None)
POSITIONS = [
    ("startpos", chess.STARTING_FEN, None),
    # Kiwipete: many captures, castling both sides, pins.
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", None),
    # Quiet middlegame (Italian-ish), black to move.
    ("middlegame-black", "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 4 6", None),
    # Rook endgame with en passant available.
    ("endgame-ep", "r7/5k2/8/3pP3/8/8/4K3/4R3 w - d6 0 1", None),
    # Mate in 2: 1.Qd8+ Bxd8 2.Re8# (verified with Stockfish: Mate(+2)).
    ("mate-in-2", "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 2),
]


class CheckError(Exception):
    pass


def fail(msg):
    raise CheckError(msg)


def check_info(name, board, info, limit_desc, expect_mate=None):
    """Validate one analyse() result; returns a short description."""
    if "score" not in info:
        fail(f"{name} [{limit_desc}]: no score in analysis info: {info!r}")
    score = info["score"]
    if not isinstance(score, chess.engine.PovScore):
        fail(f"{name} [{limit_desc}]: score is not a PovScore: {score!r}")
    pv = info.get("pv")
    if not pv:
        fail(f"{name} [{limit_desc}]: empty or missing pv: {info!r}")
    b = board.copy()
    for mv in pv:
        if mv not in b.legal_moves:
            fail(f"{name} [{limit_desc}]: illegal move {mv.uci()} in pv {[m.uci() for m in pv]}")
        b.push(mv)
    rel = score.relative
    if expect_mate is not None:
        if not rel.is_mate():
            fail(f"{name} [{limit_desc}]: expected a mate score (mate in {expect_mate}), got {rel}")
        if rel.mate() != expect_mate:
            fail(f"{name} [{limit_desc}]: expected mate in {expect_mate} for the side to move, got {rel}")
        # the PV of a mate in N should end in checkmate (2N-1 plies)
        if len(pv) >= 2 * expect_mate - 1:
            b2 = board.copy()
            for mv in pv[: 2 * expect_mate - 1]:
                b2.push(mv)
            if not b2.is_checkmate():
                fail(f"{name} [{limit_desc}]: mate PV does not end in checkmate: {[m.uci() for m in pv]}")
    depth = info.get("depth")
    return f"depth={depth} score={rel} pv={' '.join(m.uci() for m in pv[:6])}"


def play_self_game(engine, max_plies, log):
    board = chess.Board()
    clocks = {chess.WHITE: 5.0, chess.BLACK: 5.0}
    inc = 0.05
    moves_played = 0
    while not board.is_game_over(claim_draw=True) and moves_played < max_plies:
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=inc, black_inc=inc)
        t0 = time.monotonic()
        result = engine.play(board, limit)
        elapsed = time.monotonic() - t0
        mv = result.move
        if mv is None:
            fail(f"ply {moves_played + 1}: engine returned no move (bestmove (none)?) in a position "
                 f"that is not over: {board.fen()}")
        if mv not in board.legal_moves:
            fail(f"ply {moves_played + 1}: illegal move {mv.uci()} in {board.fen()}")
        side = board.turn
        clocks[side] -= elapsed
        if clocks[side] < 0:
            log(f"  warning: {'white' if side else 'black'} overstepped the clock at ply "
                f"{moves_played + 1} ({clocks[side]:.2f}s); continuing (not a protocol error)")
            clocks[side] = 0.0
        clocks[side] += inc
        board.push(mv)
        moves_played += 1
    outcome = board.outcome(claim_draw=True)
    return board, outcome, clocks


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", nargs="?", default=os.path.join(REPO, "target", "release", "roger"))
    ap.add_argument("--plies", type=int, default=300, help="max plies of the self-play game")
    ap.add_argument("--hash", type=int, default=32)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--overhead", type=int, default=30, help="Move Overhead in ms")
    args = ap.parse_args()

    summary = []

    def log(msg):
        print(msg, flush=True)

    if not os.path.exists(args.engine):
        print(f"FAIL: engine binary not found: {args.engine}", file=sys.stderr)
        return 2

    engine = None
    try:
        log(f"engine: {args.engine}")
        engine = chess.engine.SimpleEngine.popen_uci(args.engine, timeout=30)
        log(f"id: name={engine.id.get('name')!r} author={engine.id.get('author')!r}")
        opts = engine.options
        log(f"options advertised: {', '.join(sorted(opts.keys()))}")

        # 1. configure
        want = {"Hash": args.hash, "Threads": args.threads, "Move Overhead": args.overhead}
        to_set = {}
        missing = []
        for k, v in want.items():
            if k in opts:
                to_set[k] = v
            else:
                missing.append(k)
        if missing:
            log(f"  warning: engine does not advertise option(s): {', '.join(missing)}")
        engine.configure(to_set)
        engine.ping()  # isready / readyok round trip
        summary.append(f"configure {to_set}: ok" + (f" (missing: {', '.join(missing)})" if missing else ""))

        # 2. self-play game
        t0 = time.monotonic()
        board, outcome, clocks = play_self_game(engine, args.plies, log)
        dt = time.monotonic() - t0
        if outcome is not None:
            res = f"{outcome.result()} ({outcome.termination.name.lower()})"
        else:
            res = f"stopped after {args.plies} plies (unfinished)"
        log(f"self-play game: {len(board.move_stack)} plies in {dt:.1f}s, result {res}, "
            f"clocks left w={clocks[chess.WHITE]:.2f}s b={clocks[chess.BLACK]:.2f}s")
        log("  moves: " + chess.Board().variation_san(board.move_stack)[:600]
            + (" ..." if len(board.move_stack) > 100 else ""))
        summary.append(f"self-play 5+0.05: {len(board.move_stack)} legal plies, {res}")

        # 3. analysis
        for name, fen, mate in POSITIONS:
            board = chess.Board(fen)
            if not board.is_valid():
                fail(f"internal: test position {name} is invalid: {board.status()!r}")
            for limit, desc in ((chess.engine.Limit(depth=8), "depth=8"),
                                (chess.engine.Limit(time=0.2), "time=0.2")):
                t0 = time.monotonic()
                info = engine.analyse(board, limit)
                dt = time.monotonic() - t0
                d = check_info(name, board, info, desc, expect_mate=mate)
                if desc == "depth=8" and info.get("depth") is not None and info["depth"] < 8 and mate is None:
                    fail(f"{name} [{desc}]: engine stopped at depth {info['depth']} < 8")
                if desc == "time=0.2" and dt > 2.0:
                    fail(f"{name} [{desc}]: took {dt:.2f}s for a 0.2s search")
                log(f"analyse {name:17s} {desc:9s} {dt:5.2f}s  {d}")
            summary.append(f"analyse {name}: ok" + (f" (mate in {mate} found)" if mate else ""))

        # 4. MultiPV
        if "MultiPV" in opts:
            board = chess.Board(POSITIONS[2][1])
            infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
            if not isinstance(infos, list) or len(infos) != 3:
                fail(f"multipv=3: expected 3 info dicts, got {len(infos) if isinstance(infos, list) else infos!r}")
            firsts = []
            for i, info in enumerate(infos, 1):
                d = check_info(f"multipv#{i}", board, info, "depth=8 multipv=3")
                firsts.append(info["pv"][0])
                log(f"multipv {i}: {d}")
            if len(set(firsts)) != 3:
                fail(f"multipv=3: first moves not distinct: {[m.uci() for m in firsts]}")
            summary.append("multipv=3: ok")
        else:
            log("  note: engine has no MultiPV option; multipv check skipped")
            summary.append("multipv: skipped (no MultiPV option)")

        engine.quit()
        engine = None
    except CheckError as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    except chess.engine.EngineTerminatedError as e:
        print(f"FAIL: engine process died: {e}", file=sys.stderr)
        return 1
    except chess.engine.EngineError as e:
        print(f"FAIL: UCI protocol error: {e}", file=sys.stderr)
        return 1
    except (TimeoutError, chess.engine.AnalysisComplete) as e:
        print(f"FAIL: engine timed out / stalled: {e!r}", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - anything else is a failure too
        traceback.print_exc()
        print(f"FAIL: unexpected exception: {e!r}", file=sys.stderr)
        return 1
    finally:
        if engine is not None:
            try:
                engine.close()
            except Exception:
                pass

    print("\nSUMMARY")
    for s in summary:
        print(f"  {s}")
    print("ALL CHECKS PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
