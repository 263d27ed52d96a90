#!/usr/bin/env python3
"""Measures how fast a UCI engine answers `stop` during `go infinite`, and `go movetime`.

Usage: python3 bench/uci_latency.py [ENGINE_PATH] [--threads N ...] [--movetime MS]
(default engine target/release/roger, threads 1, movetime 1000). With several --threads values
each is measured in turn, so one run shows how the latencies grow with the thread count.
"""
import argparse
import subprocess
import time

parser = argparse.ArgumentParser()
parser.add_argument("engine", nargs="?", default="target/release/roger")
parser.add_argument("--threads", type=int, nargs="+", default=[1])
parser.add_argument("--movetime", type=int, default=1000)
args = parser.parse_args()

p = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(s):
    p.stdin.write(s + "\n")
    p.stdin.flush()


def wait_for(prefix):
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit(f"the engine closed its output while we waited for {prefix!r}")
        if line.startswith(prefix):
            return line


send("uci")
wait_for("uciok")
for threads in args.threads:
    send(f"setoption name Threads value {threads}")
    send("isready")
    wait_for("readyok")
    stops = []
    for fen in ["startpos", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]:
        for t in (0.3, 1.0, 2.0):
            send(f"position {fen}")
            send("go infinite")
            time.sleep(t)
            t0 = time.time()
            send("stop")
            wait_for("bestmove")
            stops.append((time.time() - t0) * 1000)
            send("isready")
            wait_for("readyok")
    mts = []
    for _ in range(3):
        send("position startpos")
        t0 = time.time()
        send(f"go movetime {args.movetime}")
        wait_for("bestmove")
        mts.append((time.time() - t0) * 1000)
        send("isready")
        wait_for("readyok")
    print(f"Threads {threads}: stop latency ms:", ["%.1f" % s for s in stops], "max %.1f" % max(stops))
    print(f"Threads {threads}: go movetime {args.movetime} answered after ms:", ["%.0f" % m for m in mts],
          "max %.0f" % max(mts))
send("quit")
