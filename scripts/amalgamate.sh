#!/bin/sh
# Writes proper.h to stdout: the manual (src/manual.txt as a comment), then
# each module of src/ in dependency order with its local #include lines
# removed, then the licence. Usage: scripts/amalgamate.sh MODULE...
#
# The manual's line numbers are filled in here, so they are always true:
#   @LINE:name@   the line of proper.h where module src/name.h starts;
#   @TUNABLES@    one line per tunable (a macro defined under its own
#                 #ifndef in a module), with its default and its line.
# A module named on the command line that does not exist is an error.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for m in "$@"; do
    [ -f "src/$m.h" ] || { echo "amalgamate.sh: src/$m.h: no such module" >&2; exit 1; }
done
upper() { echo "$1" | tr a-z A-Z; }
deps() { sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\.h".*/\1/p' "src/$1.h" | sort -u; }

# Module selection: PROPER_ONLY_<MODULE> (any number of them) keeps those
# modules and what they include; with none defined every module is kept.
# Walking the modules last to first closes the set over their #includes.
selection() {
    printf '\n/* ======== module selection (PROPER_ONLY_<MODULE>) ======== */\n#if'
    sep=''
    for m in "$@"; do printf '%s defined(PROPER_ONLY_%s)' "$sep" "$(upper "$m")"; sep=' ||'; done
    printf '\n#define PROPER__SELECTED 1\n#endif\n'
    for m in $(printf '%s\n' "$@" | sed -n '1!G;h;$p'); do
        M=$(upper "$m")
        printf '#if !defined(PROPER__SELECTED) || defined(PROPER_ONLY_%s) || defined(PROPER__WANT_%s)\n' "$M" "$M"
        printf '#define PROPER__WANT_%s 1\n' "$M"
        for d in $(deps "$m"); do printf '#define PROPER__WANT_%s 1\n' "$(upper "$d")"; done
        printf '#endif\n'
    done
}

{
    selection "$@"
    for m in "$@"; do
        printf '\n/* ======== src/%s.h ======== */\n#ifdef PROPER__WANT_%s\n' "$m" "$(upper "$m")"
        grep -v '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "src/$m.h"
        printf '#endif /* PROPER__WANT_%s */\n' "$(upper "$m")"
    done
} > "$tmp/body"

# Tunables: "#ifndef X" directly followed by "#define X value", where X is
# neither an include guard (_H) nor an implementation guard.
awk '/^\/\* ======== src\/.*\.h ======== \*\/$/ { mod = $3; sub(/^src\//, "", mod) }
     prev != "" && $1 == "#define" && $2 == prev {
         v = $0; sub(/^#define[ \t]+[A-Za-z0-9_]+[ \t]+/, "", v)
         sub(/[ \t]*\/[*].*$/, "", v) # a trailing comment would nest in the manual
         printf "%s\t%s\t%s\t%d\n", prev, v, mod, NR }
     { prev = "" }
     $1 == "#ifndef" && $2 ~ /^PROPER_/ && $2 !~ /(_H|_IMPLEMENTATION)$/ && NF == 2 { prev = $2 }' \
    "$tmp/body" > "$tmp/tunables"

# proper.h = "/*", the manual, " */", the body, the licence comment. The
# manual grows by one line per tunable less the @TUNABLES@ line itself.
ntun=$(wc -l < "$tmp/tunables")
nman=$(wc -l < src/manual.txt)
offset=$((nman + ntun + 1))

awk -v off="$offset" -F'\t' '{ printf "  %-31s %-22s %s line %d\n", $1, $2, $3, $4 + off }' \
    "$tmp/tunables" > "$tmp/tunable-lines"
awk -v off="$offset" '/^\/\* ======== src\/.*\.h ======== \*\/$/ {
        name = $3; sub(/^src\//, "", name); sub(/\.h$/, "", name); print name, NR + off }' \
    "$tmp/body" > "$tmp/starts"

printf '/*\n'
awk -v tl="$tmp/tunable-lines" -v st="$tmp/starts" '
    BEGIN { while ((getline l < st) > 0) { split(l, w, " "); start[w[1]] = w[2] } }
    $0 == "@TUNABLES@" { while ((getline l < tl) > 0) print l; next }
    { while (match($0, /@LINE:[a-z_]+@ */)) {
          name = substr($0, RSTART + 6); sub(/@.*/, "", name)
          if (!(name in start)) { print "amalgamate.sh: manual names unknown module " name > "/dev/stderr"; exit 1 }
          $0 = substr($0, 1, RSTART - 1) sprintf("line %5d  ", start[name]) substr($0, RSTART + RLENGTH) }
      print }' src/manual.txt | sed 's/^/ * /; s/ *$//'
printf ' */\n'
cat "$tmp/body"
printf '\n/*\n'
sed 's/^/ * /; s/ *$//' LICENSE
printf ' */\n'
