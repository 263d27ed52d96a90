#!/usr/bin/env python3
"""Measures how fast a UCI engine answers `stop` during `go infinite` and `go movetime 1000`.

Usage: python3 bench/uci_latency.py [ENGINE_PATH]  (default target/release/roger)
"""
import subprocess, time, sys
p = subprocess.Popen([sys.argv[1] if len(sys.argv) > 1 else "target/release/roger"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def wait_for(prefix):
    while True:
        line = p.stdout.readline()
        if line.startswith(prefix): return line
send("uci"); wait_for("uciok"); send("isready"); wait_for("readyok")
stops = []
for fen in ["startpos", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]:
    for t in (0.3, 1.0, 2.0):
        send(f"position {fen}"); send("go infinite"); time.sleep(t)
        t0 = time.time(); send("stop"); wait_for("bestmove"); stops.append((time.time() - t0) * 1000)
print("stop latency ms:", ["%.1f" % s for s in stops], "max %.1f" % max(stops))
mts = []
for i in range(3):
    send("position startpos"); t0 = time.time(); send("go movetime 1000"); wait_for("bestmove"); mts.append((time.time() - t0) * 1000)
print("go movetime 1000 answered after ms:", ["%.0f" % m for m in mts])
send("quit")
