#!/usr/bin/env bash
# One photo through one comparison tool: one.sh TOOL PHOTO (writes into $OUT). The job is the same
# as stampcam's: orient, fit 1024, a four-line box with a CJK line, JPEG q90.
set -eu
tool=$1 src=$2 name=$(basename "$2")
lines=(-annotate +30+590 '2026-11-29  14:03 +08:00' -annotate +30+620 'Location  Pier 4, Nanjing'
       -annotate +30+650 'Project  Bridge 7' -annotate +30+680 "$CJK")
case $tool in
magick)
    convert -define jpeg:size=2048x2048 "$src" -auto-orient -resize '1024x1024>' \
        -fill '#0000008c' -draw 'rectangle 20,560 340,700' -fill white \
        -font /usr/share/fonts/truetype/wqy/wqy-microhei.ttc -pointsize 22 "${lines[@]}" -quality 90 "$OUT/$name" ;;
gm)
    gm convert -size 2048x2048 "$src" -auto-orient -resize '1024x1024>' \
        -fill '#0000008c' -draw 'rectangle 20,560 340,700' -fill white \
        -font /usr/share/fonts/truetype/wqy/wqy-microhei.ttc -pointsize 22 \
        -draw "text 30,590 '2026-11-29  14:03 +08:00'" -draw "text 30,620 'Location  Pier 4, Nanjing'" \
        -draw "text 30,650 'Project  Bridge 7'" -draw "text 30,680 '$CJK'" -quality 90 "$OUT/$name" ;;
vips)
    t=$(mktemp -d)
    vipsthumbnail "$src" -s 1024x1024 -o "$t/thumb.v"
    vips text "$t/text.v" "<b>2026-11-29  14:03 +08:00</b>
$CJK
Location  Pier 4, Nanjing
Project  Bridge 7" --font 'DejaVu Sans 22px' --rgba
    vips composite2 "$t/thumb.v" "$t/text.v" "$OUT/$name[Q=90,optimize-coding]" over --x 30 --y 30
    rm -rf "$t" ;;
esac
