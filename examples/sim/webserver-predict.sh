#!/bin/sh
# Predicts the rows of a table of examples/sim/webserver-validate.sh again
# from the same model (OUTDIR/server.sim, built from the same trace) and
# the same measurements: for a change of the simulator, without measuring
# the server again. Rewrites OUTDIR/table.tsv (the old one kept as
# OUTDIR/table.tsv.old) and its plots. Each row is predicted, as by the
# validation, at the rate its runs were offered (column `offered`).
#
#   sh examples/sim/webserver-predict.sh OUTDIR
# Environment: PROPER (bin/proper), HORIZON (30), REPLICATIONS (5), NICE (-20).
set -eu
cd "$(dirname "$0")/../.."
out=${1:?usage: webserver-predict.sh OUTDIR}
P=${PROPER:-bin/proper}
HORIZON=${HORIZON:-30}
REPLICATIONS=${REPLICATIONS:-5}
NICE=${NICE:--20}
model=""
if [ "$NICE" != 0 ] && nice -n "$NICE" true 2>/dev/null && [ "$(nice -n "$NICE" nice)" = "$NICE" ]; then model="nice -n $NICE"; fi
cp "$out/table.tsv" "$out/table.tsv.old"
head -1 "$out/table.tsv.old" > "$out/table.tsv"
tail -n +2 "$out/table.tsv.old" | while IFS='	' read -r w c r before after mt mr mp failed offered pt pr pp; do
    pred=$($model "$P" sim run "$out/server.sim" --workers "$w" --cores "$c" --rate "$offered" --horizon "$HORIZON" \
        --replications "$REPLICATIONS" --json |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.6g\t%.6g\t%.6g" % (d["throughput"]["estimate"], d["response_mean"]["estimate"], d["response_quantile"]["estimate"]))')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$c" "$r" "$before" "$after" "$mt" "$mr" "$mp" "$failed" "$offered" "$pred" |
        tee -a "$out/table.tsv"
done
sh examples/sim/webserver-plot.sh "$out/table.tsv" "$out"
