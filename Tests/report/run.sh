#!/usr/bin/env bash
# run.sh STAMPCAM — `make test-report` (and the report line of `make bench`): a 100-photo report made
# by the release binary from a catalog, checked black-box with poppler (Debian poppler-utils): the
# page count, every font embedded, each photo's project and time in the text, every photo a DCT
# (JPEG) image held once; it must stay under 60 MB (its time is printed: `make bench` records it, no
# test judges a machine's speed). The photos are 25 of the corpus's (../shared/corpus) stamped four
# times over, or test cards without it. Then the document a client signs: 40 of those photos with
# --layout 1 --logo --company --sign-off, its metadata, page numbers, index, plan and sign-off page,
# and the SHA-256 printed. Pages are rendered to .build/report/ to be looked at. Prints
# `report: N passed, M failed`; exits 0 only when all passed.
set -u
stampcam=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../lib/checks.sh"
for tool in pdfinfo pdffonts pdftotext pdfimages pdftoppm python3 /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "report: '$tool' is missing (Debian: poppler-utils, python3, time)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/stampcam-report.XXXXXX") || exit 2
trap 'rm -rf -- "$work"' EXIT
isolate "$work"   # never the user's own configuration or catalog
catalog=$work/catalog.sqlite

corpus=$root/../shared/corpus
if [ -d "$corpus" ]; then
    source="the corpus"
    find "$corpus" -name '*.jpg' -print0 | sort -z | head -z -n 25 > "$work/list"
else
    source="test cards"
    for i in $(seq 10 34); do "$stampcam" test-card -o "$work/cards/$i" --time "2026-11-29T10:$i:00+08:00" > /dev/null; done
    find "$work/cards" -name '*.jpg' -print0 | sort -z > "$work/list"
fi
projects=("Bridge 7" "Pier 4 — 北岸" "Tunnel B" "Depot")
for round in 0 1 2 3; do
    xargs -0 "$stampcam" apply -o "$work/stamped/$round" -j 2 -q --stamp-again --catalog "$catalog" \
        --project "${projects[$round]}" --user "李伟 Li Wei" --location "Site $round" --note "inspection round $round" \
        --time "$(printf '2026-11-%02dT%02d:15:00+08:00' $((23 + round)) $((8 + round)))" --gps "48.85$round,2.29$round" \
        < "$work/list" > /dev/null 2>> "$work/apply.err"
done
photos=$("$stampcam" log --catalog "$catalog" | wc -l)
check "100 photos stamped and logged from $source ($photos)" test "$photos" = 100

pdf=$work/report.pdf
/usr/bin/time -f '%e %M' -o "$work/time" "$stampcam" report --catalog "$catalog" -o "$pdf" --title "Weekly inspection 第47周" \
    > /dev/null 2> "$work/stderr"
check "report exits 0" test $? = 0
read -r seconds rss < "$work/time"
bytes=$(stat -c %s "$pdf" 2>/dev/null || echo 0)
megabytes=$(python3 -c "print(f'{$bytes / 1048576:.1f}')")
echo "report: 100 photos, $(pdfinfo "$pdf" 2>/dev/null | sed -n 's/^Pages: *//p') pages, $megabytes MB in $seconds s (peak RSS $((rss / 1024)) MB)"
check "under 60 MB ($megabytes MB)" test "$bytes" -lt $((60 * 1024 * 1024))
check "pdfinfo: a cover, 7 pages of index, a plan and 50 pages of two photos" sh -c "pdfinfo '$pdf' | grep -qx 'Pages: *59'"
check "pdffonts: every font embedded, the CJK one included" python3 - "$pdf" <<'PY'
import subprocess, sys
rows = subprocess.run(["pdffonts", sys.argv[1]], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
sys.exit(0 if rows and all(r.split()[-5] == "yes" for r in rows) and any("CJK" in r or "WenQuanYi" in r for r in rows) else 1)
PY
# Each photo is drawn twice (its thumbnail in the index and its page) but held once.
check "pdfimages: 100 images, all DCT (JPEG)" sh -c "test \"\$(pdfimages -list '$pdf' | tail -n +3 | awk '{print \$11, \$9}' | sort -u | awk '{print \$2}' | uniq -c | tr -s ' ')\" = ' 100 jpeg'"
"$stampcam" log --catalog "$catalog" --json > "$work/rows.jsonl"
check "pdftotext: every photo's project and time are in the text" python3 - "$pdf" "$work/rows.jsonl" <<'PY'
import json, subprocess, sys
text = subprocess.run(["pdftotext", "-layout", sys.argv[1], "-"], capture_output=True, text=True, check=True).stdout
flat = text.replace(" ", "")
missing = []
for line in open(sys.argv[2], encoding="utf-8"):
    row = json.loads(line)
    date, clock = row["time"][:10], row["time"][11:19]
    shown = f"{date} {clock} {row['zone']}"
    if shown not in text or row["project"].replace(" ", "") not in flat:
        missing.append(row["path"])
sys.exit(1 if missing else 0)
PY
mkdir -p "$root/.build/report"
pdftoppm -r 70 -f 1 -l 2 -png "$pdf" "$root/.build/report/page" && echo "report: pages 1 and 2 rendered to .build/report/page-*.png"

# The document a client signs: 40 photos (named, so in the order taken), one a page, a logo, a company, two signers.
signed=$work/signed.pdf
"$stampcam" test-card -o "$work/logo" > /dev/null
logo=$(find "$work/logo" -name '*.jpg' | head -n 1)
find "$work/stamped/0" "$work/stamped/1" -name '*.jpg' -print0 | sort -z | head -z -n 40 > "$work/forty"
xargs -0 "$stampcam" report -o "$signed" --layout 1 --logo "$logo" --company "Acme Site Services" \
    --sign-off "Wang Fang, Site manager" --sign-off "Jean Dupont, Client's engineer" --title "Handover: Bridge 7" \
    < "$work/forty" > /dev/null 2> "$work/signed.err"
check "report --layout 1 --logo --sign-off exits 0" test $? = 0
check "its SHA-256 is printed at the end" sh -c "tail -n 1 '$work/signed.err' | grep -qx \"stampcam: SHA-256 \$(sha256sum '$signed' | cut -d' ' -f1)  .*signed.pdf\""
# A cover, 3 pages of index (16 lines a page), a plan, 40 photo pages, the sign-off page.
check "pdfinfo: 46 pages, the title, author, subject and creator" python3 - "$signed" <<'PY'
import subprocess, sys
info = dict(line.split(":", 1) for line in subprocess.run(["pdfinfo", sys.argv[1]], capture_output=True, text=True, check=True).stdout.splitlines() if ":" in line)
info = {k: v.strip() for k, v in info.items()}
ok = (info["Pages"] == "46" and info["Title"] == "Handover: Bridge 7" and info["Author"] == "李伟 Li Wei"
      and info["Subject"].startswith("40 photos, 2026-11-23") and info["Creator"].startswith("stampcam"))
sys.exit(0 if ok else print(info) or 1)
PY
check "pdftotext: every page says 'Page X of 46'; the index numbers 1 to 40; each photo page its number; the sign-off" python3 - "$signed" <<'PY'
import re, subprocess, sys
pages = subprocess.run(["pdftotext", "-layout", sys.argv[1], "-"], capture_output=True, text=True, check=True).stdout.split("\f")
problems = [n for n in range(1, 47) if f"Page {n} of 46" not in pages[n - 1]]
index = "".join(pages[1:4])
if "Index of photos" not in index or any(not re.search(rf"(^|\s){n}\s", index, re.M) for n in range(1, 41)):
    problems.append("index")
# Each round's photos were taken on one spot: one dot each, labelled with all their numbers.
if "Location plan" not in pages[4] or " m" not in pages[4] or "1–25" not in pages[4] or "26–40" not in pages[4]:
    problems.append("plan")
problems += [f"photo {n}" for n in range(1, 41) if f"{n} of 40" not in pages[4 + n]]
if not all(word in pages[45] for word in ["Wang Fang", "Site manager", "Client's engineer", "Signature", "Date"]):
    problems.append("sign-off")
if "Acme Site Services" not in pages[0]:
    problems.append("cover")
sys.exit(0 if not problems else print(problems) or 1)
PY
check "pdffonts: every font embedded" sh -c "test \"\$(pdffonts '$signed' | tail -n +3 | awk '{print \$(NF-4)}' | sort -u)\" = yes"
pdftoppm -r 60 -png "$signed" "$root/.build/report/signed" && echo "report: the 46 pages of the signed report rendered to .build/report/signed-*.png"
echo "report: $passed passed, $failed failed"
[ "$failed" = 0 ]
