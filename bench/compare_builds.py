#!/usr/bin/env python3
"""Two builds of roger side by side in one run: `bench` (node signature and nps) and perft of
every game, the runs alternating (old, new, old, new, ...) so that the machine's noise falls on
both alike. Prints each run, then the medians and the new/old ratios.

Usage: python3 bench/compare_builds.py OLD_BINARY NEW_BINARY [--reps 3]
A previous commit's binary: `git worktree add /tmp/old <commit> && cargo build --release
--manifest-path /tmp/old/Cargo.toml`, then /tmp/old/target/release/roger.
"""
import argparse
import re
import statistics
import subprocess
import time

PERFTS = [
    ("chess perft 6", ["perft", "--depth", "6"]),
    ("millennium perft 5", ["perft", "--variant", "millennium", "--depth", "5"]),
    ("nichess perft 6", ["perft", "--variant", "nichess", "--depth", "6"]),
]


def run(binary, args):
    start = time.perf_counter()
    out = subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def bench(binary):
    _, out = run(binary, ["bench"])
    nodes, nps = re.search(r"^(\d+) nodes (\d+) nps$", out, re.M).groups()
    per_game = dict(re.findall(r"^(\w+): (\d+) nodes(?: \(\d+ nps\))?$", out, re.M))
    return int(nodes), int(nps), per_game


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    builds = {"old": args.old, "new": args.new}
    nps = {"old": [], "new": []}
    perft = {(label, which): [] for label, _ in PERFTS for which in builds}
    signatures = {}
    for rep in range(args.reps):
        for which, binary in builds.items():
            nodes, speed, per_game = bench(binary)
            signatures.setdefault(which, (nodes, per_game))
            nps[which].append(speed)
            print(f"rep {rep + 1} {which}: bench {nodes} nodes {speed} nps {per_game}")
        for label, perft_args in PERFTS:
            counts = {}
            for which, binary in builds.items():
                seconds, out = run(binary, perft_args)
                counts[which] = re.search(r"Nodes searched: (\d+)", out).group(1)
                perft[(label, which)].append(seconds)
                print(f"rep {rep + 1} {which}: {label} {counts[which]} nodes in {seconds:.3f} s")
            if counts["old"] != counts["new"]:
                raise SystemExit(f"{label}: the builds count differently: {counts}")
    print()
    same = signatures["old"] == signatures["new"]
    print(f"bench signature: old {signatures['old'][0]}, new {signatures['new'][0]}"
          f" ({'the same' if same else 'DIFFERENT'}, per game too)" if same else
          f"bench signature DIFFERS: old {signatures['old']}, new {signatures['new']}")
    old, new = statistics.median(nps["old"]), statistics.median(nps["new"])
    print(f"bench nps median: old {old:.0f}, new {new:.0f}, new/old {new / old:.3f}")
    for label, _ in PERFTS:
        old = statistics.median(perft[(label, "old")])
        new = statistics.median(perft[(label, "new")])
        print(f"{label} median: old {old:.3f} s, new {new:.3f} s, time new/old {new / old:.3f}")


main()
