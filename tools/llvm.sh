# llvm.sh: sourced by tools/setup.sh, tools/test.sh and tools/demo.sh (not
# run by itself). Picks the LLVM major(s) and the build directory:
#
#   LLVM_VERSION        unset: the newest supported major (22); 19 or 22: that
#                       one; "19 22" or "all": every supported major (setup.sh
#                       and test.sh only)
#   LEANTAPE_BUILD_DIR  the build directory of a single major; default build
#                       for the newest major, build-llvm<major> for the others
#
# Sets LT_MAJORS (the supported majors, from cmake/LeantapeLLVM.cmake, the
# one place that lists them), LT_VERSIONS (the requested majors), and, with
# one requested major, LT_MAJOR, LT_LLVM_BIN (/usr/lib/llvm-<major>/bin) and
# BUILD.

LT_MAJORS=$(sed -n 's/^set(LEANTAPE_LLVM_MAJORS \(.*\))$/\1/p' cmake/LeantapeLLVM.cmake)
LT_NEWEST=${LT_MAJORS##* }

# lt_build_dir MAJOR: the default build directory of MAJOR
lt_build_dir() {
  if [ "$1" = "$LT_NEWEST" ]; then echo build; else echo "build-llvm$1"; fi
}

case "${LLVM_VERSION:-}" in
  "") LT_VERSIONS=$LT_NEWEST ;;
  all) LT_VERSIONS=$LT_MAJORS ;;
  *) LT_VERSIONS=$(printf '%s\n' $LLVM_VERSION | sort -n -u | tr '\n' ' ')
     LT_VERSIONS=${LT_VERSIONS% } ;;
esac
for v in $LT_VERSIONS; do
  case " $LT_MAJORS " in
    *" $v "*) ;;
    *) echo "LLVM_VERSION=$LLVM_VERSION: supported LLVM majors are $LT_MAJORS (or all)" >&2
       exit 2 ;;
  esac
done

LT_MAJOR="" LT_LLVM_BIN="" BUILD=""
case "$LT_VERSIONS" in
  *" "*)
    if [ -n "${LEANTAPE_BUILD_DIR:-}" ]; then
      echo "LEANTAPE_BUILD_DIR names the build of one LLVM major; unset it with" \
        "LLVM_VERSION=\"$LLVM_VERSION\" (builds go to $(for v in $LT_VERSIONS; do
        printf '%s ' "$(lt_build_dir "$v")"; done)| sed 's/ $//'))" >&2
      exit 2
    fi ;;
  *)
    LT_MAJOR=$LT_VERSIONS
    LT_LLVM_BIN=/usr/lib/llvm-$LT_MAJOR/bin
    BUILD=${LEANTAPE_BUILD_DIR:-$(lt_build_dir "$LT_MAJOR")} ;;
esac
