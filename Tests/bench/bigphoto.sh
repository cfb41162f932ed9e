#!/usr/bin/env bash
# bigphoto.sh STAMPCAM [WIDTH HEIGHT] — peak memory of one very large photo stamped at full size
# (default 12000x9000, 108 MP, baseline 4:2:0 from cjpeg): in place with the default --max-memory
# (512 MB), then with --reencode, each under GNU time. Prints for each: how it was stamped (in place,
# or why not), its peak RSS, and how many of the photo's pixel rows differ from the original's
# outside the stamp (djpeg decodes both). A figure, not a test: nothing here fails on a number.
set -euo pipefail
stampcam=$(realpath "$1")
width=${2:-12000} height=${3:-9000}
for tool in cjpeg djpeg python3 /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "bigphoto: $tool is missing (libjpeg-turbo-progs, python3, time)"; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/stampcam-bigphoto.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
mkdir -p "$HOME"

# A picture with detail everywhere (so the file is as large as a camera's), made row by row.
python3 - "$width" "$height" > "$work/big.ppm" <<'EOF'
import random, sys
width, height = int(sys.argv[1]), int(sys.argv[2])
noise = random.Random(7).randbytes(1 << 20)
out = sys.stdout.buffer
out.write(b"P6\n%d %d\n255\n" % (width, height))
row = width * 3
for y in range(height):
    start = (y * 7919) % (len(noise) - row)
    out.write(noise[start:start + row])
EOF
cjpeg -quality 90 "$work/big.ppm" > "$work/big.jpg"
rm "$work/big.ppm"
djpeg -ppm "$work/big.jpg" > "$work/original.ppm"
echo "bigphoto: ${width}x${height} baseline 4:2:0, $(($(stat -c %s "$work/big.jpg") / 1000000)) MB"

# run LABEL ARGS...: one apply at full size; its line of figures.
run() {
    local label=$1; shift
    rm -rf "$work/out"
    /usr/bin/time -f %M -o "$work/rss" "$stampcam" apply "$work/big.jpg" -o "$work/out" --max-size 0 --no-sign --json "$@" \
        > "$work/json" 2> "$work/err" || { echo "bigphoto: $label: failed: $(tail -n 2 "$work/err")"; return; }
    local how
    how=$(python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); print("re-encoded whole: " + r["reencoded"] if r.get("reencoded") else "in place")' "$work/json")
    djpeg -ppm "$work/out/big.jpg" > "$work/stamped.ppm"
    local rows
    rows=$(python3 - "$work/original.ppm" "$work/stamped.ppm" "$width" "$height" <<'EOF'
import sys
width, height = int(sys.argv[3]), int(sys.argv[4])
row = width * 3
with open(sys.argv[1], "rb") as a, open(sys.argv[2], "rb") as b:
    for f in (a, b):
        for _ in range(3):
            f.readline()
    changed = [y for y in range(height) if a.read(row) != b.read(row)]
print("%d of %d rows differ (%s)" % (len(changed), height, "rows %d-%d" % (changed[0], changed[-1]) if changed else "none"))
EOF
)
    echo "bigphoto: $label: $how; peak RSS $(($(cat "$work/rss") / 1000)) MB; $rows"
}
run "default (512 MB)"
run "--reencode" --reencode
