#!/bin/sh
# Runs an XCTest bundle that `swift build --build-tests` made (on Linux
# `.build/debug/<Package>PackageTests.xctest`) one test class per process, JOBS processes at a
# time (default: the number of cores), so that a machine's every core runs tests; `swift test`
# runs them one after another in one process. Each class's log is printed whole when it ends,
# then one line of totals over every class:
#   run-tests: <bundle>: N executed, S skipped, F failed (C classes, J at a time)
# which .ci/run adds up. A class whose process ends without XCTest's closing line (a crash, a
# precondition) counts as one failure and is named. Exits non-zero when anything failed.
#
# Classes share nothing but the file system: a test writes only below its own temporary folder,
# so classes may run side by side. A class's own tests still run in order, in one process.
#
# Usage: scripts/run-tests.sh BUNDLE [JOBS]
set -eu
bundle="$1"
jobs="${2:-$(nproc)}"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# `--list-tests` prints a header, a blank line, then Module.Class/test per line. Reverse order
# starts the longest first (the end-to-end tests, in the module TactusTests), so that no long
# class is left to run alone at the end.
"$bundle" --list-tests | sed -n 's|^\([A-Za-z0-9_]*\.[A-Za-z0-9_]*\)/.*|\1|p' | sort -u -r > "$logs/classes"
classes="$(wc -l < "$logs/classes")"
if [ "$classes" -eq 0 ]; then echo "run-tests: $bundle lists no tests" >&2; exit 1; fi

# One process per class; its log goes to a file of its own and is printed when it ends, so
# classes running side by side never interleave their lines.
export bundle logs
xargs -P "$jobs" -I CLASS sh -c '
    "$bundle" "CLASS" > "$logs/CLASS.log" 2>&1; echo "$?" > "$logs/CLASS.status"
    cat "$logs/CLASS.log"' < "$logs/classes"

executed=0 skipped=0 failed=0
while read -r class; do
    status="$(cat "$logs/$class.status")"
    totals="$(grep -E 'Executed [0-9]+ tests?, with' "$logs/$class.log" | tail -n 1 || true)"
    if [ -z "$totals" ]; then
        echo "run-tests: $class ended (status $status) without its totals" >&2
        failed=$((failed + 1))
        continue
    fi
    n="$(echo "$totals" | sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p')"
    s="$(echo "$totals" | sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p')"
    f="$(echo "$totals" | sed -nE 's/.* ([0-9]+) failures?.*/\1/p')"
    executed=$((executed + n)) skipped=$((skipped + ${s:-0})) failed=$((failed + f))
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "run-tests: $class exited with status $status" >&2
        failed=$((failed + 1))
    fi
done < "$logs/classes"

echo "run-tests: $(basename "$bundle"): $executed executed, $skipped skipped, $failed failed ($classes classes, $jobs at a time)"
[ "$failed" -eq 0 ]
