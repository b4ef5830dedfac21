// std::map and std::unordered_map holding active values, in reverse and
// forward mode. Shadow containers follow Enzyme's convention: the shadow
// map has the same keys (the same shape) as the primal one, and the
// derivative walks both in lockstep. libstdc++'s out-of-line node
// functions (_Rb_tree_insert_and_rebalance, _Rb_tree_increment and
// _decrement) are called again on the shadow nodes; key comparisons and
// hashes (memcmp, _Hash_bytes, _Prime_rehash_policy) are inactive.
//  - Enzyme's map test: vals["x"] = vals["x"]^2 on a map passed with its
//    shadow map, for string and const char * keys, ordered and unordered;
//  - maps local to the differentiated function: a loop inserts active
//    values under int, string and const char * keys (some keys twice), a
//    range-for sums them (a tree walk, or the hashtable's node list);
//  - forward mode on the local maps, and on a map passed with its shadow
//    (the tree walked on both);
//  - reverse mode of that walk: the adjoints land in the shadow map;
//  - std::list (push_back and push_front link nodes through
//    _List_node_base::_M_hook, pop_front unlinks one) and std::set of
//    active keys (the order depends on the values; the derivative is the
//    one of the order the primal took);
//  - erase from a local map (_Rb_tree_rebalance_for_erase on the shadow
//    tree too) after reading the erased value;
//  - inserts into a map of the caller's (empty, with an empty shadow map):
//    the new shadow nodes belong to the caller's shadow map, which frees
//    them (std-map-asan.cpp runs this file under the address sanitizer).
// RUN: %ltclangxx -O0 -fno-exceptions %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O1 -fno-exceptions %s -o %t.O1 -lm && %t.O1
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O3 -fno-exceptions %s -o %t.O3 -lm && %t.O3
// RUN: %ltclangxx -O0 -ffast-math %s -o %t.f0 -lm && %t.f0
// RUN: %ltclangxx -O2 -ffast-math %s -o %t.f2 -lm && %t.f2

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <leantape.h>
#include <list>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

template <typename R, typename... T> R __enzyme_fwddiff(void *, T...);

static const int N = 6;

/* Enzyme's test: the value under "x" squared in place. */
template <typename M> void square(M &vals) { vals["x"] = vals["x"] * vals["x"]; }

template <typename M> static double square_primal(double x) {
  M vals;
  vals["x"] = x;
  square<M>(vals);
  return vals["x"];
}

template <typename M> static void check_square(const char *what) {
  double x = lt_vd(3.0);
  M vals, dvals;
  vals["x"] = x;
  dvals["x"] = 1.0;
  __enzyme_autodiff((void *)square<M>, enzyme_dup, &vals, &dvals);
  lt_check(what, vals["x"], x * x, 1e-15, 0);
  lt_grad(what, x, dvals["x"], 2 * x, lt_fd(square_primal<M>, x), 1e-15, 1e-6);
}

/* Keys of a map local to the differentiated function: 0..5 in a scrambled
 * order, key 2 twice (i = 1 and i = 4 when n = 6: (5 i) % 7 mod 6). */
static int ikey(int i) { return (5 * i) % 7 % 6; }
static const char *const names[] = {"e", "b", "d", "a", "b", "f"};

/* f(x) = sum over keys k of (k + 1) m[k], m[ikey(i)] += x_i^2 */
template <typename M> double sum_int(const double *x, int n) {
  M m;
  for (int i = 0; i < n; i++)
    m[ikey(i)] += x[i] * x[i];
  double s = 0;
  for (auto &kv : m)
    s += (kv.first + 1) * kv.second;
  return s;
}
static double sum_int_grad(const double *x, int j) { return 2 * x[j] * (ikey(j) + 1); }

/* g(x) = sum over keys of m[k]^2, m[names[i]] += sin x_i ("b" twice) */
template <typename M> double sum_str(const double *x, int n) {
  M m;
  for (int i = 0; i < n; i++)
    m[names[i]] += std::sin(x[i]);
  double s = 0;
  for (auto &kv : m)
    s += kv.second * kv.second;
  return s;
}
static double sum_str_grad(const double *x, int j) {
  double v = std::sin(x[j]);
  for (int i = 0; i < N; i++)
    if (i != j && names[i] == names[j])
      v += std::sin(x[i]);
  return 2 * v * std::cos(x[j]);
}

typedef std::map<int, double> MI;
typedef std::unordered_map<int, double> UI;
typedef std::map<std::string, double> MS;
typedef std::unordered_map<std::string, double> US;
typedef std::map<const char *, double> MC;
typedef std::unordered_map<const char *, double> UC;

static double sum_mi(const double *x) { return sum_int<MI>(x, N); }
static double sum_ui(const double *x) { return sum_int<UI>(x, N); }
static double sum_ms(const double *x) { return sum_str<MS>(x, N); }
static double sum_us(const double *x) { return sum_str<US>(x, N); }
static double sum_mc(const double *x) { return sum_str<MC>(x, N); }
static double sum_uc(const double *x) { return sum_str<UC>(x, N); }

/* F itself must reach __enzyme_autodiff (a template argument is a constant
 * at -O0, a function parameter is not). */
template <double (*F)(const double *, int)>
static void check_rev(const char *what, double (*p)(const double *),
                      double (*an)(const double *, int), const double *x) {
  double dx[N] = {0};
  __enzyme_autodiff((void *)F, enzyme_dup, x, dx, enzyme_const, lt_vi(N));
  for (int j = 0; j < N; j++)
    lt_grad(what, x[j], dx[j], an(x, j), lt_fd_arr(p, x, N, j), 1e-13, 1e-6);
}

template <double (*F)(const double *, int)>
static void check_fwd(const char *what, double (*p)(const double *),
                      double (*an)(const double *, int), const double *x) {
  for (int j = 0; j < N; j++) {
    double t[N] = {0};
    t[j] = 1;
    double d = __enzyme_fwddiff<double>((void *)F, enzyme_dup, x, (const double *)t,
                                        enzyme_const, lt_vi(N));
    lt_grad(what, x[j], d, an(x, j), lt_fd_arr(p, x, N, j), 1e-13, 1e-6);
  }
}

/* The walk alone, on a map the caller passes with its shadow map. */
double weigh(const MI &m) {
  double s = 0;
  for (auto &kv : m)
    s += (kv.first + 1) * kv.second * kv.second;
  return s;
}

/* Inserts into a map of the caller's, which passes an empty shadow map:
 * the shadow nodes are linked into it and outlive the derivative (the
 * caller's shadow map frees them). fill(x) = sum over keys of m[k]^2. */
template <typename M> double fill(M &m, const double *x, int n) {
  for (int i = 0; i < n; i++)
    m[names[i]] += x[i] * x[i];
  double s = 0;
  for (auto &kv : m)
    s += kv.second * kv.second;
  return s;
}
static double fill_grad(const double *x, int j) {
  double v = 0;
  for (int i = 0; i < N; i++)
    if (names[i] == names[j])
      v += x[i] * x[i];
  return 4 * v * x[j];
}
template <typename M> static double fill_p(const double *x) {
  M m;
  return fill<M>(m, x, N);
}

template <typename M> static void check_fill(const char *what, const double *x) {
  char buf[100];
  double dx[N] = {0};
  {
    M m, dm;
    __enzyme_autodiff((void *)fill<M>, enzyme_dup, &m, &dm, enzyme_dup, x, dx,
                      enzyme_const, lt_vi(N));
    snprintf(buf, sizeof buf, "%s: primal entries", what);
    lt_check(buf, (double)m.size(), 5, 0, 0);
  } /* both maps' destructors free their nodes */
  for (int j = 0; j < N; j++)
    lt_grad(what, x[j], dx[j], fill_grad(x, j), lt_fd_arr(fill_p<M>, x, N, j), 1e-13, 1e-6);
  for (int j = 0; j < N; j++) {
    M m, tm;
    double t[N] = {0};
    t[j] = 1;
    double d = __enzyme_fwddiff<double>((void *)fill<M>, enzyme_dup, &m, &tm, enzyme_dup, x,
                                        (const double *)t, enzyme_const, lt_vi(N));
    snprintf(buf, sizeof buf, "fwd %s", what);
    lt_check(buf, d, fill_grad(x, j), 1e-13, 0);
    /* the tangent map has the primal's shape: walked in lockstep, the
     * entry of x_j's key holds d m[k] / d x_j = 2 x_j */
    auto it = tm.begin();
    for (auto &kv : m) {
      double want = kv.first == names[j] ? 2 * x[j] : 0;
      snprintf(buf, sizeof buf, "fwd %s: tangent entry", what);
      lt_check(buf, it == tm.end() ? NAN : it->second, want, 1e-15, 0);
      if (it != tm.end())
        ++it;
    }
  }
}

/* lsum(x) = sin x2 + 2 sin x0 + 3 x1^2 + 4 x3^2 for n = 5: the list is
 * sin x4, sin x2, sin x0, x1^2, x3^2 before pop_front */
double lsum(const double *x, int n) {
  std::list<double> l;
  for (int i = 0; i < n; i++) {
    if (i % 2)
      l.push_back(x[i] * x[i]);
    else
      l.push_front(std::sin(x[i]));
  }
  l.pop_front();
  double s = 0, k = 1;
  for (double v : l) {
    s += k * v;
    k += 1;
  }
  return s;
}
static double lsum_p(const double *x) { return lsum(x, 5); }
static double lsum_grad(const double *x, int j) {
  const double w[5] = {2 * std::cos(x[0]), 6 * x[1], std::cos(x[2]), 8 * x[3], 0};
  return w[j];
}

/* ssum(x) = sum over the squares in increasing order, the k-th times k */
double ssum(const double *x, int n) {
  std::set<double> s;
  for (int i = 0; i < n; i++)
    s.insert(x[i] * x[i]);
  double r = 0, k = 1;
  for (double v : s) {
    r += k * v;
    k += 1;
  }
  return r;
}
static double ssum_p(const double *x) { return ssum(x, 5); }
static double ssum_grad(const double *x, int j) {
  int rank = 1;
  for (int i = 0; i < 5; i++)
    rank += x[i] * x[i] < x[j] * x[j];
  return 2 * rank * x[j];
}

/* erased(x) = 10 x4^2 + x0^2 + 4 x1^2 + 2 x2^2: keys (3 i) % 5 are 0, 3, 1,
 * 4, 2; the value under 2 is read, then 2 and 4 are erased */
double erased(const double *x, int n) {
  MI m;
  for (int i = 0; i < n; i++)
    m[(i * 3) % n] = x[i] * x[i];
  double first = m[2];
  m.erase(2);
  m.erase(4);
  double s = first * 10;
  for (auto &kv : m)
    s += (kv.first + 1) * kv.second;
  return s;
}
static double erased_p(const double *x) { return erased(x, 5); }
static double erased_grad(const double *x, int j) {
  const double w[5] = {2, 8, 4, 0, 20};
  return w[j] * x[j];
}

static void check_list_set(const double *x) {
  double de[5] = {0};
  __enzyme_autodiff((void *)erased, enzyme_dup, x, de, enzyme_const, lt_vi(5));
  for (int j = 0; j < 5; j++)
    lt_grad("map erase", x[j], de[j], erased_grad(x, j), lt_fd_arr(erased_p, x, 5, j), 1e-13,
            1e-6);
  double dl[5] = {0}, ds[5] = {0};
  __enzyme_autodiff((void *)lsum, enzyme_dup, x, dl, enzyme_const, lt_vi(5));
  __enzyme_autodiff((void *)ssum, enzyme_dup, x, ds, enzyme_const, lt_vi(5));
  for (int j = 0; j < 5; j++) {
    lt_grad("list", x[j], dl[j], lsum_grad(x, j), lt_fd_arr(lsum_p, x, 5, j), 1e-13, 1e-6);
    lt_grad("set", x[j], ds[j], ssum_grad(x, j), lt_fd_arr(ssum_p, x, 5, j), 1e-13, 1e-6);
    double t[5] = {0};
    t[j] = 1;
    double tl = __enzyme_fwddiff<double>((void *)lsum, enzyme_dup, x, (const double *)t,
                                         enzyme_const, lt_vi(5));
    double ts = __enzyme_fwddiff<double>((void *)ssum, enzyme_dup, x, (const double *)t,
                                         enzyme_const, lt_vi(5));
    lt_check("fwd list", tl, lsum_grad(x, j), 1e-13, 1e-15);
    lt_check("fwd set", ts, ssum_grad(x, j), 1e-13, 1e-15);
  }
}

int main() {
  check_square<US>("unordered_map<string> square");
  check_square<UC>("unordered_map<const char *> square");
  check_square<MS>("map<string> square");
  check_square<MC>("map<const char *> square");

  const double x0[N] = {0.4, -1.2, 0.9, 1.7, -0.3, 0.8};
  double x[N];
  lt_fill(x, x0, N);
  check_rev<sum_int<MI>>("map<int> sum", sum_mi, sum_int_grad, x);
  check_rev<sum_int<UI>>("unordered_map<int> sum", sum_ui, sum_int_grad, x);
  check_rev<sum_str<MS>>("map<string> sum", sum_ms, sum_str_grad, x);
  check_rev<sum_str<US>>("unordered_map<string> sum", sum_us, sum_str_grad, x);
  check_rev<sum_str<MC>>("map<const char *> sum", sum_mc, sum_str_grad, x);
  check_rev<sum_str<UC>>("unordered_map<const char *> sum", sum_uc, sum_str_grad, x);

  check_fwd<sum_int<MI>>("fwd map<int> sum", sum_mi, sum_int_grad, x);
  check_fwd<sum_int<UI>>("fwd unordered_map<int> sum", sum_ui, sum_int_grad, x);
  check_fwd<sum_str<MS>>("fwd map<string> sum", sum_ms, sum_str_grad, x);
  check_fwd<sum_str<UC>>("fwd unordered_map<const char *> sum", sum_uc,
            sum_str_grad, x);

  /* weigh(m) = sum (k + 1) v_k^2 over a map of the caller's */
  MI m, dm, tm;
  for (int k = 0; k < N; k++) {
    m[(3 * k) % N] = x[k];
    dm[(3 * k) % N] = 0;
    tm[(3 * k) % N] = k + 1; /* a tangent direction */
  }
  double t = __enzyme_fwddiff<double>((void *)weigh, enzyme_dup, (const MI *)&m,
                                      (const MI *)&tm);
  double want = 0;
  for (auto &kv : m)
    want += (kv.first + 1) * 2 * kv.second * tm[kv.first];
  lt_check("fwd map walk", t, want, 1e-14, 0);
  __enzyme_autodiff((void *)weigh, enzyme_dup, (const MI *)&m, &dm);
  for (auto &kv : m)
    lt_check("map walk adjoint", dm[kv.first], 2 * (kv.first + 1) * kv.second, 1e-14, 0);

  check_list_set(x);
  check_fill<MC>("fill the caller's map<const char *>", x);
  check_fill<MS>("fill the caller's map<string>", x);
  return lt_done();
}
