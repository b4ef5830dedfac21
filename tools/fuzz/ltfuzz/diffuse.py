"""--diffuse: f gets double-buffered 2-D time loops over R x C grids whose
row length C is known only at run time (n - K), the two buffers swapped
through pointers after each step, as an explicit nonlinear diffusion is
written (issue 17's time-loop example):

    { int R = 4, C = n - 3;                        (C = 5 at run time)
      double *a = (double *)malloc(R * C * sizeof(double)), *b = ...;
      for (int k = 0; k < R * C; k++) { a[k] = 0.5 * x[k % 8] + ...; b[k] = a[k]; }
      for (int s = 0; s < 3; s++) {
        for (int i = 1; i < R - 1; i++)
          for (int j = 1; j < C - 1; j++) {
            double c = a[i * C + j];
            b[i * C + j] = c + 0.07 * (1.0 + c * c) *
                (a[(i - 1) * C + j] + a[(i + 1) * C + j] + a[i * C + j - 1]
                 + a[i * C + j + 1] - 4.0 * c);
          }
        double *t = a; a = b; b = t;
      }
      acc0 += 0.3 * a[6] * a[7] + ...; free(a); free(b); }

The buffers come from malloc, or are two halves of one local array, or
one buffer updated in place (b == a: Gauss-Seidel order), or (d_args) a
1-D double buffer over f's x and y, or x twice, chosen at run time; the coefficient
of the nonlinear term is c * c, tanh(c) or sin(c) times a small constant
(the steps stay bounded); the loop over j is inner or outer; the copy
into b's border is kept (b starts as a copy of a) or rewritten every step.
These are the shapes that tape scopes (lib/gen/scopes.c), gather's LICM
(lib/gen/gather.c) and the undo log's copied loops (lib/gen/unswitch.c)
transform. Every program of the flag has at least one such loop. Its draws
come after the other modes' (f differs from the program without it)."""
from .mode import Mode
from .shapes import N


class Diffuse(Mode):
    name = "diffuse"
    flag = "--diffuse"
    help = ("f gets double-buffered 2-D time loops over a run-time row length, "
            "the buffers swapped through pointers (tape scopes, gather, unswitch)")

    def on_init(self):
        self.d_count = 0

    def on_stmt(self, scope, depth, iters):
        if depth == 0 and not scope and self.d_count < 2 and self.r.random() < 0.25:
            return self.d_loop()
        return None

    def on_finish(self):
        if self.d_count:
            return []
        return ["  " + l for l in self.d_loop()]

    def d_coef(self, c):
        r = self.r
        t = r.random()
        k = self.c(0.03, 0.09, 3)
        if t < 0.45:
            return "%s * (1.0 + %s * %s)" % (k, c, c)
        if t < 0.75:
            return "%s * (1.2 + tanh(%s))" % (k, c)
        return "%s * (1.1 + sin(%s))" % (k, c)

    def d_args(self, k, same):
        """A 1-D double buffer over f's own x and y, the second buffer y or,
        chosen at run time (n < 100), x itself: then updated in place. f's
        arguments are memory an undo log can log (not the stack, not freed):
        the buffer a step writes is logged a row per run, tested at run
        time against the loads the reverse re-reads (lib/gen/undoblock.c),
        each store logged instead when x itself is both. (With --alias, x
        and y may be overlapping views of one buffer.)"""
        r = self.r
        a, b, t, c = "da%d" % k, "db%d" % k, "dt%d" % k, "dc%d" % k
        s, i = self.counter(), self.counter()
        steps = r.choice([1, 2, 3, 5])
        out = ["/* --diffuse: a double-buffered time loop over x and %s */" %
               ("x again, chosen at run time" if same else "y"),
               "double *%s = x, *%s = n %s 100 ? x : y;" % (a, b, "<" if same else ">"),
               "for (int %s = 0; %s < %d; %s++) {" % (s, s, steps, s),
               "  for (int %s = 1; %s < n - 1; %s++) {" % (i, i, i),
               "    double %s = %s[%s];" % (c, a, i),
               "    %s[%s] = %s + %s * (%s[%s - 1] + %s[%s + 1] - 2.0 * %s);" % (
                   b, i, c, self.d_coef(c), a, i, a, i, c),
               "  }",
               "  double *%s = %s; %s = %s; %s = %s;" % (t, a, a, b, b, t),
               "}"]
        acc = "acc%d" % r.randrange(self.naccs)
        out.append("%s += %s * %s[%d] * %s[%d];" % (acc, self.c(0.2, 0.6, 2), a,
                                                    r.randrange(1, N - 1), b, r.randrange(N)))
        return ["{"] + ["  " + l for l in out] + ["}"]

    def d_loop(self):
        r = self.r
        self.d_count += 1
        self.budget -= 3
        k = self.d_count
        R = r.randint(3, 5)
        K = r.randint(2, 5)  # C = n - K: 3..6 at run time
        C = N - K
        a, b, t, c = "da%d" % k, "db%d" % k, "dt%d" % k, "dc%d" % k
        Rn, Cn = "dR%d" % k, "dC%d" % k
        s, i, j, q = self.counter(), self.counter(), self.counter(), self.counter()
        kind = r.random()
        inplace = kind >= 0.85
        out = ["/* --diffuse: a double-buffered %d x (n - %d) time loop */" % (R, K),
               "int %s = %d, %s = n - %d;" % (Rn, R, Cn, K)]
        if kind < 0.55:
            out.append("double *%s = (double *)malloc(%s * %s * sizeof(double));" % (a, Rn, Cn))
            out.append("double *%s = %s;" % (b, a) if inplace else
                       "double *%s = (double *)malloc(%s * %s * sizeof(double));" % (b, Rn, Cn))
            heap = True
        elif kind < 0.75 or inplace:
            out.append("double dg%d[%d];" % (k, 2 * R * C))
            out.append("double *%s = dg%d, *%s = %s;" % (
                a, k, b, a if inplace else "dg%d + %s * %s" % (k, Rn, Cn)))
            heap = False
        else:
            return self.d_args(k, kind >= 0.8)
        sx, sy = r.randint(1, 7), r.randint(1, 7)
        init = "%s[%s] = %s * x[(%s * %d) %% %d] + %s * y[(%s + %d) %% %d];" % (
            a, q, self.c(0.3, 0.7, 2), q, sx, N, self.c(0.1, 0.4, 2), q, sy, N)
        copy = "" if inplace else " %s[%s] = %s[%s];" % (b, q, a, q)
        out.append("for (int %s = 0; %s < %s * %s; %s++) { %s%s }" % (q, q, Rn, Cn, q, init, copy))
        steps = r.choice([1, 2, 3, 4])
        lap = "%s[(%s - 1) * %s + %s] + %s[(%s + 1) * %s + %s] + %s[%s * %s + %s - 1] + " \
              "%s[%s * %s + %s + 1] - 4.0 * %s" % (a, i, Cn, j, a, i, Cn, j, a, i, Cn, j,
                                                   a, i, Cn, j, c)
        at = "%s * %s + %s" % (i, Cn, j)
        body = ["    double %s = %s[%s];" % (c, a, at),
                "    %s[%s] = %s + %s * (%s);" % (b, at, c, self.d_coef(c), lap)]
        lo_i, lo_j = "int %s = 1; %s < %s - 1; %s++" % (i, i, Rn, i), \
            "int %s = 1; %s < %s - 1; %s++" % (j, j, Cn, j)
        outer, inner = (lo_i, lo_j) if r.random() < 0.75 else (lo_j, lo_i)
        out.append("for (int %s = 0; %s < %d; %s++) {" % (s, s, steps, s))
        if not inplace and r.random() < 0.3:  # the border rewritten each step
            out.append("  for (int %s = 0; %s < %s * %s; %s++)" % (q, q, Rn, Cn, q))
            out.append("    %s[%s] = %s[%s];" % (b, q, a, q))
        out += ["  for (%s)" % outer, "    for (%s) {" % inner]
        out += ["  " + l for l in body]
        out += ["    }"]
        if not inplace:
            out.append("  double *%s = %s; %s = %s; %s = %s;" % (t, a, a, b, b, t))
        out.append("}")
        acc = "acc%d" % r.randrange(self.naccs)
        e1, e2 = r.randrange(R * C), r.randrange(C + 1, 2 * C - 1)
        if r.random() < 0.5:
            out.append("%s += %s * %s[%d] * %s[%d];" % (acc, self.c(0.2, 0.6, 2), a, e1, a, e2))
        else:
            out.append("for (int %s = 0; %s < %s * %s; %s++)" % (q, q, Rn, Cn, q))
            out.append("  %s += %s * %s[%s] * (%s %% 3 + 1);" % (acc, self.c(0.05, 0.2, 2),
                                                                a, q, q))
        if heap:
            out.append("free(%s);" % a if inplace else "free(%s); free(%s);" % (a, b))
        return ["{"] + ["  " + l for l in out] + ["}"]
