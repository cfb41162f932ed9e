#!/usr/bin/env bash
# vm.sh — run a program against a virtual V4L2 camera (the kernel's vivid driver)
# inside a throw-away qemu VM, so capture code can be tested on machines that have
# no camera and no /dev/kvm.
#
#   vm.sh kernel CACHE_DIR
#       Install the host tools, fetch + unpack Debian's kernel into CACHE_DIR (once),
#       print the vmlinuz path.
#   vm.sh ensure-packages PKG...
#       Install the Debian packages that are missing (for callers' own tools).
#   vm.sh run CACHE_DIR PAYLOAD_DIR SCRIPT [TIMEOUT_SECONDS]
#       Boot the kernel with vivid loaded, copy PAYLOAD_DIR to /payload in the VM,
#       run SCRIPT there with busybox sh (cwd /payload, PATH has /payload/bin),
#       exit with SCRIPT's status. Files the script leaves in /payload/out come
#       back in PAYLOAD_DIR/out-from-vm/. The full console log is kept in
#       PAYLOAD_DIR/vm-console.log.
#
# Environment knobs (all optional):
#   VIVID_PARAMS      vivid module parameters (default: one webcam,
#                     "n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0")
#   VIVID_MEM         VM memory in MiB (default 1024; the initramfs lives in RAM)
#   VIVID_SMP         virtual processors (default 1: the host's other core belongs to other work)
#   VIVID_MODULES     more modules to load after vivid, with what they depend on:
#                     "NAME[:PARAM,PARAM...] ..." (e.g. "loop vfat exfat nls_cp437 nls_iso8859_1")
#   VIVID_HOST_PATHS  space-separated host files/dirs to copy into the VM at the same
#                     absolute path (e.g. "/etc/fonts /usr/share/fonts/truetype/dejavu");
#                     ELF files among them get their libraries too
#   VIVID_VERBOSE=1   stream the whole console (kernel log included) instead of only
#                     the script's output
set -eu

HOST_PACKAGES="qemu-system-x86 busybox-static kmod cpio xz-utils"
# One webcam-type capture device with one camera input. Error injection stays on
# (no no_error_inj=1): tests use its Disconnect / streaming-error controls.
DEFAULT_VIVID_PARAMS="n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0"

die() { echo "vm.sh: $*" >&2; exit 2; }

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed -e '/^set -eu/d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

# Install whatever of "$@" is missing; `apt-get update` only when something is.
ensure_packages() {
    "$(dirname "$0")/../lib/ensure-packages.sh" "$@"
}

# --- kernel ------------------------------------------------------------------------

# Sets KVER and KROOT (the unpacked .deb), downloading it the first time.
prepare_kernel() {
    local cache=$1
    # shellcheck disable=SC2086 # a word list on purpose
    ensure_packages $HOST_PACKAGES
    mkdir -p "$cache"
    cache=$(cd "$cache" && pwd)
    KROOT=$cache/kernel
    # Parallel first runs (make -j) must not download into the same folder at once.
    exec 9>"$cache/.kernel.lock"
    flock 9
    if [ -f "$KROOT/VERSION" ]; then   # written last, so its presence means "complete"
        KVER=$(cat "$KROOT/VERSION")
        exec 9>&-
        return 0
    fi

    # The kernel that Debian's linux-image-amd64 currently points to.
    local pkg
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
    if [ -z "$pkg" ]; then   # fresh machine: no package lists yet
        apt-get update -qq >&2
        pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
    fi
    [ -n "$pkg" ] || die "cannot resolve the kernel package behind linux-image-amd64"
    KVER=${pkg#linux-image-}
    echo "vm.sh: fetching $pkg" >&2

    # Unpack into a scratch dir and rename at the end, so an interrupted run
    # never leaves a half-unpacked cache behind.
    local tmp=$cache/kernel.tmp
    rm -rf "$tmp" && mkdir -p "$tmp/root"
    (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg" >&2)
    dpkg-deb -x "$tmp"/"$pkg"_*.deb "$tmp/root"
    rm -f "$tmp"/*.deb
    # The .deb ships no modules.dep (the postinst makes it); we need it to resolve
    # vivid's dependencies.
    depmod -b "$tmp/root" "$KVER"
    [ -f "$tmp/root/boot/vmlinuz-$KVER" ] || die "no vmlinuz-$KVER in $pkg"
    echo "$KVER" >"$tmp/root/VERSION"
    rm -rf "$KROOT"
    mv "$tmp/root" "$KROOT"
    rmdir "$tmp"
    exec 9>&-
}

cmd_kernel() {
    [ $# = 1 ] || usage
    prepare_kernel "$1"
    echo "$KROOT/boot/vmlinuz-$KVER"
}

# --- initramfs ---------------------------------------------------------------------

# Copy a host file into the staging tree at the same absolute path. The directory
# part is canonicalised (Debian 12 has /lib -> usr/lib), the name is kept (ldd
# names libraries by soname, which is usually a symlink) and the content is copied.
stage_host_file() {
    local src=$1 root=$2 dir
    dir=$(readlink -f "$(dirname "$src")")
    mkdir -p "$root$dir"
    cp -L "$src" "$root$dir/$(basename "$src")"
}

is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }

# Stage the shared libraries (and the dynamic loader) an ELF file needs.
stage_libraries_of() {
    local elf=$1 root=$2 out lib
    # ldd fails on static binaries and non-executables; that just means "nothing to add".
    out=$(ldd "$elf" 2>/dev/null) || return 0
    if echo "$out" | grep -q 'not found'; then
        echo "$out" | grep 'not found' >&2
        die "$elf needs libraries that are missing on this host"
    fi
    # "libx.so.1 => /path/libx.so.1 (0x..)" and "/lib64/ld-linux-x86-64.so.2 (0x..)"
    for lib in $(echo "$out" | sed -n -e 's/.*=> \(\/[^ ]*\) (0x.*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p'); do
        [ -e "$root$(readlink -f "$(dirname "$lib")")/$(basename "$lib")" ] || stage_host_file "$lib" "$root"
    done
    stage_opened_libraries_of "$elf" "$root"
}

# Stage the libraries an ELF file opens with dlopen when first needed: the sonames it names but
# does not link (stampcam's libmicrohttpd, libgps and PROJ), and what
# they need. Not libheif: no HEIC is read in the VM, and its codecs would double the initramfs.
stage_opened_libraries_of() {
    local elf=$1 root=$2 linked soname lib
    linked=$(readelf -d "$elf" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p') || return 0
    for soname in $(grep -aoE 'lib[a-zA-Z0-9_+.-]*\.so\.[0-9]+(\.[0-9]+)*' "$elf" | sort -u); do
        case $soname in libheif.*) continue ;; esac
        echo "$linked" | grep -qxF "$soname" && continue
        lib=$(ldconfig -p | awk -v name="$soname" '$1 == name { print $NF; exit }')
        [ -n "$lib" ] || continue
        [ -e "$root$(readlink -f "$(dirname "$lib")")/$(basename "$lib")" ] && continue
        stage_host_file "$lib" "$root"
        stage_libraries_of "$lib" "$root"
    done
}

# The /init that runs inside the VM. Markers on the console tell the host what happened.
write_init() {
    cat >"$1" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/payload/bin:/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp TMPDIR=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run

setup_failed() {
    echo "VIVID-SETUP-FAILED: $*"
    poweroff -f
}

# Modules in dependency order, decompressed on the host; "name params" per line.
while read -r mod params; do
    insmod "/lib/modules/$mod.ko" $params || setup_failed "insmod $mod $params"
done </modules.list

# devtmpfs creates the nodes asynchronously; wait a little for them.
i=0
while [ ! -e /dev/video0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -e /dev/video0 ] || setup_failed "no /dev/video0 after loading vivid"
# Tests may drop root; make every V4L2/media node usable by anyone.
chmod 666 /dev/video* /dev/v4l-subdev* /dev/media* /dev/radio* /dev/swradio* /dev/vbi* 2>/dev/null

mkdir -p /payload/out
cd /payload
echo "VIVID-SCRIPT-BEGIN"
sh /vivid-script.sh </dev/null
status=$?
echo "VIVID-SCRIPT-END"

# Quiet the kernel so no printk lands inside the base64 block.
echo 1 >/proc/sys/kernel/printk
cd /payload
if [ -n "$(ls -A out)" ]; then
    echo "VIVID-OUT-BEGIN"
    tar -cf - out | gzip -1 | base64
    echo "VIVID-OUT-END"
fi
echo "VIVID-EXIT-STATUS=$status"
sync
poweroff -f
EOF
    chmod 755 "$1"
}

# Build the initramfs for PAYLOAD_DIR + SCRIPT into $2 (a .cpio.gz file).
build_initramfs() {
    local payload=$1 initrd=$2 script=$3 stage=$4
    local kmods=$KROOT/lib/modules/$KVER
    # Debian 12 merged /usr: mirror its top-level symlinks (/lib -> usr/lib, ...) so
    # library paths from ldd resolve the same way in the VM.
    local d
    mkdir -p "$stage"
    for d in /lib /lib32 /lib64 /libx32; do
        if [ -L "$d" ]; then
            mkdir -p "$stage/$(readlink "$d")"
            ln -s "$(readlink "$d")" "$stage$d"
        fi
    done
    mkdir -p "$stage"/bin "$stage"/proc "$stage"/sys "$stage"/dev "$stage"/tmp \
             "$stage"/run "$stage"/etc "$stage"/root "$stage"/lib/modules "$stage"/payload

    cp /bin/busybox "$stage/bin/busybox"
    printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$stage/etc/passwd"
    printf 'root:x:0:\nvideo:x:44:\nnogroup:x:65534:\n' >"$stage/etc/group"

    # vivid and everything it depends on, in load order, as plain .ko files
    # (busybox insmod cannot read Debian's .ko.xz).
    local line path name wanted module params
    : >"$stage/modules.list"
    for wanted in "vivid:$(echo "${VIVID_PARAMS-$DEFAULT_VIVID_PARAMS}" | tr ' ' ,)" ${VIVID_MODULES:-}; do
        module=${wanted%%:*}
        params=$(echo "${wanted#"$module"}" | sed 's/^://' | tr , ' ')
        while read -r _ path _; do
            name=$(basename "$path"); name=${name%%.ko*}
            grep -q "^$name\( \|$\)" "$stage/modules.list" && continue   # loaded for an earlier module
            case "$path" in
                *.xz) xz -dc "$path" >"$stage/lib/modules/$name.ko" ;;
                *.zst) zstd -dqc "$path" >"$stage/lib/modules/$name.ko" ;;
                *) cp "$path" "$stage/lib/modules/$name.ko" ;;
            esac
            if [ "$name" = "$(echo "$module" | tr - _)" ] && [ -n "$params" ]; then line="$name $params"; else line=$name; fi
            echo "$line" >>"$stage/modules.list"
        done < <(modprobe -d "$KROOT" -S "$KVER" --show-depends "$module" | grep '^insmod ')
    done
    grep -q '^vivid' "$stage/modules.list" || die "could not resolve vivid's modules in $kmods"

    # The payload (minus what earlier runs brought back) and the libraries it needs.
    tar -C "$payload" --exclude=./out-from-vm --exclude=./vm-console.log -cf - . | tar -C "$stage/payload" -xf -
    local f
    while IFS= read -r -d '' f; do
        if is_elf "$f"; then stage_libraries_of "$f" "$stage"; fi
    done < <(find "$stage/payload" -type f -print0)

    # Optional host files at their own paths (fonts, configs, dlopen'ed plugins, …).
    local p
    for p in ${VIVID_HOST_PATHS:-}; do
        [ -e "$p" ] || die "VIVID_HOST_PATHS: $p does not exist"
        mkdir -p "$stage$(readlink -f "$(dirname "$p")")"
        cp -aL "$p" "$stage$(readlink -f "$(dirname "$p")")/"
        while IFS= read -r -d '' f; do
            if is_elf "$f"; then stage_libraries_of "$f" "$stage"; fi
        done < <(find "$p" -type f -print0)
    done

    cp "$script" "$stage/vivid-script.sh"
    write_init "$stage/init"
    # gzip -1: the VM decompresses it with an emulated CPU, so a smaller archive
    # does not buy anything; -1 keeps the host side fast.
    (cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$initrd"
}

# --- run ---------------------------------------------------------------------------

cmd_run() {
    [ $# = 3 ] || [ $# = 4 ] || usage
    local cache=$1 payload=$2 script=$3 timeout=${4:-120}
    [ -d "$payload" ] || die "payload dir $payload does not exist"
    [ -f "$script" ] || die "script $script does not exist"
    case "$timeout" in ''|*[!0-9]*) die "timeout must be a number of seconds" ;; esac
    prepare_kernel "$cache"
    payload=$(cd "$payload" && pwd)

    local work
    work=$(mktemp -d "${TMPDIR:-/tmp}/vivid-vm.XXXXXX")
    # shellcheck disable=SC2064
    trap "rm -rf '$work'" EXIT
    local t0=$SECONDS
    build_initramfs "$payload" "$work/initrd.gz" "$script" "$work/stage"
    echo "vm.sh: initramfs $(du -h "$work/initrd.gz" | cut -f1) built in $((SECONDS - t0)) s; booting (timeout ${timeout} s)" >&2

    local log=$payload/vm-console.log outdir=$payload/out-from-vm
    rm -rf "$outdir" && mkdir -p "$outdir"

    # Show only what the script prints (between the markers, minus the file dump),
    # unless VIVID_VERBOSE=1; the full console always goes to the log.
    local filter='
        { sub(/\r$/, "") }
        /^VIVID-SCRIPT-BEGIN$/ { show = 1; next }
        /^VIVID-SCRIPT-END$/   { show = 0; next }
        /^VIVID-SETUP-FAILED:/ { print; fflush() }
        show { print; fflush() }'
    [ "${VIVID_VERBOSE:-0}" = 1 ] && filter='{ sub(/\r$/, ""); print; fflush() }'

    # -cpu max: emulate every CPU feature TCG can, so host-built binaries and
    # libraries (possibly built for newer x86-64 levels) run. -smp 1 unless told:
    # the host's other core belongs to other work.
    # panic=-1 + -no-reboot: a guest panic ends qemu at once instead of hanging.
    # --foreground: keep qemu in our process group so Ctrl-C reaches it.
    t0=$SECONDS
    local qstatus
    set +e
    timeout --foreground -k 5 "$timeout" qemu-system-x86_64 \
        -accel tcg -cpu max -smp "${VIVID_SMP:-1}" -m "${VIVID_MEM:-1024}" \
        -display none -monitor none -serial stdio -no-reboot \
        -kernel "$KROOT/boot/vmlinuz-$KVER" -initrd "$work/initrd.gz" \
        -append "console=ttyS0 panic=-1 quiet" \
        </dev/null 2>&1 | tee "$log" | awk "$filter"
    qstatus=${PIPESTATUS[0]}
    set -e
    local elapsed=$((SECONDS - t0))

    # On failure, show the end of the console unless it was already on screen.
    show_log_tail() {
        if [ ! -s "$log" ]; then
            echo "vm.sh: the console stayed empty: the kernel died before its console came up (too little VIVID_MEM?)" >&2
        elif [ "${VIVID_VERBOSE:-0}" != 1 ] && ! grep -q '^VIVID-SCRIPT-BEGIN' "$log"; then
            echo "vm.sh: last console lines:" >&2
            tail -n 25 "$log" | tr -d '\r' | sed 's/^/    /' >&2
        fi
    }

    if [ "$qstatus" = 124 ] || [ "$qstatus" = 137 ]; then
        echo "vm.sh: FAIL: VM timed out after ${timeout} s and was killed (console log: $log)" >&2
        show_log_tail
        exit 124
    fi

    # Bring /payload/out back (a gzip'ed tar, base64 on the console).
    if grep -q '^VIVID-OUT-BEGIN' "$log"; then
        tr -d '\r' <"$log" | sed -n '/^VIVID-OUT-BEGIN$/,/^VIVID-OUT-END$/p' | sed '1d;$d' \
            | base64 -d | tar -xzf - -C "$outdir" --strip-components=1 \
            || { echo "vm.sh: FAIL: could not decode the files sent back from the VM" >&2; exit 125; }
    fi

    local status
    status=$(tr -d '\r' <"$log" | sed -n 's/^VIVID-EXIT-STATUS=\([0-9][0-9]*\)$/\1/p' | tail -n 1)
    if [ -z "$status" ]; then
        local why="VM ended without reporting the script's exit status"
        grep -q 'VIVID-SETUP-FAILED' "$log" && why="VM setup failed: $(grep -a -m1 'VIVID-SETUP-FAILED' "$log" | tr -d '\r')"
        grep -qa 'Kernel panic' "$log" && why="kernel panic: $(grep -a -m1 'Kernel panic' "$log" | tr -d '\r')"
        echo "vm.sh: FAIL: $why (qemu exit $qstatus; console log: $log)" >&2
        show_log_tail
        exit 125
    fi
    echo "vm.sh: script exited with status $status; VM ran ${elapsed} s" >&2
    exit "$status"
}

case "${1:-}" in
    kernel) shift; cmd_kernel "$@" ;;
    ensure-packages) shift; ensure_packages "$@" ;;
    run) shift; cmd_run "$@" ;;
    *) usage ;;
esac
