/* adbench.h: sizes and data of the three ADBench objectives and GradBench's
 * det and lse, shared by
 * adbench.c (primal + Leantape gradient, compiled with the plugin) and
 * adbench_hand.c (hand-written reverse-mode gradients, compiled without). */
#ifndef LT_ADBENCH_H
#define LT_ADBENCH_H

/* ---- GMM: d = 10, k = 25, n = 1000 -------------------------------------- */
#define GMM_D 10
#define GMM_K 25
#define GMM_N 1000
#define GMM_ICF (GMM_D * (GMM_D + 1) / 2)
/* P = [alphas (K), means (K*D), icf (K*ICF)] */
#define GMM_NP (GMM_K + GMM_K * GMM_D + GMM_K * GMM_ICF)
extern double GM_x[GMM_N * GMM_D];

/* ---- BA: 10 cameras, 1000 points, 5000 observations --------------------- */
#define BA_NCAM 10
#define BA_NPT 1000
#define BA_NOBS 5000
#define BA_NCAMP 11 /* rotation (3, angle-axis), centre (3), f, x0 (2), k1 k2 */
#define BA_ROT 0
#define BA_C 3
#define BA_F 6
#define BA_X0 7
#define BA_RAD 9
/* P = [cams (NCAM*11), points (NPT*3)] */
#define BA_NP (BA_NCAM * BA_NCAMP + BA_NPT * 3)
extern double BA_w[BA_NOBS], BA_feat[2 * BA_NOBS];
extern int BA_obs[2 * BA_NOBS]; /* (camera, point) per observation */

/* ---- LSTM: l = 2 layers, b = 14, c = 100 (and 1024) steps ---------------- */
#define LSTM_L 2
#define LSTM_B 14
#define LSTM_CMAX 1024
#define LSTM_NMAIN (2 * LSTM_L * 4 * LSTM_B) /* per layer: weight[4b], bias[4b] */
#define LSTM_NEXTRA (3 * LSTM_B)             /* in weight, out weight, out bias */
/* P = [main (NMAIN), extra (NEXTRA)] */
#define LSTM_NP (LSTM_NMAIN + LSTM_NEXTRA)
extern double LS_state[2 * LSTM_L * LSTM_B], LS_seq[LSTM_CMAX * LSTM_B];

/* ---- GradBench's det (expansion by minors) and lse (log-sum-exp) -------- */
#define DET_ELL 9
#define LSE_N 160000
extern double LSE_x[LSE_N];

/* hand-written gradients: return the objective, write (=) its gradient with
 * respect to the flat parameter vector into g (same layout as P) */
double gmm_hand(const double *alphas, const double *means, const double *icf,
                const double *x, double wgamma, int wm, int d, int k, int n,
                double *g);
double ba_hand(const double *cams, const double *X, const double *w,
               const double *feat, const int *obs, int ncam, int npt, int nobs,
               double *g);
double det_hand(const double *a, int n, double *g);
double lse_hand(const double *x, int n, double *g);
double lstm_hand(const double *main_params, const double *extra_params,
                 const double *state0, const double *seq, int l, int c, int b,
                 double *g);

#endif
