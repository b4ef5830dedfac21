/* defs.c: definitions that test/ClangPlugin/inactive.c declares with
 * __attribute__((enzyme_inactive)) and uses; this file has no attributes,
 * so the registration comes from the declaring file (a registration global,
 * as clang emits no annotation for a declaration). */
int n_ext;
double ext_scale(double v) {
  n_ext++;
  return 5.0 * v * v;
}
double ext_table[4] = {1.0, 2.0, 3.0, 4.0};
