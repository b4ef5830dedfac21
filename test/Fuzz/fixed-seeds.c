// Random differential testing (issue 3, item 4): 20 fixed seeds of
// tools/fuzz/gen.py, each compiled at -O0 and -O2 through the plugin and
// checked against central finite differences (see tools/fuzz/run.sh).
//
// For now this runs whatever mix the generator produces: until loop reversal
// lands most loop programs are clean SKIPs ("loops are not supported yet"),
// which run.sh does not count as failures; crashes and wrong gradients fail.
// The second line pins loop-free programs, which must all pass today.
// TODO(lead): after loops land, drop the --no-loops line (or keep it cheap)
// and consider making SKIPs fail for the loop run.
//
// RUN: bash %S/../../tools/fuzz/run.sh -n 20 -s 1 -O "0 2" -j 2
// RUN: bash %S/../../tools/fuzz/run.sh -n 5 -s 1001 -O "0 2" -j 2 -g --no-loops
