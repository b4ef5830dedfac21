// Forward mode through memory reached from dup pointers. In forward mode
// shadow memory holds tangents: a store of a float stores its tangent, a
// copy copies tangents, an allocation gets a zeroed shadow of the same
// size, and shadow pointers are stored and loaded next to pointers.
//  - heap buffers inside the function: malloc, calloc, realloc (the
//    shadow grows with the buffer and keeps its tangents), free;
//  - memcpy, memmove (overlapping) and memset, into locals and into a dup
//    output array (its shadow receives the copied tangents);
//  - a struct holding a pointer member and a double member, passed
//    enzyme_dup with a shadow struct (shadow data pointer, the tangent of
//    the double, the same int), read and written through;
//  - arrays of row pointers: passed in (a shadow array of shadow rows),
//    and built inside the function on the heap;
//  - an enzyme_const array read through a pointer that may point to it or
//    to the dup array (p = k ? x : c), and stored into a local struct next
//    to a dup pointer; the const array is never written;
//  - a pointer to a pointer (double **) to dup memory.
// Every tangent is checked against a hand-written tangent (the same
// operations applied to the direction) and a central finite difference
// along the direction; inputs that are only read must come back
// unchanged, and so must their shadows.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

#define RA 1e-12
#define RF 1e-6
enum { N = 6 };

/* ---- heap ----------------------------------------------------------------- */

/* t = x^2 (malloc), grown with realloc to hold sin(t) too, z = calloc'ed
 * accumulator: s = sum sin(x_i^2) x_i + t_i */
double heap(const double *x, int n) {
  double *t = malloc(n * sizeof *t);
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  t = realloc(t, 2 * n * sizeof *t);
  for (int i = 0; i < n; i++)
    t[n + i] = sin(t[i]);
  double *z = calloc(n, sizeof *z);
  for (int i = 0; i < n; i++)
    z[i] += t[n + i] * x[i] + t[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += z[i];
  free(t);
  free(z);
  return s;
}
static double heap_t(const double *x, const double *v, int n) {
  double d = 0;
  for (int i = 0; i < n; i++) {
    double q = x[i] * x[i];
    d += v[i] * (cos(q) * 2 * q + sin(q) + 2 * x[i]);
  }
  return d;
}

/* ---- memcpy, memmove, memset --------------------------------------------- */

/* loc = x (memcpy); loc[1..n) = loc[0..n-1) (memmove); loc[0] = 0
 * (memset); out = loc (memcpy into the dup output) and returns
 * sum loc_i^2 i */
double copies(const double *x, double *out, int n) {
  double loc[16];
  memcpy(loc, x, n * sizeof *loc);
  memmove(loc + 1, loc, (n - 1) * sizeof *loc);
  memset(loc, 0, sizeof *loc);
  for (int i = 0; i < n; i++)
    loc[i] = loc[i] * (1.0 + 0.5 * i);
  memcpy(out, loc, n * sizeof *out);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += loc[i] * loc[i] * i;
  return s;
}
/* the same operations on the direction give the output tangents */
static double copies_t(const double *x, const double *v, double *dout, int n) {
  double d = 0;
  for (int i = 0; i < n; i++) {
    double xi = i ? x[i - 1] : 0, vi = i ? v[i - 1] : 0, c = 1.0 + 0.5 * i;
    dout[i] = vi * c;
    d += 2 * xi * c * vi * c * i;
  }
  return d;
}

/* ---- a struct with a pointer member and a double member ------------------- */

struct P {
  double *data;
  double scale;
  int n;
};
/* data[i] <- scale * sin(data[i]) in place, returns sum data[i] * scale */
double through_struct(struct P *p) {
  double s = 0;
  for (int i = 0; i < p->n; i++) {
    p->data[i] = p->scale * sin(p->data[i]);
    s += p->data[i] * p->scale;
  }
  p->scale = s; /* the double member written too */
  return s;
}

/* ---- arrays of row pointers ----------------------------------------------- */

/* s = sum_ij rows[i][j] rows[(i+1) % n][j] w_j */
double rows_in(double *const *rows, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += rows[i][j] * rows[(i + 1) % n][j] * (1.0 + j);
  return s;
}
/* the rows are built on the heap, pointing into x (row i = x + i m) */
double rows_heap(double *x, int n, int m) {
  double **rows = malloc(n * sizeof *rows);
  for (int i = 0; i < n; i++)
    rows[i] = x + i * m;
  double s = rows_in(rows, n, m);
  for (int i = 0; i < n; i++)
    rows[i][0] = rows[i][0] * 0.5; /* and written through */
  free(rows);
  return s;
}

/* ---- a pointer that may be the const array --------------------------------- */

struct Q {
  const double *a;
  double w;
};
double maybe_const(const double *x, const double *c, int k) {
  const double *p = k ? x : c;
  struct Q q[2] = {{x, x[0] * 2}, {c + 1, 0.5}};
  double s = 0;
  for (int i = 0; i < N; i++)
    s += p[i] * x[i] + q[i % 2].a[i % 3] * q[(i + 1) % 2].w;
  return s;
}

/* ---- a pointer to a pointer ------------------------------------------------ */

double ptr_ptr(double **pp, int n) {
  double *p = *pp, s = 0;
  for (int i = 0; i < n; i++)
    s += exp(0.1 * p[i]) * p[(i + 1) % n];
  (*pp)[0] = s; /* written through */
  return s;
}

/* ---- checking ---------------------------------------------------------------- */

static void dcheck(const char *what, double ad, double an, double fd) {
  char b[120];
  snprintf(b, sizeof b, "%s: AD vs hand tangent", what);
  lt_check(b, ad, an, RA, RA * (1 + fabs(an)) * 1e-3);
  snprintf(b, sizeof b, "%s: AD vs FD along v", what);
  lt_check(b, ad, fd, RF, RF * 1e-2);
  snprintf(b, sizeof b, "%s: hand tangent vs FD along v", what);
  lt_check(b, an, fd, RF, RF * 1e-2);
}

int main(void) {
  const double h = 1e-6;
  double x[N], v[N], x0[N], v0[N];
  for (int i = 0; i < N; i++) {
    x[i] = x0[i] = lt_vd(0.3 + 0.27 * i - 0.02 * i * i);
    v[i] = v0[i] = 1.0 - 0.35 * i;
  }
  double xp[N], xm[N];
  for (int i = 0; i < N; i++)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];

  /* heap */
  dcheck("malloc/realloc/calloc/free",
         __enzyme_fwddiff((void *)heap, enzyme_dup, x, v, enzyme_const, N), heap_t(x, v, N),
         (heap(xp, N) - heap(xm, N)) / (2 * h));

  /* copies: the return and the dup output */
  {
    double out[N], dout[N], tout[N], op[N], om[N];
    for (int i = 0; i < N; i++)
      dout[i] = 99; /* overwritten by the tangent of the copy */
    double fd = (copies(xp, op, N) - copies(xm, om, N)) / (2 * h);
    double an = copies_t(x, v, tout, N);
    dcheck("memcpy/memmove/memset", __enzyme_fwddiff((void *)copies, x, v, out, dout, N), an, fd);
    for (int i = 0; i < N; i++) {
      char w[60];
      snprintf(w, sizeof w, "memcpy into the dup output: out[%d]", i);
      dcheck(w, dout[i], tout[i], (op[i] - om[i]) / (2 * h));
    }
    /* dupnoneed output */
    for (int i = 0; i < N; i++)
      dout[i] = 99;
    __enzyme_fwddiff((void *)copies, enzyme_dup, x, v, enzyme_dupnoneed, out, dout,
                     enzyme_const, N);
    for (int i = 0; i < N; i++) {
      char w[60];
      snprintf(w, sizeof w, "memcpy into a dupnoneed output: out[%d]", i);
      lt_check(w, dout[i], tout[i], RA, 1e-15);
    }
  }

  /* a struct with a shadow struct */
  {
    double d[N], dd[N], dp[N], dm[N];
    memcpy(d, x, sizeof d);
    memcpy(dd, v, sizeof dd);
    memcpy(dp, xp, sizeof dp);
    memcpy(dm, xm, sizeof dm);
    double sc = lt_vd(1.3), tsc = -0.4;
    struct P p = {d, sc, N}, sp = {dd, tsc, N};
    struct P pp = {dp, sc + h * tsc, N}, pm = {dm, sc - h * tsc, N};
    double fd = (through_struct(&pp) - through_struct(&pm)) / (2 * h);
    /* hand tangent */
    double s = 0, ds = 0, nd[N], ndd[N];
    for (int i = 0; i < N; i++) {
      nd[i] = sc * sin(x[i]);
      ndd[i] = tsc * sin(x[i]) + sc * cos(x[i]) * v[i];
      s += nd[i] * sc;
      ds += ndd[i] * sc + nd[i] * tsc;
    }
    dcheck("struct {pointer, double} dup",
           __enzyme_fwddiff((void *)through_struct, enzyme_dup, &p, &sp), ds, fd);
    lt_check("struct: the primal's double member", p.scale, s, 1e-15, 0);
    lt_check("struct: the shadow struct's double member (tangent of s)", sp.scale, ds, RA,
             1e-15);
    lt_check("struct: the shadow struct's int is untouched", sp.n, N, 0, 0);
    lt_check("struct: the shadow data pointer is untouched", sp.data == dd, 1, 0, 0);
    for (int i = 0; i < N; i++) {
      char w[60];
      snprintf(w, sizeof w, "struct: data[%d] in place", i);
      lt_check(w, d[i], nd[i], 1e-15, 0);
      dcheck(w, dd[i], ndd[i], (dp[i] - dm[i]) / (2 * h));
    }
  }

  /* rows passed in: three rows of four, and their shadow rows */
  {
    enum { R = 3, M = 4 };
    double a[R][M], da[R][M], ap[R][M], am[R][M];
    double *rows[R], *drows[R], *rp[R], *rm[R];
    for (int i = 0; i < R; i++) {
      for (int j = 0; j < M; j++) {
        a[i][j] = lt_vd(0.2 * i - 0.3 * j + 0.7);
        da[i][j] = 0.5 - 0.1 * (i * M + j);
        ap[i][j] = a[i][j] + h * da[i][j];
        am[i][j] = a[i][j] - h * da[i][j];
      }
      rows[i] = a[i], drows[i] = da[i], rp[i] = ap[i], rm[i] = am[i];
    }
    double an = 0;
    for (int i = 0; i < R; i++)
      for (int j = 0; j < M; j++) {
        int k = (i + 1) % R;
        an += (da[i][j] * a[k][j] + a[i][j] * da[k][j]) * (1.0 + j);
      }
    dcheck("row pointers passed in",
           __enzyme_fwddiff((void *)rows_in, enzyme_dup, rows, drows, enzyme_const, R,
                            enzyme_const, M),
           an, (rows_in(rp, R, M) - rows_in(rm, R, M)) / (2 * h));
    for (int i = 0; i < R; i++)
      if (drows[i] != da[i])
        lt_check("the shadow row pointers are untouched", 0, 1, 0, 0);

    /* rows built on the heap inside, pointing into x */
    double flat[R * M], dflat[R * M], fp[R * M], fm[R * M];
    memcpy(flat, a, sizeof flat);
    memcpy(dflat, da, sizeof dflat);
    memcpy(fp, ap, sizeof fp);
    memcpy(fm, am, sizeof fm);
    dcheck("row pointers built on the heap",
           __enzyme_fwddiff((void *)rows_heap, flat, dflat, R, M), an,
           (rows_heap(fp, R, M) - rows_heap(fm, R, M)) / (2 * h));
    for (int i = 0; i < R; i++)
      for (int j = 0; j < M; j++) {
        double want = j ? da[i][j] : 0.5 * da[i][j];
        lt_check("row pointers on the heap: tangent written through the rows",
                 dflat[i * M + j], want, 1e-15, 0);
      }
  }

  /* a pointer that may be the const array */
  for (int k = 0; k <= 1; k++) {
    double c[N], c0[N];
    for (int i = 0; i < N; i++)
      c[i] = c0[i] = lt_vd(0.9 - 0.4 * i);
    double an = 0;
    for (int i = 0; i < N; i++) {
      an += (k ? 2 * x[i] : c[i]) * v[i];
      /* q[i%2].a[i%3] * q[(i+1)%2].w: x[i%3] * 0.5 or c[1 + i%3] * 2 x[0] */
      an += (i % 2 == 0) ? v[i % 3] * 0.5 : c[1 + i % 3] * 2 * v[0];
    }
    char w[60];
    snprintf(w, sizeof w, "maybe-const pointer, k=%d", k);
    dcheck(w,
           __enzyme_fwddiff((void *)maybe_const, enzyme_dup, x, v, enzyme_const, c,
                            enzyme_const, k),
           an, (maybe_const(xp, c, k) - maybe_const(xm, c, k)) / (2 * h));
    for (int i = 0; i < N; i++)
      lt_check("the enzyme_const array is unchanged", c[i], c0[i], 0, 0);
  }

  /* a pointer to a pointer */
  {
    double y[N], dy[N], yp[N], ym[N];
    memcpy(y, x, sizeof y);
    memcpy(dy, v, sizeof dy);
    memcpy(yp, xp, sizeof yp);
    memcpy(ym, xm, sizeof ym);
    double *py = y, *pdy = dy, *pyp = yp, *pym = ym;
    double an = 0;
    for (int i = 0; i < N; i++) {
      int j = (i + 1) % N;
      an += exp(0.1 * x[i]) * (0.1 * v[i] * x[j] + v[j]);
    }
    dcheck("double ** to dup memory",
           __enzyme_fwddiff((void *)ptr_ptr, &py, &pdy, N), an,
           (ptr_ptr(&pyp, N) - ptr_ptr(&pym, N)) / (2 * h));
    lt_check("double **: tangent stored through *pp", dy[0], an, RA, 1e-15);
    lt_check("double **: the shadow pointer is untouched", pdy == dy, 1, 0, 0);
  }

  for (int i = 0; i < N; i++) {
    lt_check("x unchanged", x[i], x0[i], 0, 0);
    lt_check("v unchanged", v[i], v0[i], 0, 0);
  }
  return lt_done();
}
