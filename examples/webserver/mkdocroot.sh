#!/bin/sh
# Create the web server's document root and default-names config, always
# byte-for-byte the same (nothing large is committed; this regenerates it).
#   sh examples/webserver/mkdocroot.sh ROOT DEFAULTS_FILE [FILLER]
#
#   ROOT/file50k.html        51200 bytes (the "50 KB file")
#   ROOT/dir1/index0.html    51200 bytes: the 1st default name exists
#   ROOT/dir5/index4.html    51200 bytes: only the 5th default name exists
#   ROOT/empty/              no default file: the error page
#   ROOT/dir5/other*.txt     FILLER empty files (default 0): a large
#                            directory for the server's --probe scan
#   DEFAULTS_FILE            index0.html ... index9.html, one per line
set -eu
root=${1:?usage: mkdocroot.sh ROOT DEFAULTS_FILE}
defaults=${2:?usage: mkdocroot.sh ROOT DEFAULTS_FILE [FILLER]}
filler=${3:-0}
mkdir -p "$root/dir1" "$root/dir5" "$root/empty"

# doc50k TITLE: 51200 bytes of HTML, the same on every machine
doc50k() {
    awk -v title="$1" 'BEGIN {
        printf "<!DOCTYPE html>\n<html><head><title>%s</title></head><body>\n", title
        for (i = 0; i < 1200; i++)
            printf "<p>Line %04d of the proper example document %s.</p>\n", i, title
    }' | head -c 51200
}
doc50k file50k > "$root/file50k.html"
doc50k dir1 > "$root/dir1/index0.html"
doc50k dir5 > "$root/dir5/index4.html"
: > "$defaults"
i=0
while [ $i -lt 10 ]; do echo "index$i.html" >> "$defaults"; i=$((i + 1)); done
i=0
while [ $i -lt "$filler" ]; do
    printf '%s/dir5/other%05d.txt\n' "$root" $i
    i=$((i + 1))
done | xargs -r touch
