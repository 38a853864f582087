#!/bin/sh
# `make run`: proper's main job on the bundled data. For each web-server
# scenario of Koziolek & Firus 2007 (sequence, alternative, loop) and one
# concurrent scenario, predict the response-time PMF of the server's
# HandleRequest service from the per-step PMFs, branch probabilities and
# loop-count PMFs estimated from the traces in data/webserver/ (the models:
# examples/webserver/*.sre), and compare it with the measured service time T
# (a table like the paper's Tables 1-3). Plots of predicted vs measured PMFs
# (the paper's Figs. 9-11) go to build/run/*.svg. Measured results and their
# discussion: docs/webserver-results.md.
set -e
cd "$(dirname "$0")/.."
out=build/run
mkdir -p "$out"
# Grid width (µs) of the tables: the traces' clock step (10 ns), so every
# measured duration lies on the grid exactly and binning adds no error.
width=0.01
# Grid width (µs) of the plots: coarser, so that the PMFs are readable.
plot_width=0.1

for scenario in sequence alternative loop concurrent; do
    evals="--eval handle --eval handle_joint"
    if [ "$scenario" = loop ]; then evals="$evals --eval handle_markov"; fi
    model=examples/webserver/$scenario.sre
    trace=data/webserver/$scenario.trace
    echo
    bin/proper sre "$model" $evals --measured "$trace" T --width $width --title "$scenario"
    bin/proper sre "$model" $evals --measured "$trace" T --width $plot_width --title "$scenario" \
        --svg "$out/$scenario.svg" > /dev/null
done
cat <<'NOTE'

handle: the paper's model (independent steps); handle_joint: sendHeader and
sendContent taken from their per-request sum (they are correlated in these
traces); handle_markov: the probe loop as a Markovian loop with the same mean
count. Deviations are (predicted - measured) / measured T.
NOTE
echo "plots (predicted vs measured PMFs, width $plot_width us): $out/sequence.svg $out/alternative.svg $out/loop.svg $out/concurrent.svg"
