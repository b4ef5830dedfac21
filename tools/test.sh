#!/usr/bin/env bash
# test.sh: set up and build (tools/setup.sh), run the lit suite in test/,
# and end with one line "N passed, N failed" (", N skipped" when some were
# unsupported). XFAIL counts as passed; XPASS, UNRESOLVED and TIMEOUT count
# as failed. Exits nonzero if anything failed or no test ran.
# Extra arguments go to lit, e.g. `bash tools/test.sh --filter Plugin`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

BUILD=${LEANTAPE_BUILD_DIR:-build}
LIT=/usr/lib/llvm-22/bin/lit

if ! bash tools/setup.sh; then
  echo "test: set-up or build failed" >&2
  echo "0 passed, 0 failed"
  exit 1
fi

mkdir -p "$BUILD/test"
RESULTS="$BUILD/test/results.json"
rm -f "$RESULTS"
"$LIT" -sv -o "$RESULTS" "$@" test
lit_rc=$?

# Count from lit's JSON report (one entry per test with its result code).
summary=$(python3 - "$RESULTS" <<'PY'
import json, sys
try:
    tests = json.load(open(sys.argv[1]))["tests"]
except (OSError, ValueError, KeyError):
    tests = []
ok = {"PASS", "XFAIL", "FLAKYPASS"}
skip = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}
p = sum(t["code"] in ok for t in tests)
s = sum(t["code"] in skip for t in tests)
f = len(tests) - p - s
line = "%d passed, %d failed" % (p, f)
if s:
    line += ", %d skipped" % s
print(line)
PY
)
[ -n "$summary" ] || summary="0 passed, 0 failed"

rc=0
[ "$lit_rc" -eq 0 ] || rc=1
case "$summary" in
  "0 passed, 0 failed"*) echo "test: no test ran" >&2; rc=1 ;;
  *", 0 failed"*) ;;
  *) rc=1 ;;
esac
echo "$summary"
exit "$rc"
