#!/bin/sh
# Runs proper on the DTMCs and CTMCs of the PRISM Benchmark Suite
# (Kwiatkowska, Norman, Parker, QEST 2012; github.com/prismmodelchecker/
# prism-benchmarks, CC-BY 4.0): models nobody in this project wrote.
#
#   sh scripts/prism-benchmarks.sh BENCH_TREE [--max-states N] [--prism PRISM_BINARY]
#          [--prism-max-states M] [--timeout S] [--models F1,F2,...]
#
# BENCH_TREE is a checkout of the suite. Every instance that
# models/{dtmcs,ctmcs}/models.csv lists with at most N states (default 10^6)
# is checked with `proper check MODEL PROPS --const ... --json`, where PROPS
# is every property file (.pctl, .csl, .props) of the model's directory put
# into one temporary file (a `const` declaration the files share, such as
# `const double T;`, kept once). Properties whose time bound T the suite does
# not fix get the value of time_bound() below. When the run fails, each
# property file is checked on its own to say which property proper refuses
# (a clear error, exit status 2) and which fails (a crash, any other exit
# status, or no answer within S seconds, default 300). Where the property
# files carry the suite's own reference values ("// RESULT (N=16,MAX=2): v"
# comments: brp, crowds, egl, nand, leader_sync), `proper check --test`
# compares proper's values with them (relative tolerance 1e-5).
# --models restricts the run to the instances of those model files (brp.pm).
# With --prism, instances of at most M states (default 10^5) are also run
# through `proper crosscheck --backend prism`: DTMCs at crosscheck's default
# precision, CTMCs at --precision 1e-8 with -maxiters 100000 (PRISM's
# Fox-Glynn computation overflows at smaller -epsilon).
#
# Prints a Markdown table, one row per instance, then the reproducing command
# of every refusal, failure, slow run (over 60 s) and disagreement.
# docs/prism-benchmarks.md quotes this output. Nothing of the suite is
# copied into the project. Needs python3 and /usr/bin/time (GNU).
set -eu
cd "$(dirname "$0")/.."
usage="usage: sh scripts/prism-benchmarks.sh BENCH_TREE [--max-states N] [--prism PRISM_BINARY] [--prism-max-states M] [--timeout S] [--models F1,F2,...]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
tree=$1
shift
max_states=1000000
prism=
prism_max_states=100000
timeout=300
models=
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
    case $1 in
        --max-states) max_states=$2 ;;
        --prism) prism=$2 ;;
        --prism-max-states) prism_max_states=$2 ;;
        --timeout) timeout=$2 ;;
        --models) models=$2 ;;
        *) echo "$usage" >&2; exit 2 ;;
    esac
    shift 2
done
[ -f "$tree/models/dtmcs/models.csv" ] || { echo "prism-benchmarks: $tree has no models/dtmcs/models.csv" >&2; exit 2; }
[ -z "$prism" ] || [ -x "$prism" ] || { echo "prism-benchmarks: no PRISM binary at $prism" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "prism-benchmarks: needs GNU time at /usr/bin/time" >&2; exit 2; }
make -s bin/proper
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

python3 - "$tree" "$max_states" "$prism" "$prism_max_states" "$timeout" "$out" "$models" <<'PY'
import csv, glob, json, os, re, subprocess, sys

tree, max_states, prism, prism_max, timeout, out, only = sys.argv[1:8]
only = set(only.split(",")) if only else None
max_states, prism_max, timeout = int(max_states), int(prism_max), int(timeout)
proper = os.path.abspath("bin/proper")
SLOW = 60.0


def time_bound(model_dir):
    """T for the properties that declare it: the suite fixes none. The values
    of PRISM's own examples where they exist (cluster, polling, tandem,
    embedded in hours), else 10."""
    return {"embedded": "12", "polling": "50", "tandem": "1"}.get(os.path.basename(model_dir), "10")


def instances():
    """(type, model path or None, csv model name, constants, states) per row,
    smallest first (an interrupted run has the small ones)."""
    rows = []
    for kind in ("dtmcs", "ctmcs"):
        files = {os.path.basename(p): p for p in glob.glob(f"{tree}/models/{kind}/*/*")}
        with open(f"{tree}/models/{kind}/models.csv") as f:
            for r in csv.DictReader(f):
                rows.append((kind[:-1].upper(), files.get(r["model_file"]), r["model_file"],
                             r["model_consts"].strip(), int(r["states"])))
    return sorted(rows, key=lambda r: (r[4], r[0], r[2]))


def property_files(model_dir):
    return sorted(p for ext in ("pctl", "csl", "props") for p in glob.glob(f"{model_dir}/*.{ext}"))


def combine(files, path):
    """All property files in one, each shared const declaration once."""
    seen, lines = set(), []
    for name in files:
        for line in open(name).read().splitlines():
            key = line.strip()
            if key.startswith("const "):
                if key in seen:
                    continue
                seen.add(key)
            lines.append(line)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def needs_time_bound(files):
    return any(re.search(r"^\s*const\s+\w+\s+T\s*;", open(p).read(), re.M) for p in files)


def run(argv, env=None, limit=None):
    """(exit status, stdout, stderr, wall seconds, peak MiB) of argv under
    timeout (limit seconds, default the --timeout) and GNU time; status 124
    is a timeout."""
    tf = f"{out}/time"
    if os.path.exists(tf):
        os.remove(tf)
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf, "timeout", str(limit or timeout)] + argv,
                       capture_output=True, text=True, env=env)
    try:
        secs, kib = open(tf).read().split()[-2:]
        secs, mib = float(secs), int(kib) / 1024
    except (OSError, ValueError):
        secs, mib = float("nan"), float("nan")
    return p.returncode, p.stdout, p.stderr, secs, mib


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "no message"


def short(msg, n=110):
    msg = msg.replace("|", "/").replace(tree, "BENCH_TREE")
    return msg if len(msg) <= n else msg[:n - 3] + "..."


def shell_words(argv):
    return " ".join(a if re.fullmatch(r"[\w./=,:@+$-]+", a) else "'" + a.replace("'", "'\\''") + "'" for a in argv)


def check_command(model, props, consts):
    argv = ["bin/proper", "check", model, props] + (["--const", consts] if consts else [])
    return shell_words([a.replace(tree, "$BENCH_TREE") for a in argv])


def classify(status, stderr):
    if status == 124:
        return "failed", f"no answer within {timeout} s"
    if status == 2:
        return "refused", last_line(stderr)
    if status in (0, 1):
        return "ok", ""
    return "failed", f"exit status {status}: {last_line(stderr)}"


def check_instance(model, files, consts, props, findings):
    """proper check of all properties at once; per property file when that
    fails. Returns (ok, refused, failed, seconds, MiB, note)."""
    argv = [proper, "check", model, props, "--json"] + (["--const", consts] if consts else [])
    status, stdout, stderr, secs, mib = run(argv)
    if status in (0, 1):
        try:
            return len(json.loads(stdout)["properties"]), 0, 0, secs, mib, ""
        except (ValueError, KeyError):
            status, stderr = -1, "output is not JSON"
    kind, why = classify(status, stderr)
    if kind == "failed" and status == 124:
        findings.append(f"timed out after {timeout} s (all properties): `{check_command(model, 'PROPS', consts)}` "
                        f"with PROPS the instance's property files together")
        return 0, 0, len(files), secs, mib, short(why)
    counts = {"ok": 0, "refused": 0, "failed": 0}
    note = ""
    for f in files:
        s, _, e, _, _ = run([proper, "check", model, f, "--json"] + (["--const", consts] if consts else []))
        k, w = classify(s, e)
        counts[k] += 1
        if k != "ok":
            note = note or short(w)
            findings.append(f"{k}: `{check_command(model, f, consts)}`: {short(w, 300)}")
    return counts["ok"], counts["refused"], counts["failed"], secs, mib, note


def reference_test(model, files, consts, props, findings):
    """The suite's RESULT comments against proper check --test: "passed / of"
    or "-" when the files carry none."""
    if not any("RESULT" in open(f).read() for f in files):
        return "-"
    status, stdout, stderr, _, _ = run([proper, "check", model, props, "--test"] + (["--const", consts] if consts else []))
    verdicts = [l.split()[0] for l in stdout.splitlines() if l.split() and l.split()[0] in
                ("PASS", "WRONG", "UNSUPPORTED", "ERROR", "SKIP", "BEYOND")]
    for line in stdout.splitlines():
        if line.split() and line.split()[0] in ("WRONG", "ERROR", "UNSUPPORTED"):
            findings.append(f"suite's RESULT: {short(line, 300)}: `{check_command(model, 'PROPS', consts)} --test`")
    if status == 124:
        return "timeout"
    counted = [v for v in verdicts if v != "SKIP"]
    return f"{counted.count('PASS')} / {len(counted)}" if counted else "-"


def crosscheck_argv(kind, model, consts, props):
    extra = ["--precision", "1e-8", "--prism-arg", "-maxiters", "--prism-arg", "100000"] if kind == "CTMC" else []
    argv = [proper, "crosscheck", model, props, "--backend", "prism", "--timeout", str(timeout)] + extra
    return argv + (["--const", consts] if consts else [])


def crosscheck_command(argv):
    return "PROPER_PRISM=PRISM " + shell_words([a.replace(tree, "$BENCH_TREE").replace(proper, "bin/proper") for a in argv])


def property_file(files, name):
    """The property file that names the property `name`."""
    for f in files:
        if re.search(r'^\s*"' + re.escape(str(name)) + '"\s*:', open(f).read(), re.M):
            return f
    return "PROPS"


def crosscheck_instance(kind, model, consts, files, props, findings):
    """proper crosscheck --backend prism. Returns (agree, compared,
    largest rel. diff, PRISM seconds, note); compared counts the properties
    both answered."""
    argv = crosscheck_argv(kind, model, consts, props)
    status, stdout, stderr, secs, _ = run(argv + ["--json"], dict(os.environ, PROPER_PRISM=prism), timeout * (len(files) + 1))
    command = crosscheck_command(crosscheck_argv(kind, model, consts, "PROPS"))
    try:
        r = json.loads(stdout)
    except ValueError:
        why = f"no answer within {timeout} s" if status == 124 else last_line(stderr)
        findings.append(f"crosscheck did not finish: `{command}`: {short(why, 300)}")
        return 0, 0, None, None, "crosscheck: " + short(why)
    agree = compared = 0
    largest, prism_s, notes = 0.0, 0.0, []
    for p in r.get("properties", []):
        if (p.get("native") or {}).get("error"):
            continue  # proper's refusal is in the check columns already
        for t in p.get("tools", []):
            prism_s += t.get("seconds") or 0.0
            rd = t.get("rel_diff")
            if isinstance(rd, (int, float)):
                largest = max(largest, rd)
            one = crosscheck_command(crosscheck_argv(kind, model, consts, property_file(files, p.get("name"))))
            if t.get("error"):
                notes.append((f"PRISM on {p.get('name')}: {t['error']}", one))
                continue
            compared += 1
            if t.get("agree"):
                agree += 1
            else:
                native = (p.get("native") or {}).get("value")
                notes.append((f"{p.get('name')} differs: proper {native}, PRISM {t.get('value')} (rel. {rd})", one))
    for b in r.get("backends", []):
        if b.get("error"):
            notes.append((f"PRISM: {b['error']}", command))
    for n, cmd in notes:
        findings.append(f"{short(n, 300)}: `{cmd}`")
    notes = [n for n, _ in notes]
    totals["prism failed"] += compared < len(r.get("properties", []))
    totals["disagree"] += agree < compared
    return agree, compared, largest, prism_s, short(notes[0]) if notes else ""


findings = []
totals = {"instances": 0, "passed": 0, "refused": 0, "failed": 0, "disagree": 0, "prism failed": 0, "skipped": 0}
print("| type | model | constants | states | properties | proper ok / refused / failed | suite's RESULT | agree with PRISM | "
      "largest rel. diff | proper (s) | proper (MiB) | PRISM (s) | note |")
print("|---|---|---|---:|---:|---|---|---|---:|---:|---:|---:|---|")
for i, (kind, model, name, consts, states) in enumerate(instances()):
    if states > max_states or (only and name not in only):
        totals["skipped"] += 1
        continue
    totals["instances"] += 1
    if model is None:
        totals["failed"] += 1
        print(f"| {kind} | {name} | {consts} | {states} | - | - | - | - | - | - | - | - | the suite lists it but has no such file |")
        continue
    files = property_files(os.path.dirname(model))
    if needs_time_bound(files):
        consts = (consts + "," if consts else "") + "T=" + time_bound(os.path.dirname(model))
    props = f"{out}/{i}.props"
    combine(files, props)
    ok, refused, failed, secs, mib, note = check_instance(model, files, consts, props, findings)
    if secs > SLOW:
        findings.append(f"slow ({secs:.0f} s, {mib:.0f} MiB): `{check_command(model, 'PROPS', consts)}` "
                        f"with PROPS the instance's property files together")
    reference = reference_test(model, files, consts, props, findings)
    agree_cell, diff_cell, prism_cell = "-", "-", "-"
    if prism and states <= prism_max:
        agree, compared, largest, prism_s, xnote = crosscheck_instance(kind, model, consts, files, props, findings)
        agree_cell = f"{agree} / {compared}" if largest is not None else "-"
        diff_cell = f"{largest:.1e}" if largest is not None else "-"
        prism_cell = f"{prism_s:.1f}" if prism_s is not None else "-"
        note = "; ".join(n for n in (note, xnote) if n)
    totals["passed"] += failed == 0 and refused == 0
    totals["refused"] += refused > 0
    totals["failed"] += failed > 0
    print(f"| {kind} | {name} | {consts} | {states} | {len(files)} | {ok} / {refused} / {failed} | {reference} | {agree_cell} | "
          f"{diff_cell} | {secs:.2f} | {mib:.0f} | {prism_cell} | {note} |", flush=True)

print()
print(f"{totals['instances']} instances of at most {max_states} states ({totals['skipped']} larger or not selected ones not run): "
      f"{totals['passed']} with every property answered, {totals['refused']} with a refusal, "
      f"{totals['failed']} with a failure" +
      (f"; of those up to {prism_max} states, {totals['disagree']} with a value differing from PRISM's, "
       f"{totals['prism failed']} with a property PRISM failed on"
       if prism else "") + ".")
print()
print("Findings (BENCH_TREE is the suite's checkout; PRISM the PRISM binary):")
print()
for f in findings:
    print("- " + f)
if not findings:
    print("- none")
PY
echo
echo "proper: $(bin/proper version 2>/dev/null | head -1)${prism:+; PRISM: $("$prism" -version 2>/dev/null | head -1)}"
echo "Times: proper's wall time and peak resident memory for all properties of an instance (GNU time, model construction included); PRISM's the model-checking times it reports, summed."
