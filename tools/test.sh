#!/usr/bin/env bash
# test.sh: set up and build (tools/setup.sh), run the lit suite in test/
# against each requested LLVM (tools/llvm.sh: LLVM_VERSION unset = 22,
# 19, 22, or all), print a line per LLVM, and end with one line
# "N passed, N failed" (the sum over the LLVMs). XFAIL counts as passed;
# XPASS, UNRESOLVED and TIMEOUT count as failed; UNSUPPORTED tests are
# named in the per-LLVM line only. Exits nonzero if anything failed or no
# test ran. Extra arguments go to lit, e.g. `bash tools/test.sh --filter Plugin`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

source tools/llvm.sh

if ! bash tools/setup.sh; then
  echo "test: set-up or build failed" >&2
  echo "0 passed, 0 failed"
  exit 1
fi

# lit_cmd MAJOR: a lit to run (any LLVM's works; LLVM 19's llvm-19-tools
# ships only lit.py).
lit_cmd() {
  local bin=/usr/lib/llvm-$1/bin lit_py=/usr/lib/llvm-$1/build/utils/lit/lit.py
  if [ -x "$bin/lit" ]; then
    echo "$bin/lit"
  elif [ -f "$lit_py" ]; then
    echo "python3 $lit_py"
  fi
}

# count RESULTS: "PASSED FAILED SKIPPED" from lit's JSON report (one entry
# per test with its result code).
count() {
  python3 - "$1" <<'PY'
import json, sys
try:
    tests = json.load(open(sys.argv[1]))["tests"]
except (OSError, ValueError, KeyError):
    tests = []
ok = {"PASS", "XFAIL", "FLAKYPASS"}
skip = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}
p = sum(t["code"] in ok for t in tests)
s = sum(t["code"] in skip for t in tests)
print(p, len(tests) - p - s, s)
PY
}

rc=0 total_p=0 total_f=0 lines=()
for v in $LT_VERSIONS; do
  build=${BUILD:-$(lt_build_dir "$v")}
  lit=$(lit_cmd "$v")
  [ -n "$lit" ] || lit=$(lit_cmd "$LT_NEWEST")
  if [ -z "$lit" ]; then
    echo "test: no lit found for LLVM $v" >&2
    rc=1
    continue
  fi
  mkdir -p "$build/test"
  results="$build/test/results.json"
  rm -f "$results"
  start=$SECONDS
  # shellcheck disable=SC2086 # $lit may be "python3 .../lit.py"
  LEANTAPE_BUILD_DIR=$build $lit -sv -o "$results" "$@" test || rc=1
  read -r p f s < <(count "$results")
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
    echo "test: no test ran against LLVM $v" >&2
    rc=1
  fi
  [ "$f" -eq 0 ] || rc=1
  total_p=$((total_p + p)) total_f=$((total_f + f))
  line="LLVM $v ($build): $p passed, $f failed"
  [ "$s" -eq 0 ] || line+=", $s unsupported"
  lines+=("$line in $((SECONDS - start)) s")
done

[ ${#lines[@]} -eq 0 ] || printf '%s\n' "${lines[@]}"
echo "$total_p passed, $total_f failed"
exit "$rc"
