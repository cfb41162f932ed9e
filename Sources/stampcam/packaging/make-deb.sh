#!/usr/bin/env bash
# make-deb.sh BINARY VERSION OUTDIR [PLACES] — builds stampcam_VERSION_ARCH.deb from the static-stdlib
# binary: the binary in /usr/bin, the data in /usr/share/stampcam (with the GeoNames place table
# PLACES when given, for {place}), the message catalogues `make locales` compiled in /usr/share/locale, the manual page and shell completions made by the binary itself
# from its option tables, the copyright and changelog beside this script.
# Depends is computed from the binary by dpkg-shlibdeps, never typed by hand. The optional features'
# libraries, opened with dlopen when first used (libheif, libmicrohttpd, libgps, PROJ: the
# sonames the binary names but does not link), are invisible to it: they are Recommends, their
# packages named from dpkg's own database, at least the version built against.
set -euo pipefail
# The manual page and completions are written in English whatever the builder's language.
export LC_ALL=C
binary=$1 version=$2 out=$3 places=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
root_dir=$(cd "$here/../../.." && pwd)
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg=$work/root
install -d "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/share/stampcam" "$pkg/usr/share/man/man1" \
    "$pkg/usr/share/doc/stampcam" "$pkg/usr/share/bash-completion/completions" \
    "$pkg/usr/share/zsh/vendor-completions" "$pkg/usr/share/fish/vendor_completions.d"
install -m 755 "$binary" "$pkg/usr/bin/stampcam"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/stampcam"
install -d "$pkg/usr/share/stampcam/fonts" "$pkg/usr/share/stampcam/templates"
install -m 644 "$root_dir/fonts/fonts.conf" "$pkg/usr/share/stampcam/fonts/"
install -m 644 "$root_dir"/templates/*.json "$pkg/usr/share/stampcam/templates/"
install -m 644 "$root_dir/templates/README.md" "$pkg/usr/share/doc/stampcam/templates.md"
if [ -n "$places" ] && [ -f "$places" ]; then
    install -d "$pkg/usr/share/stampcam/places"
    install -m 644 "$places" "$pkg/usr/share/stampcam/places/cities1000.csv"
fi
for mo in "$root_dir"/.build/locale/*/LC_MESSAGES/stampcam.mo; do
    [ -f "$mo" ] || continue
    language=$(basename "$(dirname "$(dirname "$mo")")")
    install -d "$pkg/usr/share/locale/$language/LC_MESSAGES"
    install -m 644 "$mo" "$pkg/usr/share/locale/$language/LC_MESSAGES/stampcam.mo"
done
STAMPCAM_DATA="$root_dir" "$binary" --man | gzip -9n > "$pkg/usr/share/man/man1/stampcam.1.gz"
STAMPCAM_DATA="$root_dir" "$binary" completion bash > "$pkg/usr/share/bash-completion/completions/stampcam"
STAMPCAM_DATA="$root_dir" "$binary" completion zsh > "$pkg/usr/share/zsh/vendor-completions/_stampcam"
STAMPCAM_DATA="$root_dir" "$binary" completion fish > "$pkg/usr/share/fish/vendor_completions.d/stampcam.fish"
install -m 644 "$here/copyright" "$pkg/usr/share/doc/stampcam/copyright"
gzip -9n < "$here/changelog" > "$pkg/usr/share/doc/stampcam/changelog.Debian.gz"
chmod 644 "$pkg/usr/share/bash-completion/completions/stampcam" "$pkg/usr/share/zsh/vendor-completions/_stampcam" \
    "$pkg/usr/share/fish/vendor_completions.d/stampcam.fish" "$pkg/usr/share/doc/stampcam/changelog.Debian.gz" \
    "$pkg/usr/share/man/man1/stampcam.1.gz"

# dpkg-shlibdeps reads debian/control from where it runs: give it the smallest one.
mkdir -p "$work/src/debian"
printf 'Source: stampcam\n\nPackage: stampcam\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O "$pkg/usr/bin/stampcam" | sed -n 's/^shlibs:Depends=//p')
recommends=""
linked=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for soname in $(grep -aoE 'lib[a-zA-Z0-9_+.-]*\.so\.[0-9]+(\.[0-9]+)*' "$binary" | sort -u); do
    grep -qxF "$soname" <<< "$linked" && continue
    # awk reads to the end: leaving early would kill ldconfig with SIGPIPE, a failure under pipefail.
    file=$(ldconfig -p | awk -v name="$soname" '$1 == name && !found { print $NF; found = 1 }')
    [ -n "$file" ] || { echo "make-deb.sh: $soname (opened at run time) is not installed here" >&2; exit 1; }
    package=$(dpkg-query -S "$(readlink -f "$file")" | cut -d: -f1)
    recommends+="${recommends:+, }$package (>= $(dpkg-query -W -f='${source:Upstream-Version}' "$package"))"
done
size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: stampcam
Version: $version
Architecture: $arch
Maintainer: stampcam authors <stampcam@example.org>
Installed-Size: $size
Depends: $depends, fonts-dejavu-core, fonts-wqy-microhei, tzdata
Recommends: $recommends
Section: graphics
Priority: optional
Description: watermark camera: who, when, where and which project on every photo
 stampcam takes photos from V4L2 cameras, or stamps existing JPEG photos,
 with a watermark showing the time, the user, the place and the project,
 burned into the pixels and kept in the metadata. Batch stamping uses every
 core, never touches the originals and resumes after an interruption; the
 terminal camera works over SSH.
CONTROL
mkdir -p "$out"
deb=$out/stampcam_${version}_${arch}.deb
dpkg-deb --build --root-owner-group -Zxz "$pkg" "$deb" > /dev/null
echo "$deb"
