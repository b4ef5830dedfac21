/* adbench.c: three ADBench objectives (GMM, bundle adjustment, LSTM) and
 * two of GradBench's (det by minors, lse) as ordinary C, differentiated
 * with __enzyme_autodiff. Compiled with
 * clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so, like kernels.c.
 * The hand-written reverse-mode gradients they are compared with are in
 * adbench_hand.c (compiled without the plugin).
 *
 * The formulas are ADBench's (the C/C++ reference objectives):
 *  - GMM: sum_i logsumexp_k(alpha_k + sum(log diag Q_k) - 0.5 |Q_k (x_i -
 *    mu_k)|^2) - n logsumexp(alpha) + Wishart prior - n d/2 log(2 pi);
 *    Q_k lower triangular, diagonal exp(icf_k[0..d)), below the diagonal
 *    icf_k[d..) column by column; Wishart gamma = 1, m = 0.
 *  - BA: cameras [rotation (angle-axis, Rodrigues), centre, f, x0, k1 k2],
 *    per observation err = w (f distort(p) + x0 - feat), p the point
 *    rotated about the centre and divided by its z; the objective is the
 *    sum of the squared errors (w constant), differentiated with respect to
 *    all camera and point parameters.
 *  - LSTM: ADBench's diagonal LSTM (elementwise gates), l layers of width
 *    b, c characters: loss = -sum_t sum_i ygold_i (ypred_i - lse(ypred)) /
 *    ((c-1) b), lse(y) = log(sum exp(y_i) + 2) as ADBench writes it. The
 *    initial state is copied into a local array (ADBench mutates it), so
 *    every call sees the same state.
 *  - det (GradBench): the determinant of a 9 x 9 matrix by expansion along
 *    the first row, recursively, the columns left kept in an integer list
 *    unlinked and linked back in place (GradBench's sizes are 5 to 11).
 *  - lse (GradBench): log(sum exp(x_i - max x)) + max x, n = 160000 (its
 *    sizes are 2500 to 1280000), x uniform in [0, 1).
 * -DBENCH_ONE -DONE_<tag> compiles only one objective (as in kernels.c).
 */
#define FILL_BASE 101 /* this file's data seeds (kernels.c's are 1..) */
#include "kernels/harness.h"

#include "adbench.h"

/* ---- GMM ----------------------------------------------------------------- */
double GM_x[GMM_N * GMM_D];
static double GM_P[GMM_NP], GM_dP[GMM_NP], GM_hg[GMM_NP];
static int gm_d = GMM_D, gm_k = GMM_K, gm_n = GMM_N, gm_m = 0;
static double gm_gamma = 1.0;

#if ALL || defined(ONE_gmm)
static double gmm_logsumexp(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > mx)
      mx = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

static double log_gamma_distrib(double a, int p) {
  double r = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; j++)
    r += lgamma(a + 0.5 * (1 - j));
  return r;
}

static double log_wishart_prior(int p, int k, double wgamma, int wm,
                                const double *sum_qs, const double *Qdiags,
                                const double *icf) {
  int n = p + wm + 1, icf_sz = p * (p + 1) / 2;
  double C = n * p * (log(wgamma) - 0.5 * log(2)) - log_gamma_distrib(0.5 * n, p);
  double out = 0;
  for (int ik = 0; ik < k; ik++) {
    double frob = 0;
    for (int i = 0; i < p; i++)
      frob += Qdiags[ik * p + i] * Qdiags[ik * p + i];
    for (int i = p; i < icf_sz; i++)
      frob += icf[ik * icf_sz + i] * icf[ik * icf_sz + i];
    out += 0.5 * wgamma * wgamma * frob - wm * sum_qs[ik];
  }
  return out - k * C;
}

/* out = Q x, Q = diag(Qdiag) + strictly lower ltri (column by column) */
static void Qtimesx(int d, const double *Qdiag, const double *ltri,
                    const double *x, double *out) {
  for (int i = 0; i < d; i++)
    out[i] = Qdiag[i] * x[i];
  int li = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      out[j] += ltri[li] * x[i];
      li++;
    }
}

KERNEL double gmm_k(const double *alphas, const double *means,
                    const double *icf, const double *x, double wgamma, int wm,
                    int d, int k, int n) {
  int icf_sz = d * (d + 1) / 2;
  double Qdiags[GMM_K * GMM_D], sum_qs[GMM_K], xc[GMM_D], Qxc[GMM_D],
      main_term[GMM_K];
  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0;
    for (int id = 0; id < d; id++) {
      double q = icf[ik * icf_sz + id];
      sum_qs[ik] += q;
      Qdiags[ik * d + id] = exp(q);
    }
  }
  double slse = 0;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      for (int id = 0; id < d; id++)
        xc[id] = x[ix * d + id] - means[ik * d + id];
      Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xc, Qxc);
      double sq = 0;
      for (int id = 0; id < d; id++)
        sq += Qxc[id] * Qxc[id];
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
    }
    slse += gmm_logsumexp(main_term, k);
  }
  double lse_alphas = gmm_logsumexp(alphas, k);
  double constant = -n * d * 0.5 * log(2 * M_PI);
  return constant + slse - n * lse_alphas +
         log_wishart_prior(d, k, wgamma, wm, sum_qs, Qdiags, icf);
}

#define GM_ARGS(P)                                                             \
  (P), (P) + GMM_K, (P) + GMM_K + GMM_K * GMM_D, GM_x, gm_gamma, gm_m, gm_d,   \
      gm_k, gm_n
static void gmm_primal(void) { sink = gmm_k(GM_ARGS(GM_P)); }
static double gmm_loss(void) { return gmm_k(GM_ARGS(GM_P)); }
static void gmm_grad(void) {
  __enzyme_autodiff((void *)gmm_k, enzyme_dup, GM_P, GM_dP, enzyme_dup,
                    GM_P + GMM_K, GM_dP + GMM_K, enzyme_dup,
                    GM_P + GMM_K + GMM_K * GMM_D, GM_dP + GMM_K + GMM_K * GMM_D,
                    enzyme_const, GM_x, enzyme_const, gm_gamma, enzyme_const,
                    gm_m, enzyme_const, gm_d, enzyme_const, gm_k, enzyme_const,
                    gm_n);
}
static void gmm_grad_fresh(double *g) {
  memset(GM_dP, 0, sizeof GM_dP);
  gmm_grad();
  memcpy(g, GM_dP, sizeof GM_dP);
}
static void gmm_hgrad(void) { sink = gmm_hand(GM_ARGS(GM_P), GM_hg); }
static void gmm_hand_fresh(double *g) {
  gmm_hgrad();
  memcpy(g, GM_hg, sizeof GM_hg);
}
#endif
static double *gmm_param(void) { return GM_P; }
static void gmm_setup(void) {
  fill(GM_P, GMM_K, -1, 1, 1);                          /* alphas */
  fill(GM_P + GMM_K, GMM_K * GMM_D, 0, 1, 2);           /* means */
  fill(GM_P + GMM_K + GMM_K * GMM_D, GMM_K * GMM_ICF, -0.5, 0.5, 3); /* icf */
  fill(GM_x, GMM_N * GMM_D, 0, 1, 4);
}
#define GI (GMM_K + GMM_K * GMM_D) /* start of icf */
static const int gmm_fd[] = {0, 17, GMM_K, GMM_K + 123, GI, GI + 5 * GMM_ICF + 3,
                             GI + 5 * GMM_ICF + 20, GMM_NP - 1};

/* ---- BA ------------------------------------------------------------------ */
double BA_w[BA_NOBS], BA_feat[2 * BA_NOBS];
int BA_obs[2 * BA_NOBS];
static double BA_P[BA_NP], BA_dP[BA_NP], BA_hg[BA_NP];
static int ba_ncam = BA_NCAM, ba_npt = BA_NPT, ba_nobs = BA_NOBS;

static void cross(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static void rodrigues_rotate_point(const double *rot, const double *X,
                                   double *out) {
  double sqtheta = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta), costheta = cos(theta),
           sintheta = sin(theta), theta_inv = 1.0 / theta;
    double w[3] = {rot[0] * theta_inv, rot[1] * theta_inv, rot[2] * theta_inv};
    double w_cross_X[3];
    cross(w, X, w_cross_X);
    double tmp = (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]) * (1. - costheta);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * costheta + w_cross_X[i] * sintheta + w[i] * tmp;
  } else {
    double rot_cross_X[3];
    cross(rot, X, rot_cross_X);
    for (int i = 0; i < 3; i++)
      out[i] = X[i] + rot_cross_X[i];
  }
}

static void radial_distort(const double *rad, double *proj) {
  double rsq = proj[0] * proj[0] + proj[1] * proj[1];
  double L = 1. + rad[0] * rsq + rad[1] * rsq * rsq;
  proj[0] *= L;
  proj[1] *= L;
}

static void project(const double *cam, const double *X, double *proj) {
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; i++)
    Xo[i] = X[i] - cam[BA_C + i];
  rodrigues_rotate_point(&cam[BA_ROT], Xo, Xcam);
  proj[0] = Xcam[0] / Xcam[2];
  proj[1] = Xcam[1] / Xcam[2];
  radial_distort(&cam[BA_RAD], proj);
  proj[0] = proj[0] * cam[BA_F] + cam[BA_X0];
  proj[1] = proj[1] * cam[BA_F] + cam[BA_X0 + 1];
}

#if ALL || defined(ONE_ba)
KERNEL double ba_k(const double *cams, const double *X, const double *w,
                   const double *feat, const int *obs, int nobs) {
  double s = 0;
  for (int i = 0; i < nobs; i++) {
    double proj[2];
    project(&cams[obs[2 * i] * BA_NCAMP], &X[obs[2 * i + 1] * 3], proj);
    double e0 = w[i] * (proj[0] - feat[2 * i]);
    double e1 = w[i] * (proj[1] - feat[2 * i + 1]);
    s += e0 * e0 + e1 * e1;
  }
  return s;
}

#define BA_CX(P) (P), (P) + BA_NCAM * BA_NCAMP
static void ba_primal(void) {
  sink = ba_k(BA_CX(BA_P), BA_w, BA_feat, BA_obs, ba_nobs);
}
static double ba_loss(void) {
  return ba_k(BA_CX(BA_P), BA_w, BA_feat, BA_obs, ba_nobs);
}
static void ba_grad(void) {
  __enzyme_autodiff((void *)ba_k, enzyme_dup, BA_P, BA_dP, enzyme_dup,
                    BA_P + BA_NCAM * BA_NCAMP, BA_dP + BA_NCAM * BA_NCAMP,
                    enzyme_const, BA_w, enzyme_const, BA_feat, enzyme_const,
                    BA_obs, enzyme_const, ba_nobs);
}
static void ba_grad_fresh(double *g) {
  memset(BA_dP, 0, sizeof BA_dP);
  ba_grad();
  memcpy(g, BA_dP, sizeof BA_dP);
}
static void ba_hgrad(void) {
  sink = ba_hand(BA_CX(BA_P), BA_w, BA_feat, BA_obs, ba_ncam, ba_npt, ba_nobs,
                 BA_hg);
}
static void ba_hand_fresh(double *g) {
  ba_hgrad();
  memcpy(g, BA_hg, sizeof BA_hg);
}
#endif
static double *ba_param(void) { return BA_P; }
/* cameras near the origin looking down +z, points at depth 4..6, each
 * point seen by 5 distinct cameras; features = projection + noise */
static void ba_setup(void) {
  double r[BA_NCAM * BA_NCAMP];
  fill(r, BA_NCAM * BA_NCAMP, -1, 1, 5);
  for (int c = 0; c < BA_NCAM; c++) {
    double *cam = BA_P + c * BA_NCAMP, *u = r + c * BA_NCAMP;
    for (int i = 0; i < 3; i++) {
      cam[BA_ROT + i] = 0.2 * u[i];
      cam[BA_C + i] = 0.3 * u[3 + i];
    }
    cam[BA_F] = 1 + 0.1 * u[6];
    cam[BA_X0] = 0.05 * u[7];
    cam[BA_X0 + 1] = 0.05 * u[8];
    cam[BA_RAD] = 0.05 * u[9];
    cam[BA_RAD + 1] = 0.05 * u[10];
  }
  double *X = BA_P + BA_NCAM * BA_NCAMP;
  fill(X, BA_NPT * 3, -1, 1, 6);
  for (int q = 0; q < BA_NPT; q++)
    X[3 * q + 2] = 5 + X[3 * q + 2];
  fill(BA_w, BA_NOBS, 0.8, 1.2, 7);
  double noise[2 * BA_NOBS];
  fill(noise, 2 * BA_NOBS, -0.01, 0.01, 8);
  for (int i = 0; i < BA_NOBS; i++) {
    int q = i / 5, c = (q + 2 * (i % 5)) % BA_NCAM;
    BA_obs[2 * i] = c;
    BA_obs[2 * i + 1] = q;
    double proj[2];
    project(BA_P + c * BA_NCAMP, X + 3 * q, proj);
    BA_feat[2 * i] = proj[0] + noise[2 * i];
    BA_feat[2 * i + 1] = proj[1] + noise[2 * i + 1];
  }
}
#define BC(c, j) ((c) * BA_NCAMP + (j))
#define BX (BA_NCAM * BA_NCAMP)
static const int ba_fd[] = {BC(3, BA_ROT), BC(3, BA_ROT + 2), BC(3, BA_C + 1),
                            BC(3, BA_F),   BC(7, BA_X0),      BC(7, BA_RAD),
                            BC(9, BA_RAD + 1), BX + 1500,     BX + 1502,
                            BA_NP - 1};

/* ---- LSTM ---------------------------------------------------------------- */
double LS_state[2 * LSTM_L * LSTM_B], LS_seq[LSTM_CMAX * LSTM_B];
static double LS_P[LSTM_NP], LS_dP[LSTM_NP], LS_hg[LSTM_NP];
static int ls_l = LSTM_L, ls_b = LSTM_B, ls_c100 = 100, ls_c1024 = 1024;

#if ALL || defined(ONE_lstm) || defined(ONE_lstm1024)
static double sigmoid(double x) { return 1 / (1 + exp(-x)); }

/* ADBench's: log(sum exp(x_i) + 2) */
static double lstm_logsumexp(const double *v, int sz) {
  double s = 0;
  for (int i = 0; i < sz; i++)
    s += exp(v[i]);
  s += 2;
  return log(s);
}

static void lstm_model(int hsize, const double *weight, const double *bias,
                       double *hidden, double *cell, const double *input) {
  double gates[4 * LSTM_B];
  double *forget = gates, *ingate = gates + hsize, *outgate = gates + 2 * hsize,
         *change = gates + 3 * hsize;
  for (int i = 0; i < hsize; i++) {
    forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
    ingate[i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
    outgate[i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
    change[i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
  }
  for (int i = 0; i < hsize; i++)
    cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
  for (int i = 0; i < hsize; i++)
    hidden[i] = outgate[i] * tanh(cell[i]);
}

static void lstm_predict(int l, int b, const double *w, const double *w2,
                         double *s, const double *x, double *x2) {
  for (int i = 0; i < b; i++)
    x2[i] = x[i] * w2[i];
  const double *xp = x2;
  for (int i = 0; i <= 2 * l * b - 1; i += 2 * b) {
    lstm_model(b, &w[i * 4], &w[(i + b) * 4], &s[i], &s[i + b], xp);
    xp = &s[i];
  }
  for (int i = 0; i < b; i++)
    x2[i] = xp[i] * w2[b + i] + w2[2 * b + i];
}

KERNEL double lstm_k(const double *main_params, const double *extra_params,
                     const double *state0, const double *seq, int l, int c,
                     int b) {
  double state[2 * LSTM_L * LSTM_B], ypred[LSTM_B], ynorm[LSTM_B];
  for (int i = 0; i < 2 * l * b; i++)
    state[i] = state0[i];
  double total = 0;
  int count = 0;
  const double *input = &seq[0];
  for (int t = 0; t <= (c - 1) * b - 1; t += b) {
    lstm_predict(l, b, main_params, extra_params, state, input, ypred);
    double lse = lstm_logsumexp(ypred, b);
    for (int i = 0; i < b; i++)
      ynorm[i] = ypred[i] - lse;
    const double *ygold = &seq[t + b];
    for (int i = 0; i < b; i++)
      total += ygold[i] * ynorm[i];
    count += b;
    input = ygold;
  }
  return -total / count;
}

#define LSTM_KERNEL(tag, C)                                                    \
  static void tag##_primal(void) {                                            \
    sink = lstm_k(LS_P, LS_P + LSTM_NMAIN, LS_state, LS_seq, ls_l, C, ls_b);   \
  }                                                                           \
  static double tag##_loss(void) {                                            \
    return lstm_k(LS_P, LS_P + LSTM_NMAIN, LS_state, LS_seq, ls_l, C, ls_b);   \
  }                                                                           \
  static void tag##_grad(void) {                                              \
    __enzyme_autodiff((void *)lstm_k, enzyme_dup, LS_P, LS_dP, enzyme_dup,    \
                      LS_P + LSTM_NMAIN, LS_dP + LSTM_NMAIN, enzyme_const,    \
                      LS_state, enzyme_const, LS_seq, enzyme_const, ls_l,     \
                      enzyme_const, C, enzyme_const, ls_b);                   \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    memset(LS_dP, 0, sizeof LS_dP);                                           \
    tag##_grad();                                                             \
    memcpy(g, LS_dP, sizeof LS_dP);                                           \
  }                                                                           \
  static void tag##_hgrad(void) {                                             \
    sink = lstm_hand(LS_P, LS_P + LSTM_NMAIN, LS_state, LS_seq, ls_l, C,       \
                     ls_b, LS_hg);                                            \
  }                                                                           \
  static void tag##_hand_fresh(double *g) {                                   \
    tag##_hgrad();                                                            \
    memcpy(g, LS_hg, sizeof LS_hg);                                           \
  }
#endif
#if ALL || defined(ONE_lstm)
LSTM_KERNEL(lstm, ls_c100)
#endif
#if ALL || defined(ONE_lstm1024)
LSTM_KERNEL(lstm1024, ls_c1024)
#endif
static double *lstm_param(void) { return LS_P; }
static void lstm_setup(void) {
  fill(LS_P, LSTM_NP, -1, 1, 9);
  fill(LS_state, 2 * LSTM_L * LSTM_B, -1, 1, 10);
  fill(LS_seq, LSTM_CMAX * LSTM_B, 0, 1, 11);
}
#define LM LSTM_NMAIN
static const int lstm_fd[] = {0, 4 * LSTM_B + 3, 8 * LSTM_B + 2 * LSTM_B + 5,
                              12 * LSTM_B + 13, LM + 1, LM + LSTM_B + 7,
                              LM + 2 * LSTM_B + 4, LSTM_NP - 1};

/* ---- det: GradBench's det eval, expansion by minors ---------------------- */
static double DT_A[DET_ELL * DET_ELL], DT_dA[DET_ELL * DET_ELL], DT_hg[DET_ELL * DET_ELL];
static int dt_n = DET_ELL;

#if ALL || defined(ONE_det)
/* The determinant of the minor of a (n x n, row-major) on rows row .. n-1
 * and the m columns left in a list: col[n] is its first column, col[j]
 * the one after j. A column is unlinked for the sub-minor and linked back
 * after it, so the integer list is overwritten in place on every call (as
 * in GradBench's version, which keeps rows in a list too). */
static double det_minor(const double *a, int n, int m, int row, int *col) {
  int c = col[n];
  if (m == 1)
    return a[row * n + c];
  double det = 0, sign = 1;
  for (int j = 0, prev = n; j < m; j++) {
    col[prev] = col[c];
    double sub = det_minor(a, n, m - 1, row + 1, col);
    col[prev] = c;
    det += sign * a[row * n + c] * sub;
    sign = -sign;
    prev = c;
    c = col[c];
  }
  return det;
}

KERNEL double det_k(const double *a, int n) {
  int col[DET_ELL + 1];
  for (int j = 0; j < n; j++)
    col[j] = j + 1;
  col[n] = 0;
  return det_minor(a, n, n, 0, col);
}
SCALAR_KERNEL(det, DT_A, DT_dA, DET_ELL * DET_ELL, (DT_A, dt_n), enzyme_dup, DT_A, DT_dA,
              enzyme_const, dt_n)
static void det_hgrad(void) { sink = det_hand(DT_A, dt_n, DT_hg); }
static void det_hand_fresh(double *g) {
  det_hgrad();
  memcpy(g, DT_hg, sizeof DT_hg);
}
#endif
static double *det_param(void) { return DT_A; }
static void det_setup(void) { fill(DT_A, DET_ELL * DET_ELL, 0, 1, 12); }
static const int det_fd[] = {0, 1, DET_ELL + 4, 4 * DET_ELL + 4, DET_ELL * DET_ELL - 1};

/* ---- lse: GradBench's lse eval, log-sum-exp with the maximum taken out --- */
double LSE_x[LSE_N];
static double LE_dx[LSE_N], LE_hg[LSE_N];
static int le_n = LSE_N;

#if ALL || defined(ONE_lse)
KERNEL double lse_k(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = x[i] > mx ? x[i] : mx;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}
SCALAR_KERNEL(lse, LSE_x, LE_dx, LSE_N, (LSE_x, le_n), enzyme_dup, LSE_x, LE_dx, enzyme_const,
              le_n)
static void lse_hgrad(void) { sink = lse_hand(LSE_x, le_n, LE_hg); }
static void lse_hand_fresh(double *g) {
  lse_hgrad();
  memcpy(g, LE_hg, sizeof LE_hg);
}
#endif
static double *lse_param(void) { return LSE_x; }
static void lse_setup(void) { fill(LSE_x, LSE_N, 0, 1, 13); }
static const int lse_fd[] = {0, 1, 777, LSE_N / 2, LSE_N - 1};

/* ---- the table ------------------------------------------------------------ */
#define AENTRY(label, np, fam, tag, ...)                                       \
  {label,       TGT_GENERAL,     0,           np,                              \
   fam##_param, fam##_setup,     tag##_primal, tag##_grad,                     \
   tag##_loss,  tag##_grad_fresh, #tag,       __FILE__,                       \
   0,           tag##_hgrad,     tag##_hand_fresh, fam##_fd,                   \
   sizeof fam##_fd / sizeof fam##_fd[0], __VA_ARGS__}

const kernel_t adbench_kernels[] = {
#if ALL || defined(ONE_gmm)
    AENTRY("gmm_d10_k25_n1000", GMM_NP, gmm, gmm, CACHE),
#endif
#if ALL || defined(ONE_ba)
    AENTRY("ba_10cam_1000pt_5000obs", BA_NP, ba, ba),
#endif
#if ALL || defined(ONE_lstm)
    AENTRY("lstm_l2_b14_c100", LSTM_NP, lstm, lstm),
#endif
#if ALL || defined(ONE_lstm1024)
    AENTRY("lstm_l2_b14_c1024", LSTM_NP, lstm, lstm1024, CACHE),
#endif
#if ALL || defined(ONE_det)
    AENTRY("det_by_minor_9", DET_ELL * DET_ELL, det, det),
#endif
#if ALL || defined(ONE_lse)
    AENTRY("lse_160000", LSE_N, lse, lse),
#endif
};
const int nadbench = sizeof adbench_kernels / sizeof adbench_kernels[0];
