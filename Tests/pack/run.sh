#!/usr/bin/env bash
# run.sh DEB VERSION — the package as a user gets it: lintian finds no error; unpacked into a
# throwaway root, its stampcam runs test-card and apply with no Swift toolchain on PATH or on the
# library path; its manual page renders; its bash completion completes commands, options and styles;
# the zsh and fish completions parse. Prints `pack: N passed, M failed`; exits 0 only when all passed.
set -u
deb=$1 version=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/checks.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root

check "the package exists" test -f "$deb"
lintian --fail-on error,warning --suppress-tags no-copyright-file "$deb" > "$work/lintian.txt" 2>&1
check "lintian reports no errors or warnings ($(grep -c '' "$work/lintian.txt") lines)" test $? = 0
sed 's/^/  lintian: /' "$work/lintian.txt"
dpkg-deb --info "$deb" > "$work/info.txt"
check "Depends is computed (libc6, libjpeg, cairo …) and names the fonts" \
    sh -c "grep -q 'Depends: .*libc6.*libjpeg62-turbo.*fonts-dejavu-core' '$work/info.txt'"
dpkg -x "$deb" "$root"
bin=$root/usr/bin/stampcam

# No toolchain anywhere: a clean environment, and the binary's libraries all Debian's.
clean() { env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$@"; }
check "no library from the Swift toolchain" sh -c "! ldd '$bin' | grep -q /opt/swift"
[ "$(clean "$bin" --version)" = "stampcam ${version%-*}" ]; check "--version is the package's (${version%-*})" test $? = 0
clean "$bin" test-card -o "$work/card" --user "Pack Test" > "$work/card.out" 2> "$work/card.err"
check "test-card runs from the unpacked package (its data found beside the binary)" test $? = 0
check "test-card wrote its photo" test -s "$work/card/test-card.jpg"
# The card is stamped already: --stamp-again.
clean "$bin" apply "$work/card/test-card.jpg" -o "$work/stamped" --max-size 320 --stamp-again > "$work/apply.out" 2> "$work/apply.err"
check "apply runs from the unpacked package" test $? = 0
check "apply wrote a 320 px photo" sh -c "file '$work/stamped/test-card.jpg' | grep -q '320x180'"
# The message catalogues come with the package: Spanish where no es locale is generated.
clean "$bin" apply --help --lang es > "$work/help-es.out" 2>&1
check "the catalogues are installed and found: --lang es prints Spanish help" sh -c "head -1 '$work/help-es.out' | grep -q '^uso: stampcam apply'"
check "Depends names SQLite (the photo log)" sh -c "grep -q 'Depends: .*libsqlite3-0' '$work/info.txt'"
depends=$(sed -n 's/^ *Depends: //p' "$work/info.txt")
for package in libcairo2 libpango-1.0-0 libfontconfig1 libexif12 libxml2 libssl3; do
    case ", $depends" in *", $package "*) ok=0 ;; *) ok=1 ;; esac
    check "Depends names $package (linked, found by dpkg-shlibdeps)" test $ok = 0
done
check "Recommends names the optional features' libraries, opened on use (HEIC, serve, live GPS, grid references)" \
    sh -c "grep -q 'Recommends: .*libheif1 (>= ' '$work/info.txt' && grep -q 'Recommends: .*libgps28 (>= .*libmicrohttpd12 (>= ' '$work/info.txt' \
           && grep -q 'Recommends: .*libproj25 (>= ' '$work/info.txt'"
check "apply logged its photo in the catalog in ~/.local/share, and log lists it" \
    sh -c "test -s '$work/home/.local/share/stampcam/catalog.sqlite' && test \"\$(env -i PATH=/usr/bin:/bin HOME='$work/home' '$bin' log)\" = '$work/stamped/test-card.jpg'"
# The place names come with the package, credited: {place} works without a step of its own.
clean "$bin" places 60.1699,24.9384 > "$work/places.out" 2>&1
check "{place} from the package's table: town, region and country" sh -c "tail -1 '$work/places.out' | grep -q '^nearest: Helsinki, Uusimaa, FI'"
check "the copyright credits GeoNames (CC BY 4.0) for the place names" \
    sh -c "grep -q 'GeoNames' '$root/usr/share/doc/stampcam/copyright' && grep -q 'CC-BY-4.0' '$root/usr/share/doc/stampcam/copyright'"
clean "$bin" doctor > "$work/doctor.out" 2>&1
check "doctor finds the package's place names" sh -c "grep -q '^ok       places' '$work/doctor.out'"
cat "$work/card.err" "$work/apply.err" | sed 's/^/  stderr: /'

# The manual page: renders without warnings and has every command and option.
man=$root/usr/share/man/man1/stampcam.1.gz
MANWIDTH=100 man --warnings -l "$man" > "$work/man.txt" 2> "$work/man.err"
check "man renders the page" test -s "$work/man.txt"
check "man has no warnings" test ! -s "$work/man.err"
sed 's/^/  man: /' "$work/man.err"
check "the page lists every command and their options" \
    sh -c "grep -q 'stampcam apply' '$work/man.txt' && grep -q 'stampcam shoot' '$work/man.txt' && grep -q -- '--skip-existing' '$work/man.txt' && grep -q -- '--shard' '$work/man.txt'"

# Bash completion, asked as bash asks it.
complete_words() {  # complete_words WORD... : what bash completion offers for the last word
    PATH="$root/usr/bin:/usr/bin:/bin" STAMPCAM_DATA="$root/usr/share/stampcam" bash -c '
        source "$0"; COMP_WORDS=("${@}"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _stampcam; printf "%s\n" "${COMPREPLY[@]}"' \
        "$root/usr/share/bash-completion/completions/stampcam" "$@"
}
[ "$(complete_words stampcam ap | tr '\n' ' ')" = "apply " ]; check "bash: 'ap' → apply" test $? = 0
complete_words stampcam apply --sk | grep -qx -- --skip-existing; check "bash: 'apply --sk' → --skip-existing" test $? = 0
complete_words stampcam shoot -t '' | grep -qx site-report; check "bash: 'shoot -t ' offers the style ids" test $? = 0
complete_words stampcam shoot --device '' | grep -qx test; check "bash: '--device ' offers the cameras and test" test $? = 0
zsh -n "$root/usr/share/zsh/vendor-completions/_stampcam"; check "the zsh completion parses" test $? = 0
fish -n "$root/usr/share/fish/vendor_completions.d/stampcam.fish"; check "the fish completion parses" test $? = 0

echo "pack: $passed passed, $failed failed"
[ "$failed" = 0 ]
