#!/bin/sh
# Plots a table of examples/sim/webserver-validate.sh like the paper's
# Fig. 6-7: for each core count, throughput and mean response time against
# the number of workers, one colour per request rate, measured (solid, dots)
# against predicted (dashed). Response times on a log scale (a loaded
# machine spreads them over four decades). Writes OUTDIR/throughput-cC.svg
# and OUTDIR/response-cC.svg.
#
#   sh examples/sim/webserver-plot.sh TABLE.tsv OUTDIR
set -eu
table=${1:?usage: webserver-plot.sh TABLE.tsv OUTDIR}
out=${2:?usage: webserver-plot.sh TABLE.tsv OUTDIR}
mkdir -p "$out"
for c in $(awk -F'\t' 'NR > 1 { print $2 }' "$table" | sort -nu); do
    for what in throughput response; do
        awk -F'\t' -v cores="$c" -v what="$what" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["cores"] == cores {
            w = $col["workers"]; r = $col["rate"]
            if (!(w in wi)) { ws[++nw] = w; wi[w] = nw }
            if (!(r in ri)) { rs[++nr] = r; ri[r] = nr }
            m = what == "throughput" ? $col["measured_tput"] : $col["measured_resp"]
            p = what == "throughput" ? $col["predicted_tput"] : $col["predicted_resp"]
            meas[w, r] = m; pred[w, r] = p
            if (n++ == 0 || m < lo) lo = m; if (p < lo) lo = p
            if (m > hi) hi = m; if (p > hi) hi = p
        }
        # y of a value: linear from 0 for throughput, log10 for response time
        function y(v) {
            if (what == "throughput") return top + ph * (1 - v / ymax)
            return top + ph * (1 - (log(v) / log(10) - e0) / (e1 - e0))
        }
        function x(k) { return left + (nw > 1 ? (k - 1) * pw / (nw - 1) : pw / 2) }
        END {
            W = 640; H = 400; left = 70; top = 40; pw = 480; ph = 300
            split("#1f77b4 #d62728 #2ca02c #9467bd #ff7f0e", colour, " ")
            if (what == "throughput") { ymax = hi * 1.1 }
            else { e0 = int(log(lo) / log(10) + 100) - 100; e1 = int(log(hi) / log(10) + 100) - 99 }
            printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H
            printf "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H
            printf "<text x=\"%d\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">%s, %d core%s: measured (solid) and predicted (dashed)</text>\n", W / 2,
                what == "throughput" ? "Throughput (requests/s)" : "Mean response time (s, log scale)", cores, cores == 1 ? "" : "s"
            printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, top + ph, left + pw, top + ph
            printf "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, top, left, top + ph
            for (k = 1; k <= nw; k++)
                printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x(k), top + ph + 18, ws[k]
            printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">workers</text>\n", left + pw / 2, top + ph + 36
            if (what == "throughput")
                for (t = 0; t <= 4; t++) {
                    v = ymax * t / 4
                    printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n", left - 6, y(v) + 4, v
                    printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y(v), left + pw, y(v)
                }
            else
                for (e = e0; e <= e1; e++) {
                    v = exp(e * log(10))
                    printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n", left - 6, y(v) + 4, e
                    printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y(v), left + pw, y(v)
                }
            for (j = 1; j <= nr; j++) {
                r = rs[j]; hue = colour[(j - 1) % 5 + 1]
                mp = ""; pp = ""
                for (k = 1; k <= nw; k++) {
                    w = ws[k]
                    if ((w, r) in meas) {
                        mp = mp sprintf("%.1f,%.1f ", x(k), y(meas[w, r]))
                        pp = pp sprintf("%.1f,%.1f ", x(k), y(pred[w, r]))
                        printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", x(k), y(meas[w, r]), hue
                    }
                }
                printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", mp, hue
                printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"6,4\"/>\n", pp, hue
                printf "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s/s</text>\n", left + pw + 16, top + 14 * j, hue, r
            }
            print "</svg>"
        }' "$table" > "$out/$what-c$c.svg"
    done
done
