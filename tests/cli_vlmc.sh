#!/bin/sh
# Command-line tests for `proper vlmc`. Expected values: the runs
#   s h b h b h x (twice), s h x, s h b h x
# have empirical probabilities 1/2, 1/4, 1/4; the alpha = 1 model reproduces
# them, so its log-likelihood is 2 ln(1/2) + 2 ln(1/4) = -4.1588830833596715,
# P(steps = 3, 5, 7) = 1/4, 1/4, 1/2 and the expected steps are 5.5.
. "$(dirname "$0")/cli_lib.sh"

printf 's h b h b h x\n# a comment\ns h x\ns h b h b h x\ns h b h x\n' > "$T/runs.txt"
printf '^ s\ns h\nh b x\nb h\nx $\n' > "$T/loop.cfg"

# --- help ---
if "$PROPER" vlmc --help > "$T/out" 2>&1 && grep -q "proper vlmc fit" "$T/out" && grep -q -- "--alpha" "$T/out"; then
    ok vlmc_help
else fail vlmc_help "no usage text"; fi
if "$PROPER" vlmc fit --help > "$T/out" 2>&1 && grep -q "proper vlmc count" "$T/out"; then ok vlmc_fit_help
else fail vlmc_fit_help "no usage text"; fi

# --- fit: nodes, order, log-likelihood ---
if "$PROPER" vlmc fit "$T/runs.txt" --cfg "$T/loop.cfg" --json > "$T/fit.json" &&
   rel_near "$(json_get "$T/fit.json" loglik)" -4.1588830833596715 1e-12 &&
   [ "$(json_get "$T/fit.json" runs)" = 4 ] && [ "$(json_get "$T/fit.json" distinct_runs)" = 3 ] &&
   [ "$(json_get "$T/fit.json" order)" = 4 ]; then ok vlmc_fit_json
else fail vlmc_fit_json "$(cat "$T/fit.json")"; fi

if "$PROPER" vlmc fit "$T/runs.txt" > "$T/fit.txt" && grep -q "^log-likelihood -4.158883083" "$T/fit.txt" &&
   grep -q "^runs  *4 (3 distinct" "$T/fit.txt"; then ok vlmc_fit_table
else fail vlmc_fit_table "$(cat "$T/fit.txt")"; fi

# the PST as text and as Graphviz
if "$PROPER" vlmc fit "$T/runs.txt" --pst - > "$T/pst.txt" && grep -q "^1	4	-	^	s:1(4)$" "$T/pst.txt" &&
   grep -q "	h	b:0.555556(5) x:0.444444(4)$" "$T/pst.txt"; then ok vlmc_pst_text
else fail vlmc_pst_text "$(cat "$T/pst.txt")"; fi
if "$PROPER" vlmc fit "$T/runs.txt" --dot "$T/pst.dot" > /dev/null && grep -q "^digraph pst" "$T/pst.dot" &&
   grep -q -- "->" "$T/pst.dot"; then ok vlmc_dot
else fail vlmc_dot "$(cat "$T/pst.dot")"; fi

# --- steps to termination ---
if "$PROPER" vlmc steps "$T/runs.txt" --csv > "$T/steps.csv" && grep -q "^3,0.25,0.25" "$T/steps.csv" &&
   grep -q "^5,0.25,0.25" "$T/steps.csv" && grep -q "^7,0.5,0.5" "$T/steps.csv"; then ok vlmc_steps_csv
else fail vlmc_steps_csv "$(cat "$T/steps.csv")"; fi
if "$PROPER" vlmc steps "$T/runs.txt" --json > "$T/steps.json" && rel_near "$(json_get "$T/steps.json" kl)" 0 1 &&
   rel_near "$(json_get "$T/steps.json" loglik_model)" -4.1588830833596715 1e-12; then ok vlmc_steps_json
else fail vlmc_steps_json "$(cat "$T/steps.json")"; fi

# --- the hull as PRISM explicit files, checked by `proper check` ---
if "$PROPER" vlmc fit "$T/runs.txt" --export-explicit "$T/hull" > /dev/null && [ -s "$T/hull.tra" ] &&
   [ -s "$T/hull.lab" ] && [ -s "$T/hull.sta" ] && [ -s "$T/hull.srew" ]; then
    ok vlmc_export_explicit
    if "$PROPER" check --help > /dev/null 2>&1; then
        if "$PROPER" check --explicit "$T/hull.tra" "$T/hull.lab" 'R=? [ F "end" ]' --srew "$T/hull.srew" --json \
               > "$T/chk.json" 2>&1 && rel_near "$(json_get "$T/chk.json" properties.0.value)" 5.5 1e-9; then ok vlmc_export_checked
        else fail vlmc_export_checked "$(cat "$T/chk.json")"; fi
    else echo "SKIP vlmc_export_checked: proper check not available"; fi
else fail vlmc_export_explicit "files missing"; fi

# the flat PRISM-language export gives the same expected steps
if "$PROPER" vlmc fit "$T/runs.txt" --export-prism "$T/hull.pm" --export-drn "$T/hull.drn" > /dev/null &&
   [ -s "$T/hull.drn" ] && grep -q "^dtmc" "$T/hull.pm"; then
    if "$PROPER" check --help > /dev/null 2>&1; then
        if "$PROPER" check "$T/hull.pm" 'R{"steps"}=? [ F "end" ]' --json > "$T/pm.json" 2>&1 &&
           rel_near "$(json_get "$T/pm.json" properties.0.value)" 5.5 1e-9; then ok vlmc_export_prism
        else fail vlmc_export_prism "$(cat "$T/pm.json")"; fi
    else echo "SKIP vlmc_export_prism: proper check not available"; fi
else fail vlmc_export_prism "no PRISM/DRN files"; fi

# --- sampling: each sampled run is one of the trained runs' shapes ---
if "$PROPER" vlmc sample "$T/runs.txt" -n 20 --seed 3 > "$T/sample.txt" && [ "$(wc -l < "$T/sample.txt")" -eq 20 ] &&
   ! grep -qv '^s h\( b h\)* x$' "$T/sample.txt"; then ok vlmc_sample
else fail vlmc_sample "$(cat "$T/sample.txt")"; fi

# --- count per shard, merge, fit: the same model as one pass ---
sed -n '1,2p' "$T/runs.txt" > "$T/shard1.txt"
sed -n '3,5p' "$T/runs.txt" > "$T/shard2.txt"
if "$PROPER" vlmc count "$T/shard1.txt" -o "$T/s1.counts" 2> /dev/null &&
   "$PROPER" vlmc count "$T/shard2.txt" -o "$T/s2.counts" 2> /dev/null &&
   "$PROPER" vlmc merge "$T/s2.counts" "$T/s1.counts" -o "$T/all.counts" 2> /dev/null &&
   "$PROPER" vlmc count "$T/runs.txt" -o "$T/direct.counts" 2> /dev/null &&
   cmp -s "$T/all.counts" "$T/direct.counts" && head -1 "$T/all.counts" | grep -q "^proper-vlmc-counts 1$"; then
    ok vlmc_count_merge
else fail vlmc_count_merge "$(cat "$T/all.counts")"; fi
"$PROPER" vlmc fit "$T/all.counts" --pst "$T/pst_merged.txt" > /dev/null 2>&1
"$PROPER" vlmc fit "$T/runs.txt" --pst "$T/pst_direct.txt" > /dev/null 2>&1
if cmp -s "$T/pst_merged.txt" "$T/pst_direct.txt" && [ -s "$T/pst_direct.txt" ]; then ok vlmc_merged_fit_equal
else fail vlmc_merged_fit_equal "PSTs differ"; fi
expect_error vlmc_merge_needs_counts "not a counts file" "$PROPER" vlmc merge "$T/runs.txt" -o "$T/x.counts"

# --- trace.h input: one run per record ---
printf 'proper-trace 1\nR 1\nV s h b\nV h b h x\nE\nR 2\nV s h x\nE\nR 3\nV s h b h b h x\nE\nR 4\nV s h b h x\nE\n' > "$T/runs.trace"
if "$PROPER" vlmc fit "$T/runs.trace" --json > "$T/tr.json" &&
   rel_near "$(json_get "$T/tr.json" loglik)" -4.1588830833596715 1e-12; then ok vlmc_trace_format
else fail vlmc_trace_format "$(cat "$T/tr.json")"; fi

# --- bad input ---
printf '^ s\ns h\nh b x\nb hh\nx $\n' > "$T/bad1.cfg"
expect_error vlmc_cfg_unknown_location "bad1.cfg:4:3: unknown location 'hh'" "$PROPER" vlmc fit "$T/runs.txt" --cfg "$T/bad1.cfg"
printf '^ s\ns h\nh b\nb h\nx $\n' > "$T/bad2.cfg"
expect_error vlmc_not_a_cfg_edge "runs.txt:1: run 1, position 7: transition 'h' -> 'x'" "$PROPER" vlmc fit "$T/runs.txt" --cfg "$T/bad2.cfg"
if "$PROPER" vlmc fit "$T/runs.txt" --cfg "$T/bad2.cfg" --extend-cfg > /dev/null 2>&1; then ok vlmc_extend_cfg
else fail vlmc_extend_cfg "--extend-cfg did not accept the runs"; fi
printf 's h x\n\ns h x\n' > "$T/empty.txt"
expect_error vlmc_empty_run "empty.txt:2:1: run 2 is empty" "$PROPER" vlmc fit "$T/empty.txt"
expect_error vlmc_alpha_zero "--alpha: expected a number in (0,1], got '0'" "$PROPER" vlmc fit "$T/runs.txt" --alpha 0
expect_error vlmc_alpha_big "--alpha: expected a number in (0,1], got '1.5'" "$PROPER" vlmc fit "$T/runs.txt" --alpha 1.5
expect_error vlmc_alpha_text "--alpha" "$PROPER" vlmc fit "$T/runs.txt" --alpha abc
expect_error vlmc_nmin_zero "--nmin: '0' is out of range; expected a whole number of at least 1" "$PROPER" vlmc fit "$T/runs.txt" --nmin 0
expect_error vlmc_general_cfg "--general does not use a CFG" "$PROPER" vlmc fit "$T/runs.txt" --general --cfg "$T/loop.cfg"
expect_error vlmc_missing_file "cannot open" "$PROPER" vlmc fit "$T/nope.txt"
expect_error vlmc_unknown_sub "unknown subcommand" "$PROPER" vlmc frobnicate "$T/runs.txt"
expect_error vlmc_count_needs_out "-o/--output COUNTS is required" "$PROPER" vlmc count "$T/runs.txt"
# issue 14: an empty input is an error naming it, not a 0-run counts file;
# out-of-range numbers get the one wording
: > "$T/none.txt"
printf '# only a comment\n' > "$T/comment.txt"
expect_error vlmc_count_empty "none.txt:1:1: no runs in $T/none.txt" "$PROPER" vlmc count "$T/none.txt" -o "$T/none.counts"
check vlmc_count_empty_no_file [ ! -e "$T/none.counts" ]
expect_error vlmc_count_comment_only "comment.txt:1:1: no runs in" "$PROPER" vlmc count "$T/runs.txt" "$T/comment.txt" -o "$T/none.counts"
expect_error vlmc_fit_empty "no runs in" "$PROPER" vlmc fit "$T/none.txt"
expect_error vlmc_nmin_huge "--nmin: '99999999999999999999' is too large; expected a whole number of at least 1" \
    "$PROPER" vlmc fit "$T/runs.txt" --nmin 99999999999999999999
expect_error vlmc_max_order_huge "--max-order: '5000000000' is out of range; expected a whole number from 0 to 4294967295" \
    "$PROPER" vlmc fit "$T/runs.txt" --max-order 5000000000
# issue 14: a UTF-8 BOM is accepted by every VLMC reader, merge included
printf '\357\273\277' > "$T/bom.txt"; cat "$T/runs.txt" >> "$T/bom.txt"
expect vlmc_bom_count 0 "$PROPER" vlmc count "$T/bom.txt" -o "$T/bom.counts"
check vlmc_bom_count_same cmp -s "$T/bom.counts" "$T/direct.counts"
printf '\357\273\277' > "$T/bom2.counts"; cat "$T/direct.counts" >> "$T/bom2.counts"
expect vlmc_bom_merge 0 "$PROPER" vlmc merge "$T/bom2.counts" -o "$T/bom3.counts"
check vlmc_bom_merge_same cmp -s "$T/bom3.counts" "$T/direct.counts"

# issue 14: one long run without --max-order: the hull is refused at once
# with advice (it ran for minutes), and --max-order gives an answer
awk 'BEGIN { printf "s"; for (i = 0; i < 70000; i++) printf " h"; print " x" }' > "$T/long.txt"
expect_error vlmc_steps_long_run "limit the context length (--max-order" "$PROPER" vlmc steps "$T/long.txt"
run_proper vlmc steps "$T/long.txt" --max-order 50 --json
status_is vlmc_steps_long_run_max_order 0 && json_valid vlmc_steps_long_run_max_order_json "$T/out"
printf 'proper-vlmc-counts 1\nlocation a\nrun 2 0 3\n' > "$T/bad.counts"
expect_error vlmc_bad_counts "bad.counts:3:9:" "$PROPER" vlmc fit "$T/bad.counts"
expect_error vlmc_unknown_option "proper vlmc: unknown option '--alpah' (see 'proper vlmc --help')" \
    "$PROPER" vlmc fit "$T/runs.txt" --alpah 0.5

# --- flags: -o and --output are one option; JSON is valid whatever the names ---
expect vlmc_count_long_output 0 "$PROPER" vlmc count "$T/runs.txt" --output "$T/long.counts"
check vlmc_count_long_output_same cmp -s "$T/long.counts" "$T/direct.counts"
printf '%s\n' 'a"1 b\2 c' > "$T/odd.txt"
run_proper vlmc fit "$T/odd.txt" --json
status_is vlmc_odd_names_fit 0 && json_valid vlmc_odd_names_fit_json "$T/out" &&
    check vlmc_odd_names_fit_values [ "$(json_get "$T/out" locations) $(json_get "$T/out" runs)" = "3 1" ]
run_proper vlmc steps "$T/odd.txt" --json
status_is vlmc_odd_names_steps 0 && json_valid vlmc_odd_names_steps_json "$T/out" &&
    check vlmc_odd_names_steps_pmf [ "$(json_get "$T/out" pmf.3.1) $(json_get "$T/out" pmf.3.2)" = "1 1" ]
run_proper vlmc sample "$T/odd.txt" -n 1
status_is vlmc_odd_names_sample 0 && check vlmc_odd_names_sample cmp -s "$T/out" "$T/odd.txt"

# issue 14: `vlmc steps --svg` draws the two distributions; '-' puts the
# picture on stdout alone
run_proper vlmc steps "$T/runs.txt" --svg "$T/steps.svg"
status_is vlmc_steps_svg 0 && contains vlmc_steps_svg_runs "$T/steps.svg" "runs (empirical)" &&
    contains vlmc_steps_svg_model "$T/steps.svg" "VLMC (Markov hull)" &&
    contains vlmc_steps_svg_table "$T/out" "KL(E||V)"
if command -v python3 > /dev/null 2>&1; then
    check vlmc_steps_svg_xml python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/steps.svg"
fi
run_proper vlmc steps "$T/runs.txt" --svg -
status_is vlmc_steps_svg_stdout 0 && matches vlmc_steps_svg_stdout_only "$T/out" '^<\?xml' &&
    lacks vlmc_steps_svg_stdout_no_table "$T/out" "# KL(E||V)" &&
    check vlmc_steps_svg_three_lengths [ "$(count_matches "$T/out" '^<circle')" = 3 ]
expect_error vlmc_steps_svg_unwritable "cannot write the SVG" "$PROPER" vlmc steps "$T/runs.txt" --svg "$T/no/such/dir.svg"

# issue 14: the bundled input works as the README shows it: 2000 runs (one
# per non-comment line), and at alpha = 1 the model gives every observed
# run its empirical probability, so the steps PMFs agree (KL 0 to round-off)
run_proper vlmc fit data/vlmc/nested_loop.runs --cfg data/vlmc/nested_loop.cfg --json
status_is vlmc_bundled_fit 0 &&
    check vlmc_bundled_runs [ "$(json_get "$T/out" runs)" = "$(grep -vc '^#' data/vlmc/nested_loop.runs)" ]
run_proper vlmc steps data/vlmc/nested_loop.runs --cfg data/vlmc/nested_loop.cfg --json
status_is vlmc_bundled_steps 0 && check vlmc_bundled_kl near "$(json_get "$T/out" kl)" 0 1e-12

# issue 20: options for R's VLMC users. --single on one sequence gives R's
# tree (R 4.2.2, VLMC 1.4-4: vlmc(y, cutoff.prune = 0.5, threshold.gen = 2)
# for y = a b a a b c a b a b b a c a a b a b c has ord.MC 3 and contexts
# a, b, c, a a, b a, c a, a b, a b a, b a b: 9 besides the root)
printf 'a b a a b c a b a b b a c a a b a b c\n' > "$T/seq.txt"
run_proper vlmc fit "$T/seq.txt" --single --cutoff 0.5 --nmin 2 --json
status_is vlmc_single 0 && check vlmc_single_tree \
    [ "$(json_get "$T/out" mode) $(json_get "$T/out" order) $(json_get "$T/out" nodes) $(json_get "$T/out" cutoff)" = "single 3 10 0.5" ]
expect_text vlmc_single_summary 0 "mode           single, cutoff 0.5, nmin 2" "$PROPER" vlmc fit "$T/seq.txt" --single --cutoff 0.5 --nmin 2
run_proper vlmc fit "$T/seq.txt" --single --cutoff 0.5 --nmin 2 --pst -
status_is vlmc_single_pst 0 && matches vlmc_single_pst_context "$T/out" '^3	3	[0-9.]+	a b a	a:0.333333\(1\) b:0.666667\(2\)$'
expect_error vlmc_single_two_runs "one sequence, but there are 4 runs" "$PROPER" vlmc fit "$T/runs.txt" --single
expect_error vlmc_single_cfg "--single takes no --cfg" "$PROPER" vlmc fit "$T/seq.txt" --single --cfg "$T/loop.cfg"
expect_error vlmc_single_steps "no end" "$PROPER" vlmc steps "$T/seq.txt" --single
expect_error vlmc_cutoff_negative "--cutoff: expected a non-negative number, got '-1'" \
    "$PROPER" vlmc fit "$T/runs.txt" --cutoff -1
expect_error vlmc_cutoff_df_bad "--cutoff-df: expected cfg or alphabet, got 'all'" \
    "$PROPER" vlmc fit "$T/runs.txt" --cutoff-df all
# a cutoff above every Δ (the runs have 4 positions at h: Δ <= 4 ln 4)
# prunes every context longer than one location: order 1
run_proper vlmc fit "$T/runs.txt" --cfg "$T/loop.cfg" --cutoff 1e9 --json
status_is vlmc_cutoff_huge 0 && check vlmc_cutoff_huge_order [ "$(json_get "$T/out" order)" = 1 ]
run_proper vlmc fit "$T/runs.txt" --cfg "$T/loop.cfg" --cutoff-df alphabet --alpha 0.5 --json
status_is vlmc_cutoff_df_alphabet 0 && json_valid vlmc_cutoff_df_alphabet_json "$T/out"
