# checks.sh — sourced by the vivid test scripts: `check DESCRIPTION COMMAND...` runs COMMAND,
# prints "ok   - DESCRIPTION" or "FAIL - DESCRIPTION" and counts into $passed and $failed.
passed=0 failed=0
check() {
    local what=$1; shift
    if "$@" >/dev/null 2>&1; then
        passed=$((passed + 1)); echo "ok   - $what"
    else
        failed=$((failed + 1)); echo "FAIL - $what"
    fi
}
