#!/bin/sh
# make test-web: the browser viewfinder end to end. Unit tests of routing, tokens and JSON errors
# run with `swift test` (StampWebTests); these run the release binary's `serve` over real sockets
# and in a real browser (Debian's chromium + chromium-driver, driven by Selenium from a venv in
# .build/venv). Screenshots land in .build/web/.
set -eu
binary=${1:-.build/release/stampcam}
python=${PYTHON:-.build/venv/bin/python}
here=$(dirname "$0")
export PYTHONDONTWRITEBYTECODE=1
echo "== access (401 without the token, cookies, cross-site refusals)"
"$python" "$here/access_test.py" "$binary"
echo "== hostile HTTP"
"$python" "$here/http_test.py" "$binary"
echo "== slow clients lock no one out (a whole request in time, a share of connections per address)"
"$python" "$here/slow_clients_test.py" "$binary"
echo "== a disk that fills while the original is written (root: a small tmpfs)"
"$python" "$here/full_disk_test.py" "$binary"
echo "== the QR code on a terminal"
"$python" "$here/qr_test.py" "$binary"
echo "== a stalled client does not stall the others"
"$python" "$here/stall_test.py" "$binary"
echo "== phones upload to a team server (tokens, limits, slow uploads, a full disk)"
"$python" "$here/upload_test.py" "$binary"
echo "== the server under a crew (locks on every route, limits by token or address, trickling and endless bodies, the form's rules, --exec/--keep-original/--name, the team file)"
"$python" "$here/crew_test.py" "$binary"
echo "== HTTPS with the certificate made on first use"
"$python" "$here/tls_test.py" "$binary"
echo "== in Chromium"
"$python" "$here/browser_test.py" "$binary" .build/web
echo "== the public check page (/verify): photos and codes over sockets, serve --verify-only, in Chromium"
"$python" "$here/check_test.py" "$binary" .build/web
echo "== the page in the browser's language"
"$python" "$here/language_test.py" "$binary"
echo "== two people shoot with their own phones in Chromium over HTTPS (the CA trusted): live stamp, review, offline, gallery"
"$python" "$here/phone_test.py" "$binary" .build/web
echo "== the lead's page: who may see it, the day's photos, filters, files deleted or replaced, downloads"
"$python" "$here/lead_test.py" "$binary"
echo "== the lead's page in Chromium at a phone's and a laptop's size"
"$python" "$here/lead_browser_test.py" "$binary" .build/web
