/* lto-three-files.c: a function with a registered custom gradient, in a
 * third translation unit. The gradient is deliberately 10x the true one
 * (3 x^2), so the test sees that it was used; it also counts its calls. */
double lto_h(double x) { return x * x * x; }
static int calls;
int lto_h_calls(void) { return calls; }
double lto_h_aug(double x) { return lto_h(x); }
double lto_h_rev(double x, double d) {
  calls++;
  return 30 * x * x * d;
}
void *__enzyme_register_gradient_lto_h[3] = {(void *)lto_h, (void *)lto_h_aug,
                                            (void *)lto_h_rev};
