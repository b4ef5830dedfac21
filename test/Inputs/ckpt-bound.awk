# ckpt-bound.awk: reads LEANTAPE_REPORT=1 output of checkpointed loops
# and checks for each schedule that the steps run again are at most
# (r - 1) T, r the least with C(s + r, s) >= T for s snapshots and T
# steps (test/Integration/checkpoint-schedule.c).
/checkpointing [0-9]+ steps: [0-9]+ snapshots/ {
  T = $3 + 0; s = $5 + 0
  r = 1; c = s + 1 # C(s + 1, s)
  while (c < T) { r++; c = c * (s + r) / r }
}
/checkpointed steps reversed/ {
  again = $6 + 0
  n++
  if (again <= (r - 1) * T)
    printf "T %d, %d snapshots, r %d: %d steps run again, within the bound\n", T, s, r, again
  else
    printf "BAD: T %d, %d snapshots, r %d: %d steps run again, more than %d\n", T, s, r, again, (r - 1) * T
}
END { printf "%d schedules\n", n }
