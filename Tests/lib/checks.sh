# checks.sh — sourced by the shell test scripts (bash, or busybox sh in the vivid VM).
#
#   check DESCRIPTION COMMAND...   runs COMMAND; prints "ok   - DESCRIPTION" or "FAIL - DESCRIPTION"
#                                  and counts into $passed and $failed
#   wait_until SECONDS COMMAND...  runs COMMAND every 0.1 s until it succeeds (status 0). SECONDS is
#                                  a failsafe, never the wait a test expects: when it passes, a line
#                                  on stderr names COMMAND and the status is 1
#   isolate DIR                    points HOME and the XDG folders into DIR, so stampcam never reads
#                                  the user's config or writes into their catalog, cache or pictures
passed=0 failed=0
check() {
    what=$1; shift
    if "$@" >/dev/null 2>&1; then
        passed=$((passed + 1)); echo "ok   - $what"
    else
        failed=$((failed + 1)); echo "FAIL - $what"
    fi
}
wait_until() {
    tries=$(($1 * 10)); shift
    while ! "$@" >/dev/null 2>&1; do
        tries=$((tries - 1))
        if [ "$tries" -le 0 ]; then echo "wait_until: gave up waiting for: $*" >&2; return 1; fi
        sleep 0.1
    done
}
isolate() {
    export HOME=$1/home XDG_CONFIG_HOME=$1/config XDG_DATA_HOME=$1/data XDG_CACHE_HOME=$1/cache \
        XDG_PICTURES_DIR=$1/pictures
    mkdir -p "$HOME" "$XDG_CONFIG_HOME"
}
