#!/bin/sh
# Koziolek & Firus 2007 (ENTCS 176, "Parametric Performance Contracts"),
# section 3: the web-server experiment, published vs proper. Prints, as
# Markdown on stdout:
#   - the paper's Tables 1-3 (scenarios sequence, alternative, loop: mean,
#     standard deviation and most probable value "Max Y" of the measured and
#     the calculated response time) with the paper's own figures beside
#     proper's, for two servers: the slow-disk server (a ~2 ms service, the
#     paper's range; traces data/webserver/ms/) at the paper's width 10 us,
#     and the bundled fast server (a ~17 us service; data/webserver/) at its
#     clock step 0.01 us;
#   - the sampling-rate study of section 3.4.2 (scenario 1 at widths 1, 5,
#     10, 50 us: precision and computation time) and the per-scenario times
#     of section 3.4.3, on the slow-disk server, like for like.
# docs/webserver-results.md quotes this output.
#
#   sh scripts/webserver-tables.sh [--quick] [--record]
#
#   --record  record the slow-disk traces afresh on this machine (server
#             --read-size 10, REQUESTS per scenario, default 1000; about 15 s)
#             into a temporary copy and use those instead of the bundled ones
#   --quick   time each evaluation once and skip the naive baseline (a CI-
#             sized check: about 10 s after the build; the full run about 60 s)
#
# Builds what it needs (bin/proper, build/bench/bench_sre) with make.
set -eu
cd "$(dirname "$0")/.."
quick=0
record=0
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --record) record=1 ;;
    *) echo "usage: sh scripts/webserver-tables.sh [--quick] [--record]" >&2; exit 2 ;;
    esac
done
make -s bin/proper build/bench/bench_sre >&2

work=$(mktemp -d "${TMPDIR:-/tmp}/proper-webserver-tables.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

# The slow-disk traces and their models, under $root (same layout as here).
root=.
traces_said="bundled traces data/webserver/ms/ (how they were recorded: data/webserver/ms/README.md)"
if [ $record = 1 ]; then
    root=$work/root
    mkdir -p "$root/examples/webserver/ms" "$root/data/webserver/ms"
    cp examples/webserver/ms/*.sre "$root/examples/webserver/ms/"
    SERVER_ARGS="--read-size 10 --probe scan" DOCROOT_FILLER=4000 REQUESTS=${REQUESTS:-1000} SCENARIOS="sequence alternative loop" \
        sh examples/webserver/record.sh "$root/data/webserver/ms" >&2
    traces_said="traces recorded by this run (server --read-size 10 --probe scan, 4000 filler files, ${REQUESTS:-1000} requests per scenario)"
fi

# The paper's published figures, transcribed from Koziolek & Firus 2007,
# Tables 1, 2 and 3 (us; deviations in percent, as printed there):
# scenario  mean_meas std_meas maxy_meas  mean_calc std_calc maxy_calc  dev_mean dev_std dev_maxy
published() {
    case $1 in
    sequence) echo "2124.78 1387.57 1650 2115.15 1253.44 1670 0.45 9.67 1.20" ;;
    alternative) echo "2215.38 1681.25 1650 2206.66 1508.89 1690 0.39 10.25 2.37" ;;
    loop) echo "8160.87 2726.85 6650 8031.65 2918.98 6850 1.58 7.05 2.92" ;;
    esac
}

# sre_json MODEL TRACE WIDTH DEF...: proper's JSON flattened to lines
# "measured KEY VALUE" and "DEF KEY VALUE" (chi-square fields as chi2_KEY).
sre_json() {
    model=$1 trace=$2 width=$3
    shift 3
    evals=
    for d in "$@"; do evals="$evals --eval $d"; done
    # shellcheck disable=SC2086
    bin/proper sre "$model" $evals --measured "$trace" T --width "$width" --json 2>/dev/null |
        tr '{}[],' '\n\n\n\n\n' | awk '
        /"measured":/ { ctx = "measured"; next }
        /"predictions":/ { ctx = "" ; next }
        /"chi2":/ { sub_ = "chi2_"; next }
        /"name":/ { gsub(/.*"name": *"|"/, ""); ctx = $0; sub_ = ""; next }
        ctx != "" && /^ *"[a-z_0-9]+": / {
            key = $0; sub(/^ *"/, "", key); sub(/".*/, "", key)
            val = $0; sub(/^[^:]*: */, "", val); gsub(/"/, "", val)
            print ctx, sub_ key, val
        }'
}

# get FILE CTX KEY: one value of a flattened result
get() { awk -v c="$2" -v k="$3" '$1 == c && $2 == k { print $3; exit }' "$1"; }

# fmt X DIGITS: fixed-point, or "n/a"
fmt() { awk -v x="$1" -v d="$2" 'BEGIN { if (x == "" || x == "null") print "n/a"; else printf "%.*f\n", d, x }'; }

# chi2 FILE DEF: the chi-square test at 0.05 in words, with its statistic
# and degrees of freedom
chi2() {
    p=$(get "$1" "$2" chi2_p_value)
    awk -v p="$p" -v x="$(get "$1" "$2" chi2_statistic)" -v df="$(get "$1" "$2" chi2_df)" 'BEGIN {
        if (p == "") { print "n/a"; exit }
        stat = sprintf("X² = %.0f, df %d", x, df)
        if (p + 0 < 1e-300) printf "rejected (%s, p < 1e-300)\n", stat
        else if (p + 0 < 0.05) printf "rejected (%s, p = %.2g)\n", stat, p
        else printf "not rejected (%s, p = %.2g)\n", stat, p }'
}

# rows LABEL FILE DEFS...: measurement, then calculation and deviation per def
rows() {
    label=$1 f=$2
    shift 2
    echo "| $label — Measurement | $(fmt "$(get "$f" measured mean)" 2) | $(fmt "$(get "$f" measured std)" 2) | $(fmt "$(get "$f" measured mode)" 2) | | |"
    for d in "$@"; do
        echo "| $label — Calculation (\`$d\`) | $(fmt "$(get "$f" "$d" mean)" 2) | $(fmt "$(get "$f" "$d" std)" 2) | $(fmt "$(get "$f" "$d" mode)" 2) | $(fmt "$(get "$f" "$d" ks)" 4) | $(chi2 "$f" "$d") |"
        echo "| $label — Deviation (%) (\`$d\`) | $(fmt "$(get "$f" "$d" dev_mean_pct)" 2) | $(fmt "$(get "$f" "$d" dev_std_pct)" 2) | $(fmt "$(get "$f" "$d" dev_mode_pct)" 2) | | |"
    done
}

table() {
    n=$1 scenario=$2 title=$3
    set -- $(published "$scenario")
    defs="handle"
    if [ "$scenario" = loop ]; then defs="handle handle_markov"; fi
    sre_json "$root/examples/webserver/ms/$scenario.sre" "$root/data/webserver/ms/$scenario.trace" 10 $defs > "$work/ms.$scenario"
    sre_json "examples/webserver/$scenario.sre" "data/webserver/$scenario.trace" 0.01 $defs handle_joint > "$work/fast.$scenario"
    echo
    echo "### Table $n — Scenario $n ($title): descriptive statistics"
    echo
    echo "| source — row | Mean (us) | Std. Dev. (us) | Max Y (us) | KS distance | chi-square test at 0.05 |"
    echo "|---|---:|---:|---:|---:|---|"
    echo "| published (Table $n) — Measurement | $1 | $2 | $3 | | |"
    echo "| published (Table $n) — Calculation | $4 | $5 | $6 | not given | rejected (p not given) |"
    echo "| published (Table $n) — Deviation (%) | $7 | $8 | $9 | | |"
    rows "proper, slow-disk server, width 10 us" "$work/ms.$scenario" $defs
    rows "proper, fast server, width 0.01 us" "$work/fast.$scenario" $defs handle_joint
}

# sampling: the bench on the slow-disk traces (columns: width scenario bins
# proper(ms) naive(ms) naive/proper paper(s) paper/proper |dmean|), then the tables
sampling() {
    bench_args="--variant ms --root $root"
    if [ $quick = 1 ]; then bench_args="$bench_args --quick"; fi
    # shellcheck disable=SC2086
    nice build/bench/bench_sre $bench_args > "$work/bench"
    echo
    echo "### Section 3.4.2 — sampling rate (scenario 1, slow-disk server)"
    echo
    echo "| width (us) | bins | mean dev. (%) | std dev. (%) | Max Y dev. (%) | KS distance | chi-square at 0.05 | proper (ms) | naive (ms) | paper (s) | paper / proper |"
    echo "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
    for w in 1 5 10 50; do
        sre_json "$root/examples/webserver/ms/sequence.sre" "$root/data/webserver/ms/sequence.trace" "$w" handle > "$work/w$w"
        awk -v w="$w" -v dm="$(fmt "$(get "$work/w$w" handle dev_mean_pct)" 2)" \
            -v ds="$(fmt "$(get "$work/w$w" handle dev_std_pct)" 2)" -v dy="$(fmt "$(get "$work/w$w" handle dev_mode_pct)" 2)" \
            -v ks="$(fmt "$(get "$work/w$w" handle ks)" 4)" -v c2="$(chi2 "$work/w$w" handle)" '
            $1 == w && $2 == "sequence" {
                printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w, $3, dm, ds, dy, ks, c2, $4, $5, $7, $8
            }' "$work/bench"
    done
    echo
    echo "### Section 3.4.3 — computation time per scenario at width 10 us (slow-disk server)"
    echo
    echo "| scenario | bins | proper (ms) | naive (ms) | paper (s) | paper / proper |"
    echo "|---|---:|---:|---:|---:|---:|"
    awk '$1 == "10" && ($2 == "sequence" || $2 == "alternative" || $2 == "loop") {
        printf "| %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $7, $8 }' "$work/bench"
    echo
    echo "Full bench output (build/bench/bench_sre $bench_args):"
    echo
    echo '```'
    cat "$work/bench"
    echo '```'
}

# correlations: per-request Pearson r of the fast server's step times (a
# step seen several times in one request counts with its sum): sendHeader
# with sendContent, and the two largest |r| among the other pairs.
correlations() {
    echo
    echo "### Fast server: correlation of the steps within a request"
    echo
    echo "Pearson r over the requests of data/webserver/SCENARIO.trace (a step repeated in a request counts"
    echo "with its sum; pairs over the requests that have both steps)."
    echo
    echo "| scenario | requests | sendHeader–sendContent | largest other pair | second largest |"
    echo "|---|---:|---:|---|---|"
    for s in sequence alternative loop; do
        awk -v scen="$s" '
        /^R / { delete t; next }
        /^S / { t[$2] += $3; next }
        /^E/ {
            reqs++
            for (a in t) for (b in t) if (a < b) {
                k = a SUBSEP b
                n[k]++; sx[k] += t[a]; sy[k] += t[b]; sxx[k] += t[a] * t[a]; syy[k] += t[b] * t[b]; sxy[k] += t[a] * t[b]
            }
        }
        END {
            m1 = m2 = -1
            for (k in n) {
                vx = sxx[k] - sx[k] * sx[k] / n[k]; vy = syy[k] - sy[k] * sy[k] / n[k]
                if (n[k] < 30 || vx <= 0 || vy <= 0) continue
                r = (sxy[k] - sx[k] * sy[k] / n[k]) / sqrt(vx * vy)
                split(k, ab, SUBSEP)
                name = ab[1] "–" ab[2] " " sprintf("%.2f", r) " (" n[k] " requests)"
                if (ab[1] == "sendContent" && ab[2] == "sendHeader") { joint = r; continue }
                a = r < 0 ? -r : r
                if (a > m1) { m2 = m1; n2 = n1; m1 = a; n1 = name } else if (a > m2) { m2 = a; n2 = name }
            }
            printf "| %s | %d | %.2f | %s | %s |\n", scen, reqs, joint, n1, n2
        }' "data/webserver/$s.trace"
    done
}

echo "## Published vs proper (scripts/webserver-tables.sh$( [ $# -gt 0 ] && printf ' %s' "$@"))"
echo
echo "Slow-disk server: $traces_said. Fast server: bundled traces data/webserver/."
echo "Run on $(uname -srm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') core(s), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)."
echo "Deviations: proper's are signed, (calculated - measured) / measured; the paper prints magnitudes."
table 1 sequence Sequence
table 2 alternative Alternative
table 3 loop Loop
sampling
correlations
