#!/bin/sh
# Reads PRISM's own explicit exports of its example models with proper's
# explicit-file readers (proper check --explicit) and compares the values
# with proper on the PRISM-language model and with PRISM itself.
#
#   sh scripts/explicit-sweep.sh PRISM_TREE [PRISM_BINARY [PATTERN]]
#   sh scripts/explicit-sweep.sh --suite PRISM_TREE [PRISM_BINARY]
#
# For each DTMC and CTMC of scripts/prism-examples.txt (PRISM_TREE's
# prism-examples/, with the same constants and engine options as
# scripts/crosscheck-prism.sh), the properties are made to speak only of
# labels and rewards, as explicit files can: every state formula inside
# an operator (s=7 & d=x, the states of a {filter}{max}) becomes a label
# "sweep_N" added to a copy of the model, as do the properties file's own
# labels (its constants replaced by their values there); time and step
# bounds keep the file's constants, the model's are replaced by their
# values. A property that cannot be so rewritten (a nested operator inside
# a state formula, LTL rewards, a variable outside any operator) is left
# out and counted in the note. Then, one at a time (PRISM nice'd):
#   1. PRISM checks the rewritten properties on the model copy and exports
#      it (-exportmodel M.all: .tra .lab .sta and one .srew/.trew per
#      reward structure, numbered when there are several);
#   2. PRISM exports it again with -exportrows;
#   3. proper checks each property on the PRISM-language copy, and on the
#      explicit files of step 1 with the reward files of the structure the
#      property names (and on those of step 2, for a DTMC).
# Prints a Markdown table: states, properties compared, how many of the
# explicit values agree with proper's on the .pm and how many with PRISM's
# (within 1e-6 relative; booleans and infinities equal; ranges over several
# initial states end by end), the largest relative differences, whether the
# -exportrows files give the same values, proper's summed times on each
# input, and notes. docs/crosscheck-results.md quotes this output.
# With STA=1 in the environment no state formula becomes a label: the
# properties go as written (the file's labels with them, the model's
# constants and formulas, which explicit files do not carry, replaced by
# their values and bodies) to PRISM, to proper on the .pm, and to proper on
# the explicit files with their .sta (--sta), which lets the properties
# name variables.
# PRISM_BINARY defaults to PRISM_TREE/prism/bin/prism; PATTERN (a grep
# pattern) keeps only the runs whose line matches it. Needs python3.
# With --suite: every DTMC and CTMC of PRISM's regression suite
# (PRISM_TREE/prism-tests) that PRISM exports with its own constants
# (-exportmodel) is read by `proper check --explicit` once per reward
# structure (P=? [ F "deadlock" ]); prints the counts and each refusal.
# Nothing of PRISM's is copied into the project.
set -eu
cd "$(dirname "$0")/.."
suite=0
[ "${1:-}" != --suite ] || { suite=1; shift; }
[ $# -ge 1 ] || { echo "usage: sh scripts/explicit-sweep.sh [--suite] PRISM_TREE [PRISM_BINARY [PATTERN]]" >&2; exit 2; }
tree=$1
prism=${2:-$tree/prism/bin/prism}
pattern=${3:-.}
[ -x "$prism" ] || { echo "explicit-sweep: no PRISM binary at $prism" >&2; exit 2; }
ex=$tree/prism-examples
[ -d "$ex" ] || { echo "explicit-sweep: $tree has no prism-examples/" >&2; exit 2; }
make -s bin/proper
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One line per model of the regression suite: OK, REFUSED (with proper's
# message) or NOEXPORT (PRISM's first error: undefined constants mostly).
suite_read() {
    find "$tree/prism-tests" \( -name '*.pm' -o -name '*.sm' -o -name '*.prism' \) | sort | while read -r f; do
        grep -q '^[[:space:]]*\(dtmc\|ctmc\|probabilistic\|stochastic\)' "$f" || continue
        name=${f#"$tree/prism-tests/"}
        d=$out/suite
        rm -rf "$d"
        mkdir "$d"
        nice "$prism" "$f" -exportmodel "$d/m.all" > "$d/log" 2>&1 || true
        if [ ! -f "$d/m.tra" ]; then
            echo "NOEXPORT $name $(grep -m1 'Error' "$d/log" | cut -c1-60)"
            continue
        fi
        set --
        for s in "$d"/m.srew "$d"/m[0-9]*.srew; do [ -f "$s" ] && set -- "$@" "$s"; done
        [ $# -gt 0 ] || set -- none
        verdict=OK
        msg=
        for s in "$@"; do
            rew=
            [ "$s" = none ] || rew="--srew $s --trew ${s%.srew}.trew"
            # $rew is empty or four words: unquoted on purpose
            # shellcheck disable=SC2086
            if ! bin/proper check --explicit "$d/m.tra" "$d/m.lab" $rew 'P=? [ F "deadlock" ]' > /dev/null 2> "$d/err"; then
                verdict=REFUSED
                msg=": $(tail -1 "$d/err" | sed "s|$d/||")"
                break
            fi
        done
        echo "$verdict $name ($(grep -v '^#' "$d/m.tra" | head -1 | tr ' ' /) states/transitions)$msg"
    done
}

if [ $suite = 1 ]; then
    suite_read > "$out/suite.txt"
    echo "PRISM's regression suite (prism-tests/), DTMCs and CTMCs: $(grep -c '^OK' "$out/suite.txt") read, $(grep -c '^REFUSED' "$out/suite.txt") refused, $(grep -c '^NOEXPORT' "$out/suite.txt") not exported by PRISM without constants given."
    echo
    grep '^REFUSED' "$out/suite.txt" | sed 's/^REFUSED /- /' || true
    echo
    echo "proper: $(bin/proper version 2>/dev/null | head -1); PRISM: $("$prism" -version 2>/dev/null | head -1)"
    exit 0
fi

echo "| model | constants | states | properties | agree with proper (.pm) | largest rel. diff | agree with PRISM | largest rel. diff | -exportrows files | proper explicit (s) | proper .pm (s) | note |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---|"
i=0
grep -v '^#' scripts/prism-examples.txt | grep -e "$pattern" | while read -r model props consts engine; do
    i=$((i + 1))
    mkdir "$out/$i"
    python3 - "$ex" "$model" "$props" "$consts" "$engine" "$prism" "$out/$i" <<'PY'
import json, math, os, re, subprocess, sys, time

ex, model, props, consts, engine, prism, work = sys.argv[1:8]
is_ctmc = model.startswith("ctmcs/")
with_sta = os.environ.get("STA") == "1"
TOL = 1e-6
TIMEOUT = 900

# ---- tokens of the PRISM language (enough for properties) ----
TOKEN = re.compile(r'\s*(?:(".*?")|(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(<=>|=>|<=|>=|!=|.))')

def tokens(text):
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        out.append(m.group(m.lastindex))
        pos = m.end()
    return out

def is_ident(t):
    return re.match(r'[A-Za-z_]', t) is not None

def text(toks):
    return " ".join(toks).replace(" = ?", "=?")

class Skip(Exception):
    pass

def strip_comments(s):
    return re.sub(r'//[^\n]*', '', s)

# ---- constants: the -const values, the properties file's, the model's ----
given = dict(kv.split("=", 1) for kv in consts.split(",") if "=" in kv)
model_text = open(os.path.join(ex, model)).read()
props_text = strip_comments(open(os.path.join(ex, props)).read())
model_consts, model_formulas = {}, {}
for m in re.finditer(r'\bconst\s+(?:int\s+|double\s+|bool\s+)?([A-Za-z_]\w*)\s*(?:=\s*([^;]+))?;', strip_comments(model_text)):
    model_consts[m.group(1)] = given.get(m.group(1), m.group(2))
for m in re.finditer(r'\bformula\s+([A-Za-z_]\w*)\s*=\s*([^;]+);', strip_comments(model_text)):
    model_formulas[m.group(1)] = m.group(2)
props_consts, decls, labels_moved = {}, [], []
for m in re.finditer(r'\b(const|label|formula)\b[^;]*;', props_text):
    d = m.group(0)
    if m.group(1) == "const":
        c = re.match(r'const\s+(?:int\s+|double\s+|bool\s+)?([A-Za-z_]\w*)\s*(?:=\s*([^;]+))?;', d)
        props_consts[c.group(1)] = given.get(c.group(1), c.group(2))
        decls.append(d)
    elif m.group(1) == "label":
        labels_moved.append(d)
    else:
        raise SystemExit(f"| {model} | {consts} |" + " - |" * 9 + " not run: formulas in the properties file |")

def substitute(toks, table):
    out = []
    for t in toks:
        if is_ident(t) and t in table and table[t] is not None:
            out += ["("] + substitute(tokens(table[t]), table) + [")"]
        else:
            out.append(t)
    return out

# ---- rewriting: state formulas inside operators become labels ----
OP_HEADS = {"P", "R", "S", "E", "A", "Pmin", "Pmax", "Rmin", "Rmax"}
TEMPORAL = {"U", "F", "G", "X", "W", "R"}
TOP_WORDS = {"filter", "forall", "exists", "max", "min", "avg", "sum", "count", "first", "print", "printall",
             "argmin", "argmax", "range", "state", "true", "false"}
new_labels = {}  # formula text -> label name

def is_op_head(toks, i):
    if toks[i] not in OP_HEADS or i + 1 >= len(toks):
        return False
    return toks[i + 1] in ("{", "=", "<", ">", "<=", ">=", "[", "min", "max")

def match(toks, i, open_, close):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == open_:
            depth += 1
        elif toks[j] == close:
            depth -= 1
            if depth == 0:
                return j
    raise Skip("unbalanced " + open_)

def label_for(chunk):
    if not chunk:
        return chunk
    for j in range(len(chunk)):
        if is_op_head(chunk, j):
            raise Skip("an operator inside a state formula")
    if all(not is_ident(t) or t in ("true", "false") for t in chunk):
        return chunk  # labels, numbers and connectives only
    body = text(substitute(chunk, props_consts))
    if body not in new_labels:
        new_labels[body] = "sweep_%d" % (len(new_labels) + 1)
    return ['"%s"' % new_labels[body]]

def bound_end(toks, i):
    """End of a time/step bound starting at toks[i] (after the comparison)."""
    if toks[i] == "(":
        return match(toks, i, "(", ")") + 1
    return i + 1

def bound_consts(toks):
    for t in toks:
        if is_ident(t) and t not in props_consts and t not in model_consts:
            raise Skip("bound uses " + t)
    return substitute(toks, {k: v for k, v in model_consts.items() if k not in props_consts})

def rewrite_path(toks, kind):
    # a trailing filter {states}{max} of PRISM's older syntax
    filt = []
    if toks and toks[-1] == "}":
        depth, j = 0, len(toks) - 1
        while j >= 0:
            if toks[j] == "}":
                depth += 1
            elif toks[j] == "{":
                depth -= 1
            if depth == 0 and (j == 0 or toks[j - 1] != "}"):
                break
            j -= 1
        groups, k = [], j
        while k < len(toks):
            e = match(toks, k, "{", "}")
            groups.append(toks[k + 1:e])
            k = e + 1
        filt = ["{"] + label_for(groups[0]) + ["}"]
        for g in groups[1:]:
            filt += ["{"] + g + ["}"]
        toks = toks[:j]
    if kind == "S":
        return label_for(toks) + filt
    if kind == "R":
        if toks and toks[0] in ("C", "I", "S"):
            return [toks[0]] + bound_consts(toks[1:]) + filt
        if toks and toks[0] == "F":
            return ["F"] + label_for(toks[1:]) + filt
        raise Skip("a reward of a path formula")
    out, chunk, i = [], [], 0
    while i < len(toks):
        t = toks[i]
        if t == "(":
            e = match(toks, i, "(", ")")
            chunk += toks[i:e + 1]
            i = e + 1
            continue
        if t in TEMPORAL:
            out += label_for(chunk) + [t]
            chunk = []
            i += 1
            if i < len(toks) and toks[i] in ("<=", "<", ">=", ">", "="):
                e = bound_end(toks, i + 1)
                out += [toks[i]] + bound_consts(toks[i + 1:e])
                i = e
            elif i < len(toks) and toks[i] == "[":
                e = match(toks, i, "[", "]")
                out += ["["] + bound_consts(toks[i + 1:e]) + ["]"]
                i = e + 1
            continue
        chunk.append(t)
        i += 1
    return out + label_for(chunk) + filt

def rewrite(toks):
    out, i = [], 0
    if len(toks) > 2 and toks[0].startswith('"') and toks[1] == ":":
        out, i = toks[:2], 2
    while i < len(toks):
        if is_op_head(toks, i):
            op = toks[i]
            b = toks.index("[", i)
            e = match(toks, b, "[", "]")
            kind = "R" if op.startswith("R") else "S" if op == "S" else "P"
            head = toks[i:b]
            for t in head[1:]:
                if is_ident(t) and t not in ("min", "max") and t not in props_consts:
                    raise Skip("operator bound uses " + t)
            out += head + ["["] + rewrite_path(toks[b + 1:e], kind) + ["]"]
            i = e + 1
            continue
        t = toks[i]
        if is_ident(t) and t not in TOP_WORDS and t not in props_consts:
            raise Skip("%s outside an operator" % t)
        out.append(t)
        i += 1
    return out

def reward_of(toks):
    """The reward structure a property names: None (none), 0 (the first) or a name."""
    for i, t in enumerate(toks):
        if is_op_head(toks, i) and t.startswith("R"):
            if toks[i + 1] == "{":
                return toks[i + 2].strip('"') if toks[i + 2].startswith('"') else None
            return 0
    return None

# STA=1: what explicit files do not carry, the model's constants and formulas
model_names = {k: v for k, v in list(model_consts.items()) + list(model_formulas.items()) if k not in props_consts}
as_written = lambda s: text(substitute(tokens(s), model_names))
if with_sta:
    labels_moved = [as_written(d) for d in labels_moved]
body = re.sub(r'\b(const|label|formula)\b[^;]*;', '', props_text)
originals = [p.strip() for line in body.split("\n") for p in line.split(";") if p.strip()]
rewritten, skipped = [], []
for p in originals:
    try:
        toks = tokens(p)
        rewritten.append((as_written(p) if with_sta else text(rewrite(toks)), reward_of(toks)))
    except Skip as e:
        skipped.append(str(e))
    except (ValueError, IndexError):
        skipped.append("not understood")

aug = os.path.join(work, "model" + os.path.splitext(model)[1])
with open(aug, "w") as f:
    f.write(model_text + "\n")
    for d in [] if with_sta else labels_moved:
        f.write(text(substitute(tokens(d), props_consts)) + "\n")
    for body_, name in new_labels.items():
        f.write('label "%s" = %s;\n' % (name, body_))
props_file = os.path.join(work, "props.txt")
with open(props_file, "w") as f:
    for d in decls + (labels_moved if with_sta else []):
        f.write(d + "\n")
    for p, _ in rewritten:
        f.write(p + "\n")

# ---- runs ----
def run(argv, timeout=TIMEOUT):
    t = time.time()
    try:
        r = subprocess.run(["nice"] + argv, capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout, r.stderr, time.time() - t
    except subprocess.TimeoutExpired:
        return -1, "", "timeout", time.time() - t

popts = ["-epsilon", "1e-8", "-maxiters", "100000"] if is_ctmc else ["-epsilon", "1e-12"]
if engine != "-":
    popts.append(engine)
cargs = ["-const", consts] if consts else []
pcargs = ["--const", consts] if consts else []
rc, so, se, _ = run([prism, aug, props_file] + cargs + popts + ["-exportmodel", os.path.join(work, "m.all")])
prism_values, cur = [], None
for line in so.splitlines():
    if line.startswith("Model checking:"):
        prism_values.append(None)
    elif line.startswith("Result:") and prism_values:
        prism_values[-1] = line.split()[1]
    elif line.startswith("Error:") and prism_values and prism_values[-1] is None:
        prism_values[-1] = "error"
if not os.path.exists(os.path.join(work, "m.tra")):
    err = [l for l in (so + se).splitlines() if "rror" in l]
    print(f"| {model} | {consts} |" + " - |" * 9 + f" not run: PRISM exported nothing: {(err or ['?'])[0][:100]} |")
    sys.exit(0)
run([prism, aug] + cargs + ["-exportmodel", os.path.join(work, "r.all"), "-exportrows"])

def reward_files(prefix):
    """(name, srew, trew) of each exported reward structure, in order."""
    single = os.path.join(work, prefix + ".srew")
    if os.path.exists(single):
        files = [(single, os.path.join(work, prefix + ".trew"))]
    else:
        files, k = [], 1
        while os.path.exists(os.path.join(work, "%s%d.srew" % (prefix, k))):
            files.append((os.path.join(work, "%s%d.srew" % (prefix, k)), os.path.join(work, "%s%d.trew" % (prefix, k))))
            k += 1
    out = []
    for s, t in files:
        m = re.search(r'# Reward structure "([^"]*)"', open(s).read(200))
        out.append((m.group(1) if m else "", s, t))
    return out

structs = {"m": reward_files("m"), "r": reward_files("r")}
for pre in ("m", "r"):  # -exportrows writes no reward comments: the names of -exportmodel's
    if len(structs[pre]) == len(structs["m"]):
        structs[pre] = [(structs["m"][k][0], s, t) for k, (_, s, t) in enumerate(structs[pre])]

def proper(argv):
    rc, so, se, dt = run(["bin/proper", "check"] + argv + ["--json"] + (["--precision", "1e-8"] if is_ctmc else []))
    try:
        p = json.loads(so)["properties"][0]
        if p.get("error"):
            return "error: " + p["error"], dt
        if p.get("value") is None and p.get("value_text"):
            return p["value_text"], dt
        if p.get("range"):
            return tuple(p["range"]), dt
        return p.get("value"), dt
    except Exception:
        msg = (se.strip().splitlines() or ["no output"])[-1]
        return "error: " + msg, dt

def explicit_args(prefix, reward):
    a = ["--explicit", os.path.join(work, prefix + ".tra"), os.path.join(work, prefix + ".lab")]
    if with_sta:
        a += ["--sta", os.path.join(work, prefix + ".sta")]
    st = structs[prefix]
    pick = None
    if reward == 0 and st:
        pick = st[0]
    elif reward is not None:
        pick = next((s for s in st if s[0] == reward), None)
    if pick:
        a += ["--srew", pick[1], "--trew", pick[2]]
    return a

def number(v):
    """A value as a float, a bool, or a tuple (a range over several initial states)."""
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, tuple):
        return tuple(number(x) for x in v)
    if isinstance(v, (int, float)):
        return float(v)
    s = str(v)
    if s.startswith("[") and s.endswith("]") and "," in s:
        return tuple(number(x) for x in s[1:-1].split(","))
    if s in ("true", "false"):
        return s == "true"
    if s in ("Infinity", "-Infinity", "NaN"):
        return float(s.replace("Infinity", "inf").replace("NaN", "nan"))
    try:
        return float(s)
    except ValueError:
        return s

def rel(a, b):
    a, b = number(a), number(b)
    if isinstance(a, tuple) or isinstance(b, tuple):
        if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)):
            return math.inf
        return max(rel(x, y) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return 0.0 if a == b else math.inf
    if not isinstance(a, float) or not isinstance(b, float):
        return math.inf
    if a == b:
        return 0.0
    if math.isinf(a) or math.isinf(b) or math.isnan(a) or math.isnan(b):
        return math.inf
    return abs(a - b) / max(abs(a), abs(b))

def agrees(p, e, other, source):
    """Whether the explicit value e agrees with other's (1 or 0), and their
    relative difference; a disagreement is noted."""
    d = rel(e, other)
    if d > TOL:
        problems.append("%s: explicit %s, %s %s" % (p, e, source, other))
    return (1 if d <= TOL else 0), d

compared = agree_pm = agree_prism = rows_same = rows_run = 0
big_pm = big_prism = 0.0
t_exp = t_pm = 0.0
problems = []
for k, (p, reward) in enumerate(rewritten):
    pv = prism_values[k] if k < len(prism_values) else None
    e, dt = proper(explicit_args("m", reward) + [props_file, "--property", str(k + 1)] + pcargs)
    t_exp += dt
    m, dt = proper([aug, props_file, "--property", str(k + 1)] + pcargs)
    t_pm += dt
    compared += 1
    if isinstance(e, str) and e.startswith("error"):
        problems.append("explicit refused %s: %s" % (p, e[7:160]))
        continue
    ok, d = agrees(p, e, m, ".pm")
    agree_pm += ok
    big_pm = max(big_pm, d)
    if pv in (None, "error"):
        problems.append("PRISM gave no value for " + p)
    else:
        ok, d = agrees(p, e, pv, "PRISM")
        agree_prism += ok
        big_prism = max(big_prism, d)
    # -exportrows files carry no kind comment: a CTMC's need --ctmc
    r, _ = proper(explicit_args("r", reward) + [props_file, "--property", str(k + 1)] + pcargs +
                  (["--ctmc"] if is_ctmc else []))
    rows_run += 1
    if rel(r, e) == 0.0:
        rows_same += 1
    else:
        problems.append("-exportrows %s: %s where -exportmodel gives %s" % (p, r, e))

states = "-"
with open(os.path.join(work, "m.tra")) as f:
    for line in f:
        if not line.startswith("#"):
            states = line.split()[0]
            break
rows = "%d/%d same" % (rows_same, rows_run)
notes = problems[:3]
if skipped:
    notes.append("%d left out (%s)" % (len(skipped), "; ".join(sorted(set(skipped)))))
note = "; ".join(notes).replace("|", "/")
fmt = lambda x: "inf" if math.isinf(x) else "%.1e" % x
print(f"| {model} | {consts} | {states} | {compared} | {agree_pm} | {fmt(big_pm)} | {agree_prism} | {fmt(big_prism)} | {rows} | {t_exp:.2f} | {t_pm:.2f} | {note} |")
PY
done
echo
echo "proper: $(bin/proper version 2>/dev/null | head -1); PRISM: $("$prism" -version 2>/dev/null | head -1)"
echo "Agree: the explicit value within 1e-6 relative of proper's on the .pm, and of PRISM's (booleans and infinities equal; ranges end by end). Times are wall-clock seconds of the proper processes (one per property), nice'd, on a loaded 2-core machine."
