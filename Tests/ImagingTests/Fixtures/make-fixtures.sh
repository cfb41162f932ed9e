#!/bin/sh
# Re-creates the decoder fixtures from stampcam's own test card (run from the package root after
# `make build`; needs libjpeg-turbo-progs and imagemagick). Each is a 160x90 card in one JPEG flavour.
set -eu
dir=Tests/ImagingTests/Fixtures
tmp=$(mktemp -d)
.build/release/stampcam test-card -o "$tmp" --time 2026-01-01T00:00:00Z >/dev/null
convert "$tmp/test-card.jpg" -resize 160x90 -strip "$tmp/card.ppm"
cjpeg -quality 90 "$tmp/card.ppm" > "$dir/baseline.jpg"
cjpeg -quality 90 -progressive "$tmp/card.ppm" > "$dir/progressive.jpg"
cjpeg -quality 90 -arithmetic "$tmp/card.ppm" > "$dir/arithmetic.jpg"
cjpeg -quality 90 -grayscale "$tmp/card.ppm" > "$dir/grayscale.jpg"
cjpeg -quality 90 -sample 1x1 "$tmp/card.ppm" > "$dir/444.jpg"
cjpeg -quality 90 -sample 2x1 "$tmp/card.ppm" > "$dir/422.jpg"
convert "$tmp/card.ppm" -colorspace CMYK -quality 90 "$dir/cmyk.jpg"
rm -rf "$tmp"
