#!/usr/bin/env bash
# Side-by-side perft timing: Stockfish vs roger, both driven over UCI stdin.
#
# Usage: bench/compare_perft.sh [ROGER_BIN] [STOCKFISH_BIN]
#   ROGER_BIN      default: target/release/roger (relative to the repo root)
#   STOCKFISH_BIN  default: stockfish on $PATH, else /usr/games/stockfish
# Environment:
#   DEPTH=6        perft depth (start position)
#   REPS=3         repetitions per engine (alternating SF, roger, SF, roger, ...)
#   PERFT_TIMEOUT=600  seconds allowed for one perft run
#
# Each repetition starts a fresh engine process, does the uci/isready
# handshake, then times (wall clock, `date +%s.%N`) from sending
# `go perft N` until the engine prints a line containing "Nodes searched".
# Process start-up (e.g. NNUE loading) is therefore not included.
# Exits non-zero if an engine fails to answer or a node count is wrong.
set -u

cd "$(dirname "$0")/.." || exit 2

ROGER=${1:-target/release/roger}
if [ $# -ge 2 ]; then
    SF=$2
elif command -v stockfish >/dev/null 2>&1; then
    SF=$(command -v stockfish)
else
    SF=/usr/games/stockfish
fi
DEPTH=${DEPTH:-6}
REPS=${REPS:-3}
PERFT_TIMEOUT=${PERFT_TIMEOUT:-600}
HANDSHAKE_TIMEOUT=${HANDSHAKE_TIMEOUT:-30}

# Known start-position perft counts.
EXPECTED=(1 20 400 8902 197281 4865609 119060324 3195901860)
EXP=${EXPECTED[$DEPTH]:-}

for b in "$SF" "$ROGER"; do
    if [ ! -x "$b" ] && ! command -v "$b" >/dev/null 2>&1; then
        echo "error: engine binary '$b' not found or not executable" >&2
        exit 2
    fi
done

now() { date +%s.%N; }

# send FD LINE: write one command, ignoring a closed pipe (engine exited)
send() { printf '%s\n' "$2" >&"$1"; } 2>/dev/null

# wait_for FD PATTERN TIMEOUT_S -> prints the matching line; returns 1 on timeout/EOF
wait_for() {
    local fd=$1 pat=$2 limit=$3 line deadline=$((SECONDS + $3))
    while [ $SECONDS -le $deadline ]; do
        if IFS= read -r -t "$limit" line <&"$fd"; then
            case "$line" in
                *"$pat"*) printf '%s\n' "$line"; return 0 ;;
            esac
        else
            # read returns >128 on timeout, 1 on EOF
            return 1
        fi
    done
    return 1
}

# run_perft BIN -> sets RUN_TIME and RUN_NODES; returns non-zero on failure
run_perft() {
    local bin=$1 in out pid line t0 t1
    RUN_TIME=""; RUN_NODES=""
    coproc ENG { exec "$bin" 2>/dev/null; }
    pid=$ENG_PID
    exec {out}<&"${ENG[0]}" {in}>&"${ENG[1]}"
    local ok=0
    {
        send "$in" "uci"
        wait_for "$out" "uciok" "$HANDSHAKE_TIMEOUT" >/dev/null || { echo "  [$bin] no uciok" >&2; ok=1; }
        if [ $ok -eq 0 ]; then
            send "$in" "isready"
            wait_for "$out" "readyok" "$HANDSHAKE_TIMEOUT" >/dev/null || { echo "  [$bin] no readyok" >&2; ok=1; }
        fi
        if [ $ok -eq 0 ]; then
            send "$in" "position startpos"
            t0=$(now)
            send "$in" "go perft $DEPTH"
            if line=$(wait_for "$out" "Nodes searched" "$PERFT_TIMEOUT"); then
                t1=$(now)
                RUN_TIME=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
                RUN_NODES=$(printf '%s\n' "$line" | grep -oE '[0-9]+' | tail -1)
            else
                echo "  [$bin] no 'Nodes searched' line within ${PERFT_TIMEOUT}s" >&2
                ok=1
            fi
        fi
        send "$in" "quit"
    }
    exec {in}>&- {out}<&-
    # give it a moment to quit, then make sure it is gone
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return $ok
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END{ if (NR%2) printf "%.3f", a[(NR+1)/2]; else printf "%.3f", (a[NR/2]+a[NR/2+1])/2 }'; }

echo "perft $DEPTH from the start position, $REPS alternating repetitions"
echo "  stockfish: $SF"
echo "  roger:     $ROGER"
echo "  (time = wall clock from 'go perft' to 'Nodes searched', start-up excluded)"
SF_TIMES=(); RG_TIMES=(); status=0
for ((i = 1; i <= REPS; i++)); do
    for who in stockfish roger; do
        if [ $who = stockfish ]; then bin=$SF; else bin=$ROGER; fi
        if run_perft "$bin"; then
            flag=""
            if [ -n "$EXP" ] && [ "$RUN_NODES" != "$EXP" ]; then
                flag="  <-- WRONG node count (expected $EXP)"; status=1
            fi
            printf '  rep %d  %-9s %8ss  nodes %s%s\n' "$i" "$who" "$RUN_TIME" "$RUN_NODES" "$flag"
            if [ $who = stockfish ]; then SF_TIMES+=("$RUN_TIME"); else RG_TIMES+=("$RUN_TIME"); fi
        else
            printf '  rep %d  %-9s FAILED\n' "$i" "$who"; status=1
        fi
    done
done

if [ ${#SF_TIMES[@]} -gt 0 ]; then SF_MED=$(median "${SF_TIMES[@]}"); else SF_MED=""; fi
if [ ${#RG_TIMES[@]} -gt 0 ]; then RG_MED=$(median "${RG_TIMES[@]}"); else RG_MED=""; fi
echo "median stockfish: ${SF_MED:-n/a}${SF_MED:+ s}"
echo "median roger:     ${RG_MED:-n/a}${RG_MED:+ s}"
if [ -n "$SF_MED" ] && [ -n "$RG_MED" ]; then
    awk -v r="$RG_MED" -v s="$SF_MED" 'BEGIN{ if (s > 0) printf "ratio roger/stockfish: %.2f\n", r/s; else print "ratio roger/stockfish: n/a" }'
else
    echo "ratio roger/stockfish: n/a"
fi
[ $status -eq 0 ] && echo "OK" || echo "FAILED (see above)"
exit $status
