# ckpt-bound.awk: reads LEANTAPE_REPORT=1 output of checkpointed loops
# and checks for each schedule that the steps run again are at most
# (r - 1) T, r the least with C(s + r, s) >= T for s snapshots and T
# steps, and at most the fewest any binomial schedule runs again when the
# forward sweep keeps its first descent's states: (r - 1) T - C(s + r,
# r - 1) + r, plus one where T is C(s + r, s) itself (checked against an
# exhaustive search of the cuts for s < 12, T < 300; the cut rule is
# gen/ckpttv.c's) (test/Integration/checkpoint-schedule.c).
function choose(n, k,    c, i) {
  if (k < 0 || k > n) return 0
  c = 1
  for (i = 1; i <= k; i++) c = c * (n - k + i) / i
  return c
}
/checkpointing [0-9]+ steps: [0-9]+ snapshots/ {
  T = $3 + 0; s = $5 + 0
  r = 1; c = s + 1 # C(s + 1, s)
  while (c < T) { r++; c = c * (s + r) / r }
  best = (r - 1) * T - choose(s + r, r - 1) + r + 1
}
/checkpointed steps reversed/ {
  again = $6 + 0
  n++
  if (again > (r - 1) * T)
    printf "BAD: T %d, %d snapshots, r %d: %d steps run again, more than %d\n", T, s, r, again, (r - 1) * T
  else if (again > best)
    printf "BAD: T %d, %d snapshots, r %d: %d steps run again, more than the fewest (%d)\n", T, s, r, again, best
  else
    printf "T %d, %d snapshots, r %d: %d steps run again, within the bound\n", T, s, r, again
}
END { printf "%d schedules\n", n }
