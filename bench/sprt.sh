#!/usr/bin/env bash
# SPRT of one build against another with the arena, sized for a 2-core machine.
#
#   bench/sprt.sh NEW OLD [VARIANT]
#
# NEW and OLD are roger binaries (copy the old build aside before rebuilding). Settings come
# from the environment:
#   LIMIT   the engines' limit: nodes=25000 (default; evaluation and most search changes, free
#           of the machine's load) or tc=8+0.08 (time management, speed-sensitive changes)
#   ELO0 ELO1  the hypotheses (default 0 and 10); ALPHA BETA (default 0.05)
#   HASH    each engine's hash table in MiB (default 16; a small one tests the table under load)
#   GAMES   the cap on games (default 4000); CONCURRENCY (default 2)
#   BOOK    an opening file (default: the game's book in bench/books, else 8 random plies)
#   OUT     a file prefix for the PGN and JSON (default /tmp/sprt-VARIANT)
#   NEW_OPTIONS OLD_OPTIONS  more of each engine's arena settings, space-separated: a network
#           file against the built-in one is `NEW_OPTIONS=option.EvalFile=FILE` with NEW and OLD
#           the same build
# The arena prints the running score and stops on H0 or H1; the last lines are the SPRT line
# to quote in the commit message.
set -euo pipefail
cd "$(dirname "$0")/.."
new=${1:?usage: bench/sprt.sh NEW OLD [VARIANT]}
old=${2:?usage: bench/sprt.sh NEW OLD [VARIANT]}
variant=${3:-chess}
limit=${LIMIT:-nodes=25000}
book=${BOOK:-$(ls bench/books/"$variant"-*.epd 2>/dev/null | head -1)}
out=${OUT:-/tmp/sprt-$variant}
if [[ -f $book ]]; then
    openings=(--openings "file=$book" format=epd order=random)
else
    openings=(--random-plies 8)
fi
read -r -a new_options <<<"${NEW_OPTIONS:-}"
read -r -a old_options <<<"${OLD_OPTIONS:-}"
exec "$new" arena --variant "$variant" \
    --engine "cmd=$new" name=new "${new_options[@]}" --engine "cmd=$old" name=old "${old_options[@]}" \
    --each "$limit" "option.Hash=${HASH:-16}" \
    --games "${GAMES:-4000}" --concurrency "${CONCURRENCY:-2}" "${openings[@]}" \
    --seed "${SEED:-$RANDOM}" --maxplies 400 \
    --resign movecount=4 score=800 --draw movenumber=40 movecount=8 score=10 \
    --sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-10}" "alpha=${ALPHA:-0.05}" "beta=${BETA:-0.05}" \
    --pgnout "$out.pgn" --json "$out.json"
