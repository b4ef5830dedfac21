/* adbench_hand.c: hand-written gradients of adbench.c's objectives
 * (compiled without the plugin). Each evaluates the objective
 * and its gradient in one call, as the combined-mode __enzyme_autodiff
 * does, and is written for speed: GMM and BA recompute what they need per
 * data point / observation (no tape), the LSTM stores its per-step gate
 * values in a workspace preallocated once (static, so its calls make no
 * heap allocation). det is GradBench's hand-written method, each entry's
 * cofactor a determinant of its own (n^2 minors of n - 1: about n times
 * the primal's work), lse the softmax (two exp per element). */
#include <math.h>
#include <string.h>

#include "adbench.h"

/* ---- GMM ----------------------------------------------------------------- */
double gmm_hand(const double *alphas, const double *means, const double *icf,
                const double *x, double wgamma, int wm, int d, int k, int n,
                double *g) {
  const int icf_sz = d * (d + 1) / 2;
  double *dal = g, *dmu = g + k, *dicf = g + k + k * d;
  double Qd[GMM_K * GMM_D], sum_qs[GMM_K], dQd[GMM_K * GMM_D] = {0},
         dsq[GMM_K] = {0};
  memset(g, 0, (size_t)(k + k * d + k * icf_sz) * sizeof *g);
  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0;
    for (int j = 0; j < d; j++) {
      sum_qs[ik] += icf[ik * icf_sz + j];
      Qd[ik * d + j] = exp(icf[ik * icf_sz + j]);
    }
  }
  double slse = 0;
  double xc[GMM_K][GMM_D], y[GMM_K][GMM_D], mt[GMM_K];
  for (int ix = 0; ix < n; ix++) {
    const double *xi = x + ix * d;
    double mx = -INFINITY;
    for (int ik = 0; ik < k; ik++) {
      const double *q = Qd + ik * d, *L = icf + ik * icf_sz + d,
                   *mu = means + ik * d;
      double *c = xc[ik], *o = y[ik];
      for (int j = 0; j < d; j++) {
        c[j] = xi[j] - mu[j];
        o[j] = q[j] * c[j];
      }
      int li = 0;
      for (int i = 0; i < d; i++)
        for (int j = i + 1; j < d; j++)
          o[j] += L[li++] * c[i];
      double sq = 0;
      for (int j = 0; j < d; j++)
        sq += o[j] * o[j];
      mt[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
      if (mt[ik] > mx)
        mx = mt[ik];
    }
    double s = 0;
    for (int ik = 0; ik < k; ik++)
      s += (mt[ik] = exp(mt[ik] - mx));
    slse += log(s) + mx;
    const double is = 1 / s;
    /* reverse: weight w_k = softmax(main_term)_k; d main_term = w_k;
     * d Qxc = -w_k Qxc */
    for (int ik = 0; ik < k; ik++) {
      const double wk = mt[ik] * is;
      const double *q = Qd + ik * d, *L = icf + ik * icf_sz + d, *c = xc[ik];
      double *dq = dQd + ik * d, *dL = dicf + ik * icf_sz + d,
             *dm = dmu + ik * d;
      double dy[GMM_D], dc[GMM_D];
      dal[ik] += wk;
      dsq[ik] += wk;
      for (int j = 0; j < d; j++) {
        dy[j] = -wk * y[ik][j];
        dq[j] += dy[j] * c[j];
        dc[j] = q[j] * dy[j];
      }
      int li = 0;
      for (int i = 0; i < d; i++) {
        double a = dc[i];
        for (int j = i + 1; j < d; j++) {
          dL[li] += dy[j] * c[i];
          a += L[li] * dy[j];
          li++;
        }
        dm[i] -= a;
      }
    }
  }
  /* - n logsumexp(alphas) */
  double mx = alphas[0];
  for (int ik = 1; ik < k; ik++)
    if (alphas[ik] > mx)
      mx = alphas[ik];
  double s = 0;
  for (int ik = 0; ik < k; ik++)
    s += exp(alphas[ik] - mx);
  double lse_alphas = log(s) + mx;
  for (int ik = 0; ik < k; ik++)
    dal[ik] -= n * exp(alphas[ik] - mx) / s;
  /* Wishart prior */
  int wn = d + wm + 1;
  double lgd = 0.25 * d * (d - 1) * log(M_PI);
  for (int j = 1; j <= d; j++)
    lgd += lgamma(0.5 * wn + 0.5 * (1 - j));
  double C = wn * d * (log(wgamma) - 0.5 * log(2)) - lgd, prior = 0;
  const double g2 = wgamma * wgamma;
  for (int ik = 0; ik < k; ik++) {
    double frob = 0;
    for (int j = 0; j < d; j++) {
      double q = Qd[ik * d + j];
      frob += q * q;
      dQd[ik * d + j] += g2 * q;
    }
    for (int j = d; j < icf_sz; j++) {
      double v = icf[ik * icf_sz + j];
      frob += v * v;
      dicf[ik * icf_sz + j] += g2 * v;
    }
    prior += 0.5 * g2 * frob - wm * sum_qs[ik];
    dsq[ik] -= wm;
    /* Qdiag = exp(icf diag), sum_qs = sum icf diag */
    for (int j = 0; j < d; j++)
      dicf[ik * icf_sz + j] = dsq[ik] + dQd[ik * d + j] * Qd[ik * d + j];
  }
  prior -= k * C;
  return -n * d * 0.5 * log(2 * M_PI) + slse - n * lse_alphas + prior;
}

/* ---- BA ------------------------------------------------------------------ */
double ba_hand(const double *cams, const double *Xs, const double *w,
               const double *feat, const int *obs, int ncam, int npt, int nobs,
               double *g) {
  double *dcams = g, *dXs = g + ncam * BA_NCAMP;
  memset(g, 0, (size_t)(ncam * BA_NCAMP + npt * 3) * sizeof *g);
  double obj = 0;
  for (int i = 0; i < nobs; i++) {
    const double *cam = cams + obs[2 * i] * BA_NCAMP, *X = Xs + obs[2 * i + 1] * 3;
    double *dcam = dcams + obs[2 * i] * BA_NCAMP, *dX = dXs + obs[2 * i + 1] * 3;
    const double *r = cam + BA_ROT;
    /* forward */
    double Xo[3] = {X[0] - cam[BA_C], X[1] - cam[BA_C + 1], X[2] - cam[BA_C + 2]};
    double sq = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    double Xc[3], th = 0, ct = 1, st = 0, ti = 0, wv[3] = {0}, wx[3] = {0},
                  dot = 0, tmp = 0;
    if (sq != 0) {
      th = sqrt(sq);
      ct = cos(th);
      st = sin(th);
      ti = 1 / th;
      wv[0] = r[0] * ti, wv[1] = r[1] * ti, wv[2] = r[2] * ti;
      wx[0] = wv[1] * Xo[2] - wv[2] * Xo[1];
      wx[1] = wv[2] * Xo[0] - wv[0] * Xo[2];
      wx[2] = wv[0] * Xo[1] - wv[1] * Xo[0];
      dot = wv[0] * Xo[0] + wv[1] * Xo[1] + wv[2] * Xo[2];
      tmp = dot * (1 - ct);
      for (int j = 0; j < 3; j++)
        Xc[j] = Xo[j] * ct + wx[j] * st + wv[j] * tmp;
    } else {
      Xc[0] = Xo[0] + r[1] * Xo[2] - r[2] * Xo[1];
      Xc[1] = Xo[1] + r[2] * Xo[0] - r[0] * Xo[2];
      Xc[2] = Xo[2] + r[0] * Xo[1] - r[1] * Xo[0];
    }
    double iz = 1 / Xc[2], p0 = Xc[0] * iz, p1 = Xc[1] * iz;
    double k1 = cam[BA_RAD], k2 = cam[BA_RAD + 1];
    double rsq = p0 * p0 + p1 * p1, L = 1 + k1 * rsq + k2 * rsq * rsq;
    double d0 = p0 * L, d1 = p1 * L, f = cam[BA_F];
    double e0 = w[i] * (d0 * f + cam[BA_X0] - feat[2 * i]);
    double e1 = w[i] * (d1 * f + cam[BA_X0 + 1] - feat[2 * i + 1]);
    obj += e0 * e0 + e1 * e1;
    /* reverse */
    double dpr0 = 2 * e0 * w[i], dpr1 = 2 * e1 * w[i];
    dcam[BA_X0] += dpr0;
    dcam[BA_X0 + 1] += dpr1;
    dcam[BA_F] += dpr0 * d0 + dpr1 * d1;
    double dd0 = f * dpr0, dd1 = f * dpr1;
    double dL = dd0 * p0 + dd1 * p1;
    dcam[BA_RAD] += dL * rsq;
    dcam[BA_RAD + 1] += dL * rsq * rsq;
    double drsq = dL * (k1 + 2 * k2 * rsq);
    double dp0 = L * dd0 + 2 * p0 * drsq, dp1 = L * dd1 + 2 * p1 * drsq;
    double gv[3] = {dp0 * iz, dp1 * iz, -(dp0 * p0 + dp1 * p1) * iz};
    double dXo[3];
    if (sq != 0) {
      double gw = gv[0] * wv[0] + gv[1] * wv[1] + gv[2] * wv[2];
      double gX = gv[0] * Xo[0] + gv[1] * Xo[1] + gv[2] * Xo[2];
      double gwx = gv[0] * wx[0] + gv[1] * wx[1] + gv[2] * wx[2];
      /* g x w and Xo x g */
      double gxw[3] = {gv[1] * wv[2] - gv[2] * wv[1], gv[2] * wv[0] - gv[0] * wv[2],
                       gv[0] * wv[1] - gv[1] * wv[0]};
      double Xxg[3] = {Xo[1] * gv[2] - Xo[2] * gv[1], Xo[2] * gv[0] - Xo[0] * gv[2],
                       Xo[0] * gv[1] - Xo[1] * gv[0]};
      double dw[3];
      for (int j = 0; j < 3; j++) {
        dXo[j] = ct * gv[j] + st * gxw[j] + (1 - ct) * gw * wv[j];
        dw[j] = st * Xxg[j] + tmp * gv[j] + (1 - ct) * gw * Xo[j];
      }
      double dct = gX - gw * dot, dst = gwx;
      double dth = -st * dct + ct * dst;
      double rdw = r[0] * dw[0] + r[1] * dw[1] + r[2] * dw[2];
      for (int j = 0; j < 3; j++)
        dcam[BA_ROT + j] += dw[j] * ti - r[j] * rdw * ti * ti * ti + dth * r[j] * ti;
    } else {
      dXo[0] = gv[0] + gv[1] * r[2] - gv[2] * r[1];
      dXo[1] = gv[1] + gv[2] * r[0] - gv[0] * r[2];
      dXo[2] = gv[2] + gv[0] * r[1] - gv[1] * r[0];
      dcam[BA_ROT + 0] += Xo[1] * gv[2] - Xo[2] * gv[1];
      dcam[BA_ROT + 1] += Xo[2] * gv[0] - Xo[0] * gv[2];
      dcam[BA_ROT + 2] += Xo[0] * gv[1] - Xo[1] * gv[0];
    }
    for (int j = 0; j < 3; j++) {
      dX[j] += dXo[j];
      dcam[BA_C + j] -= dXo[j];
    }
  }
  return obj;
}

/* ---- LSTM ---------------------------------------------------------------- */
/* per step t and layer j (index (t * L + j) * B + i): the layer's input,
 * previous hidden and cell, the four gates and tanh of the new cell; per
 * step the output probabilities exp(ypred_i) / (sum exp + 2) */
#define LW (LSTM_CMAX * LSTM_L * LSTM_B)
static double W_x[LW], W_hp[LW], W_cp[LW], W_f[LW], W_ig[LW], W_o[LW],
    W_ch[LW], W_tc[LW], W_pr[LSTM_CMAX * LSTM_B];

double lstm_hand(const double *main_params, const double *extra_params,
                 const double *state0, const double *seq, int l, int c, int b,
                 double *g) {
  const double *w2 = extra_params;
  double *dmain = g, *dw2 = g + 2 * l * 4 * b;
  memset(g, 0, (size_t)(2 * l * 4 * b + 3 * b) * sizeof *g);
  double h[LSTM_L][LSTM_B], cl[LSTM_L][LSTM_B];
  for (int j = 0; j < l; j++)
    for (int i = 0; i < b; i++) {
      h[j][i] = state0[2 * b * j + i];
      cl[j][i] = state0[2 * b * j + b + i];
    }
  const int T = c - 1, count = T * b;
  double total = 0;
  for (int t = 0; t < T; t++) {
    const double *in = seq + t * b, *ygold = seq + (t + 1) * b;
    double xin[LSTM_B];
    for (int i = 0; i < b; i++)
      xin[i] = in[i] * w2[i];
    for (int j = 0; j < l; j++) {
      const double *W = main_params + 8 * b * j, *Bi = W + 4 * b;
      const int o = (t * l + j) * b;
      for (int i = 0; i < b; i++) {
        double x = xin[i], hp = h[j][i], cp = cl[j][i];
        double f = 1 / (1 + exp(-(x * W[i] + Bi[i])));
        double ig = 1 / (1 + exp(-(hp * W[b + i] + Bi[b + i])));
        double og = 1 / (1 + exp(-(x * W[2 * b + i] + Bi[2 * b + i])));
        double ch = tanh(hp * W[3 * b + i] + Bi[3 * b + i]);
        double cn = cp * f + ig * ch, tc = tanh(cn);
        W_x[o + i] = x, W_hp[o + i] = hp, W_cp[o + i] = cp;
        W_f[o + i] = f, W_ig[o + i] = ig, W_o[o + i] = og, W_ch[o + i] = ch;
        W_tc[o + i] = tc;
        cl[j][i] = cn;
        h[j][i] = xin[i] = og * tc;
      }
    }
    double s = 0, *pr = W_pr + t * b;
    for (int i = 0; i < b; i++) {
      double yp = xin[i] * w2[b + i] + w2[2 * b + i];
      pr[i] = exp(yp);
      s += pr[i];
      total += ygold[i] * yp;
    }
    s += 2;
    double lse = log(s), gs = 0;
    for (int i = 0; i < b; i++) {
      pr[i] /= s;
      gs += ygold[i];
    }
    total -= gs * lse;
  }
  /* reverse */
  const double dtot = -1.0 / count;
  double dh[LSTM_L][LSTM_B] = {{0}}, dc[LSTM_L][LSTM_B] = {{0}};
  for (int t = T - 1; t >= 0; t--) {
    const double *in = seq + t * b, *ygold = seq + (t + 1) * b, *pr = W_pr + t * b;
    double gs = 0;
    for (int i = 0; i < b; i++)
      gs += ygold[i];
    const int oL = (t * l + l - 1) * b;
    for (int i = 0; i < b; i++) {
      double dy = dtot * (ygold[i] - gs * pr[i]);
      double hl = W_o[oL + i] * W_tc[oL + i];
      dw2[b + i] += dy * hl;
      dw2[2 * b + i] += dy;
      dh[l - 1][i] += dy * w2[b + i];
    }
    for (int j = l - 1; j >= 0; j--) {
      const double *W = main_params + 8 * b * j;
      double *dW = dmain + 8 * b * j, *dB = dW + 4 * b;
      const int o = (t * l + j) * b;
      for (int i = 0; i < b; i++) {
        double f = W_f[o + i], ig = W_ig[o + i], og = W_o[o + i],
               ch = W_ch[o + i], tc = W_tc[o + i], x = W_x[o + i],
               hp = W_hp[o + i], cp = W_cp[o + i];
        double dhn = dh[j][i], dcn = dc[j][i] + dhn * og * (1 - tc * tc);
        double dfz = dcn * cp * f * (1 - f);
        double diz = dcn * ch * ig * (1 - ig);
        double doz = dhn * tc * og * (1 - og);
        double dcz = dcn * ig * (1 - ch * ch);
        dW[i] += dfz * x, dB[i] += dfz;
        dW[b + i] += diz * hp, dB[b + i] += diz;
        dW[2 * b + i] += doz * x, dB[2 * b + i] += doz;
        dW[3 * b + i] += dcz * hp, dB[3 * b + i] += dcz;
        double dx = dfz * W[i] + doz * W[2 * b + i];
        dh[j][i] = diz * W[b + i] + dcz * W[3 * b + i];
        dc[j][i] = dcn * f;
        if (j > 0)
          dh[j - 1][i] += dx;
        else
          dw2[i] += dx * in[i];
      }
    }
  }
  return -total / count;
}

/* ---- det: by cofactors, as GradBench's hand-written gradient ------------ */
/* The determinant of a's minor on rows row[0 .. m) and the m columns left
 * in the list col (col[n] first, col[j] after j), expanded along row[0]. */
static double det_rows(const double *a, int n, int m, const int *row, int *col) {
  int c = col[n];
  if (m == 1)
    return a[row[0] * n + c];
  double det = 0, sign = 1;
  for (int j = 0, prev = n; j < m; j++) {
    col[prev] = col[c];
    double sub = det_rows(a, n, m - 1, row + 1, col);
    col[prev] = c;
    det += sign * a[row[0] * n + c] * sub;
    sign = -sign;
    prev = c;
    c = col[c];
  }
  return det;
}

/* d det / d a[i][j] = (-1)^(i+j) det(a without row i and column j); the
 * determinant from the first row's cofactors */
double det_hand(const double *a, int n, double *g) {
  int row[DET_ELL], col[DET_ELL + 1];
  for (int i = 0; i < n; i++) {
    for (int r = 0, k = 0; r < n; r++)
      if (r != i)
        row[k++] = r;
    for (int j = 0; j < n; j++) {
      int prev = n; /* the list of all columns but j */
      for (int c = 0; c < n; c++)
        if (c != j) {
          col[prev] = c;
          prev = c;
        }
      g[i * n + j] = ((i + j) % 2 ? -1 : 1) * (n > 1 ? det_rows(a, n, n - 1, row, col) : 1);
    }
  }
  double det = 0;
  for (int j = 0; j < n; j++)
    det += a[j] * g[j];
  return det;
}

/* ---- lse: the softmax -------------------------------------------------- */
double lse_hand(const double *x, int n, double *g) {
  double mx = x[0], s = 0;
  for (int i = 1; i < n; i++)
    mx = x[i] > mx ? x[i] : mx;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  for (int i = 0; i < n; i++)
    g[i] = exp(x[i] - mx) / s;
  return log(s) + mx;
}
