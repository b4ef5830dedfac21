#!/usr/bin/env bash
# mpirun.sh MPIRUN NP PROG [ARGS...]: lit's %mpirun. Runs PROG on NP ranks
# (as root, oversubscribed: CI runs as root on 2 cores) and exits with
# mpirun's status, with one exception: Open MPI 4's launcher sometimes
# reports a rank that has finalized and exited cleanly as "exiting
# improperly" (a race between the rank's exit and its sync with mpirun,
# open-mpi/ompi#7833 and #12607, seen once in CI on mpi-request-copy.c
# under load). When that is mpirun's complaint, no check FAILED, and every
# rank printed "all checks passed" (lt_done, which the tests call after
# MPI_Finalize: each rank got through all its checks and finalized), the
# run is taken as passed, and says so. Any other failure stays one.
# Each run gets a session directory of its own (TMPDIR): two mpiruns that
# lit starts at once under one temporary directory both mkdir ompi.<host>.0
# and one fails ("A call to mkdir was unable to create the desired
# directory ... File exists", orte_init failed: Integration/mpi-anysource.c
# in CI).
mpirun=$1
np=$2
shift 2
out=$(mktemp)
sess=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$sess"' EXIT
TMPDIR=$sess "$mpirun" --allow-run-as-root --oversubscribe -np "$np" "$@" >"$out" 2>&1
rc=$?
cat "$out"
if [ "$rc" -ne 0 ] && grep -q "exiting improperly" "$out" && ! grep -q "FAILED" "$out" &&
  [ "$(grep -cx 'all checks passed' "$out")" -ge "$np" ]; then
  echo "mpirun.sh: every rank passed its checks and finalized; mpirun's \"exiting improperly\"" \
    "is Open MPI's exit race (open-mpi/ompi#7833): taken as passed"
  exit 0
fi
exit "$rc"
