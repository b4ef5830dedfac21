"""--mpi (every extra draw from a stream of its own): f is an MPI program.
Each rank owns its own x, y and s (main fills them with a stream of rnd()
per rank) and runs the same f: the serial statements of f without --mpi,
unchanged, with 2-4 communication blocks inserted between its top-level
statements (never inside a loop or a branch, so every rank makes the same
calls in the same order), drawn from:
  sendrecv  a halo exchange with the ring neighbours by MPI_Sendrecv (one
            or both directions; periodic, or MPI_PROC_NULL past the ends),
            into local halos blended into an array, or straight into
            elements of an array (overwritten);
  isend     the same by MPI_Irecv / MPI_Isend (posted in either order),
            completed by MPI_Waitall (statuses or MPI_STATUSES_IGNORE) or
            one MPI_Wait per request in a random order, sometimes with an
            update of an accumulator from data the messages do not touch
            between the posts and the waits;
  allreduce MPI_Allreduce of a partial sum, of a vector of squashed values
            or of an array of f itself (MPI_SUM divided by the rank
            count, MPI_MAX or MPI_MIN), the result blended into an
            accumulator, a recurrence or an array;
  reduce    MPI_Reduce (sum, max, min) to a root (0 or the last rank),
            sometimes transformed on the root, then MPI_Bcast back; or an
            MPI_Bcast of the root's own values, which overwrite the other
            ranks' copies;
  gather    MPI_Allgather into a malloc'd or fixed buffer of nprocs * K
            values summed into an accumulator; MPI_Gather to a root that
            sums and broadcasts; or MPI_Scatter of values the root
            computes from its data;
  ring      a ring of blocking MPI_Send (or MPI_Ssend) / MPI_Recv, even
            ranks sending first (from MPI_ANY_SOURCE with the block's tag,
            or with MPI_ANY_TAG from the left neighbour, sometimes), or
            MPI_Isend / MPI_Recv / MPI_Wait; skipped on one rank;
  steps     a time loop (2-4 steps, or n / 4) of a diffusion stencil over
            an array whose end values come from the neighbours' halos
            (Sendrecv or Isend/Irecv/Waitall in every step).
f's result is its local sum of terms, returned as it is, or after an
MPI_Allreduce (sum or max: the total on every rank, or on rank 0 only,
or mixed with the local sum), or an MPI_Reduce to a root that returns it.
f communicates on MPI_COMM_WORLD or on a duplicate of it kept in a global.

main (under MPI_Init / MPI_Finalize) differentiates f on every rank with
__enzyme_autodiff (x, y dup, n const, s out; every rank seeds its result
with 1), so the gradient on rank q is that of J = the sum over the ranks
of f's results, with respect to rank q's inputs. J is computed on every
rank (an MPI_Allreduce of f's results, outside f), and its central
differences in every coordinate of every rank (rank q perturbs it, all
ranks run f), with the step-2h and Richardson values, are collective.
Rank 0 gathers all ranks' gradients and prints the usual MISMATCH /
unstable / f= lines; every rank exits with the same status (0, 1, 77).
run.sh compiles programs with a fuzz-mpi line with mpicc's flags and
runs them with mpirun -np $FUZZ_MPI_RANKS (default 2).

Combines with --calls, --kernels (--inplace), --stencil, --no-loops (the
blocks' own short loops stay loops) and --primal-only; not with the modes
that change main or f's signature."""
import random
import re

from .check import NOTE_REVERSE, PRELUDE, autodiff_call, compare, ind
from .mode import Mode
from .shapes import N

MAXP = 16  # the largest rank count the fixed gather buffers allow

# the modes --mpi combines with (besides itself)
COMBINES = {"mpi", "calls", "kernels", "inplace", "stencil", "primal_only"}


class Mpi(Mode):
    name = "mpi"
    flag = "--mpi"
    help = ("f is an MPI program: each rank owns x and y, f's statements "
            "with halo exchanges (Sendrecv, Isend/Irecv/Wait), "
            "Allreduce/Reduce/Bcast (sum, max, min), Gather/Allgather/"
            "Scatter and Send/Recv rings between them; main checks every "
            "rank's gradient under mpirun (run.sh: FUZZ_MPI_RANKS)")

    @staticmethod
    def on_args(ap, args):
        if not args.mpi:
            return
        from . import MODES
        bad = [m.flag for m in MODES if m.name not in COMBINES
               and getattr(args, m.flag[2:].replace("-", "_"), False)]
        if bad:
            ap.error("--mpi does not combine with %s" % " ".join(bad))

    def on_init(self):
        r = self.m_r = random.Random(self.seed * 6271 + 101)
        self.m_comm = "lt_comm" if r.random() < 0.3 else "MPI_COMM_WORLD"
        self.m_nblocks = r.randint(2, 4)
        self.m_ret = r.choice(["local", "allsum", "allsum", "root0", "reduce", "mixed", "max"])
        self.m_root_last = r.random() < 0.4
        self.m_tag = 10

    # ------------------------------------------------------------ helpers
    def mpi_c(self, lo, hi, nd=3):
        return "%.*f" % (nd, self.m_r.uniform(lo, hi))

    def mpi_step(self, scale=1.0):
        return "%.6g" % (self.m_r.uniform(0.2, 1.0) * scale)

    def mpi_leaf(self, leaves):
        if self.m_r.random() < 0.85:
            return self.m_r.choice(leaves)
        return self.mpi_c(-1.5, 1.5)

    def mpi_expr(self, leaves, depth=2):
        r = self.m_r
        if depth == 0 or r.random() < 0.3:
            return self.mpi_leaf(leaves)
        a = self.mpi_expr(leaves, depth - 1)
        k = r.random()
        if k < 0.25:
            return "(%s + %s)" % (a, self.mpi_expr(leaves, depth - 1))
        if k < 0.35:
            return "(%s - %s)" % (a, self.mpi_expr(leaves, depth - 1))
        if k < 0.55:
            return "(%s * %s)" % (a, self.mpi_expr(leaves, depth - 1))
        if k < 0.6:
            return "(%s * %s)" % (self.mpi_c(-2, 2), a)
        f = r.choice(["sin(@)", "cos(@)", "tanh(@)", "exp(tanh(@))", "sqrt(1.0 + @ * @)",
                      "log(1.0 + @ * @)", "(@ / (1.0 + @ * @))"])
        return f.replace("@", a)

    def mpi_aexpr(self, leaves, depth=2):
        """An expression that reads at least one of leaves."""
        e = self.mpi_expr(leaves, depth)
        if not any(re.search(r"(?<![\w.])%s(?![\w\[])" % re.escape(l), e) for l in leaves):
            e = "(%s * %s)" % (e, self.m_r.choice(leaves))
        return e

    def mpi_squash(self, e):
        f = self.m_r.choice(["sin(@)", "cos(@)", "tanh(@)", "(2.0 * (@) / (1.0 + (@) * (@)))"])
        return f.replace("@", e)

    def mpi_arrays(self):
        return ["x", "y"] + ["t%d" % k for k in range(self.nlocal)]

    def mpi_scalars(self):
        return (["acc%d" % k for k in range(self.naccs)] + ["r%d" % k for k in range(self.nrecs)]
                + (["s"] if self.has_s else []))

    def mpi_leaves(self, q=None, extra=()):
        """Leaves: elements of f's arrays (at q-relative indices in a loop),
        its scalars, and extra (the received values)."""
        r = self.m_r
        out = list(extra) * 2
        for _ in range(3):
            a = r.choice(self.mpi_arrays())
            if q is None:
                out.append("%s[%d]" % (a, r.randrange(N)))
            else:
                out.append("%s[%s]" % (a, r.choice([q, q, "(%s + %d) %% %d" % (q, r.randint(1, N - 1), N),
                                                    "%d - %s" % (N - 1, q)])))
        out += r.sample(self.mpi_scalars(), min(2, len(self.mpi_scalars())))
        return out

    def mpi_blend(self, ref, e):
        a = self.mpi_c(0.2, 0.8, 2)
        return "%s = %s * %s + %.2f * %s;" % (ref, a, ref, 1 - float(a), self.mpi_squash(e))

    def mpi_newtag(self, k=1):
        t = self.m_tag
        self.m_tag += k
        return t

    def mpi_sink(self, vals, count, per):
        """Lines that fold received values vals (@: the loop counter mq;
        count of them: an int or a C expression) into f's
        state: an array blended element-wise, or an accumulator or a
        recurrence."""
        r = self.m_r
        k = r.random()
        val = vals.replace("@", "mq")
        if k < 0.5 and isinstance(count, int) and count <= N:
            b = r.choice(self.mpi_arrays())
            off = r.randint(0, N - count)
            lv = self.mpi_leaves("mq", [val])
            ref = "%s[mq + %d]" % (b, off) if off else "%s[mq]" % b
            e = "(%s + %s)" % (val, self.mpi_aexpr(lv, 1)) if r.random() < 0.6 else \
                "(%s * %s)" % (val, self.mpi_aexpr(lv, 1))
            return ["for (int mq = 0; mq < %s; mq++)" % count, "  " + self.mpi_blend(ref, e)]
        if k < 0.8 or not self.nrecs:
            acc = "acc%d" % r.randrange(self.naccs)
            lv = self.mpi_leaves("mq" if isinstance(count, int) and count <= N else None,
                              [val])
            return ["for (int mq = 0; mq < %s; mq++)" % count,
                    "  %s += %s / (%s) * %s;" % (acc, self.mpi_step(), count,
                                                 self.mpi_squash(self.mpi_aexpr(lv)))]
        rr = "r%d" % r.randrange(self.nrecs)
        return ["for (int mq = 0; mq < %s; mq++)" % count,
                "  " + self.mpi_blend(rr, "(%s + %s * %s)" % (val, self.mpi_c(0.2, 0.9, 2), rr))]

    def mpi_root(self):
        return "nprocs - 1" if self.m_r.random() < 0.4 else "0"

    # ------------------------------------------------------------- blocks
    def mpi_block(self):
        r = self.m_r
        kind = r.choice(["sendrecv", "isend", "allreduce", "allreduce", "reduce", "gather",
                         "ring", "steps"])
        return getattr(self, "mpi_b_" + kind)()

    def mpi_neighbours(self, periodic):
        if periodic:
            return "right", "left"
        return ("(rank + 1 < nprocs ? rank + 1 : MPI_PROC_NULL)",
                "(rank > 0 ? rank - 1 : MPI_PROC_NULL)")

    def mpi_b_sendrecv(self):
        r = self.m_r
        K = r.randint(1, 3)
        periodic = r.random() < 0.75
        R, L = self.mpi_neighbours(periodic)
        A = r.choice(self.mpi_arrays())
        t = self.mpi_newtag(2)
        both = r.random() < 0.6
        st = r.random() < 0.3
        stat = "&mst" if st else "MPI_STATUS_IGNORE"
        out = ["{ /* --mpi: halo exchange with the %s neighbours (MPI_Sendrecv) */" % (
            "ring" if periodic else "line's")]
        if st:
            out.append("  MPI_Status mst;")
        if r.random() < 0.3 and periodic:
            # straight into the first (last) elements of an array
            B = r.choice(self.mpi_arrays())
            out.append("  MPI_Sendrecv(&%s[%d], %d, MPI_DOUBLE, %s, %d, &%s[0], %d, MPI_DOUBLE, %s, %d,"
                       % (A, N - K, K, R, t, B, K, L, t))
            out.append("               %s, %s);" % (self.m_comm, stat))
            if both:
                C = r.choice([a for a in self.mpi_arrays() if a != B] or [B])
                # C's last K from the right neighbour's first K of A (not
                # overlapping B's first K when C == B... C != B here)
                out.append("  MPI_Sendrecv(&%s[%d], %d, MPI_DOUBLE, %s, %d, &%s[%d], %d, MPI_DOUBLE, %s, %d,"
                           % (A, 0 if A != C else N - 2 * K, K, L, t + 1, C, N - K, K, R, t + 1))
                out.append("               %s, %s);" % (self.m_comm, stat))
            return out + ["}"]
        out.append("  double hl[%d], hr[%d];" % (K, K))
        if not periodic:  # MPI_PROC_NULL leaves the halo as it was
            out.append("  for (int mq = 0; mq < %d; mq++) { hl[mq] = %s[mq]; hr[mq] = %s[%d - mq]; }"
                       % (K, A, A, N - 1))
        out.append("  MPI_Sendrecv(&%s[%d], %d, MPI_DOUBLE, %s, %d, hl, %d, MPI_DOUBLE, %s, %d,"
                   % (A, N - K, K, R, t, K, L, t))
        out.append("               %s, %s);" % (self.m_comm, stat))
        if both:
            out.append("  MPI_Sendrecv(%s, %d, MPI_DOUBLE, %s, %d, hr, %d, MPI_DOUBLE, %s, %d, %s,"
                       % (A, K, L, t + 1, K, R, t + 1, self.m_comm))
            out.append("               %s);" % stat)
        else:
            out.append("  for (int mq = 0; mq < %d; mq++) hr[mq] = 0.5 * hl[mq];" % K)
        out += ["  " + l for l in self.mpi_sink("hl[@]", K, K) + self.mpi_sink("hr[@]", K, K)]
        return out + ["}"]

    def mpi_b_isend(self):
        r = self.m_r
        K = r.randint(1, 3)
        A = r.choice(self.mpi_arrays())
        t = self.mpi_newtag(2)
        both = r.random() < 0.7
        out = ["{ /* --mpi: halo exchange with MPI_Irecv / MPI_Isend and their waits */",
               "  double hl[%d], hr[%d];" % (K, K), "  MPI_Request mrq[4];"]
        recvs = ["  MPI_Irecv(hl, %d, MPI_DOUBLE, left, %d, %s, &mrq[@]);" % (K, t, self.m_comm)]
        sends = ["  MPI_Isend(&%s[%d], %d, MPI_DOUBLE, right, %d, %s, &mrq[@]);"
                 % (A, N - K, K, t, self.m_comm)]
        if both:
            recvs.append("  MPI_Irecv(hr, %d, MPI_DOUBLE, right, %d, %s, &mrq[@]);" % (K, t + 1, self.m_comm))
            sends.append("  MPI_Isend(%s, %d, MPI_DOUBLE, left, %d, %s, &mrq[@]);" % (A, K, t + 1, self.m_comm))
        posts = recvs + sends if r.random() < 0.6 else sends + recvs
        if r.random() < 0.3:
            r.shuffle(posts)
        nreq = len(posts)
        out += [p.replace("@", str(i)) for i, p in enumerate(posts)]
        if r.random() < 0.4:
            # work between the posts and the waits: reads f's arrays (the
            # send buffer too), writes an accumulator the messages do not touch
            acc = "acc%d" % r.randrange(self.naccs)
            lv = [l for l in self.mpi_leaves() if not l.startswith("s")]
            lv = [l for l in lv if l != acc] or ["x[0]"]
            out.append("  %s += %s * %s; /* overlapped with the messages */" % (
                acc, self.mpi_step(), self.mpi_squash(self.mpi_aexpr(lv))))
        w = r.random()
        if w < 0.5:
            out.append("  MPI_Waitall(%d, mrq, MPI_STATUSES_IGNORE);" % nreq)
        elif w < 0.7:
            out += ["  MPI_Status msts[4];", "  MPI_Waitall(%d, mrq, msts);" % nreq]
        else:
            order = list(range(nreq))
            r.shuffle(order)
            out += ["  MPI_Wait(&mrq[%d], MPI_STATUS_IGNORE);" % i for i in order]
        if not both:
            out.append("  for (int mq = 0; mq < %d; mq++) hr[mq] = hl[mq] * hl[mq];" % K)
        out += ["  " + l for l in self.mpi_sink("hl[@]", K, K) + self.mpi_sink("hr[@]", K, K)]
        return out + ["}"]

    def mpi_b_allreduce(self):
        r = self.m_r
        op = r.choice(["MPI_SUM", "MPI_SUM", "MPI_MAX", "MPI_MIN"])
        div = " / nprocs" if op == "MPI_SUM" else ""
        k = r.random()
        out = ["{ /* --mpi: MPI_Allreduce (%s) */" % op]
        if k < 0.35:  # a partial sum
            out += ["  double mps = 0.0, mgs;",
                    "  for (int mq = 0; mq < n; mq++)",
                    "    mps += %.6g * %s;" % (1.0 / N, self.mpi_squash(self.mpi_aexpr(self.mpi_leaves("mq")))),
                    "  MPI_Allreduce(&mps, &mgs, 1, MPI_DOUBLE, %s, %s);" % (op, self.m_comm)]
            out += ["  " + l for l in self.mpi_sink("mgs" + div, 1, 1)]
        elif k < 0.7:  # a vector of squashed values
            M = r.randint(2, N)
            out += ["  double mpv[%d], mgv[%d];" % (M, M),
                    "  for (int mq = 0; mq < %d; mq++)" % M,
                    "    mpv[mq] = %s;" % self.mpi_squash(self.mpi_aexpr(self.mpi_leaves("mq"))),
                    "  MPI_Allreduce(mpv, mgv, %d, MPI_DOUBLE, %s, %s);" % (M, op, self.m_comm)]
            out += ["  " + l for l in self.mpi_sink("(mgv[@]%s)" % div, M, M)]
        else:  # an array of f itself
            A = r.choice(self.mpi_arrays())
            M = r.randint(2, N)
            off = r.randint(0, N - M)
            out += ["  double mgv[%d];" % M,
                    "  MPI_Allreduce(%s%s, mgv, %d, MPI_DOUBLE, %s, %s);" % (
                        A, " + %d" % off if off else "", M, op, self.m_comm)]
            out += ["  " + l for l in self.mpi_sink("(mgv[@]%s)" % div, M, M)]
        return out + ["}"]

    def mpi_b_reduce(self):
        r = self.m_r
        root = self.mpi_root()
        M = r.randint(1, 4)
        if r.random() < 0.35:  # the root's values overwrite the others'
            A = r.choice(self.mpi_arrays())
            off = r.randint(0, N - M)
            if r.random() < 0.5:
                return ["{ /* --mpi: MPI_Bcast of the root's elements, in place */",
                        "  MPI_Bcast(&%s[%d], %d, MPI_DOUBLE, %s, %s);" % (A, off, M, root, self.m_comm),
                        "}"]
            out = ["{ /* --mpi: MPI_Bcast of values the root computes */",
                   "  double mbv[%d];" % M,
                   "  for (int mq = 0; mq < %d; mq++)" % M,
                   "    mbv[mq] = %s;" % self.mpi_squash(self.mpi_aexpr(self.mpi_leaves("mq"))),
                   "  MPI_Bcast(mbv, %d, MPI_DOUBLE, %s, %s);" % (M, root, self.m_comm)]
            return out + ["  " + l for l in self.mpi_sink("mbv[@]", M, M)] + ["}"]
        op = r.choice(["MPI_SUM", "MPI_SUM", "MPI_MAX", "MPI_MIN"])
        out = ["{ /* --mpi: MPI_Reduce (%s) to a root, then MPI_Bcast */" % op,
               "  double mpv[%d], mgv[%d];" % (M, M),
               "  for (int mq = 0; mq < %d; mq++) {" % M,
               "    mpv[mq] = %s;" % self.mpi_squash(self.mpi_aexpr(self.mpi_leaves("mq"))),
               "    mgv[mq] = 0.0;", "  }",
               "  MPI_Reduce(mpv, mgv, %d, MPI_DOUBLE, %s, %s, %s);" % (M, op, root, self.m_comm)]
        if r.random() < 0.4:
            out += ["  if (rank == %s)" % root,
                    "    for (int mq = 0; mq < %d; mq++)" % M,
                    "      mgv[mq] = %s;" % self.mpi_squash("mgv[mq] * %s" % (
                        self.mpi_c(0.3, 1.2, 2) + (" / nprocs" if op == "MPI_SUM" else "")))]
        out.append("  MPI_Bcast(mgv, %d, MPI_DOUBLE, %s, %s);" % (M, root, self.m_comm))
        div = " / nprocs" if op == "MPI_SUM" else ""
        return out + ["  " + l for l in self.mpi_sink("(mgv[@]%s)" % div, M, M)] + ["}"]

    def mpi_b_gather(self):
        r = self.m_r
        K = r.randint(1, 3)
        A = r.choice(self.mpi_arrays())
        off = r.randint(0, N - K)
        src = "&%s[%d]" % (A, off)
        heap = r.random() < 0.5
        k = r.random()
        buf = "mg"
        if heap:
            decl = ["  double *mg = malloc(nprocs * %d * sizeof *mg);" % K]
            free = ["  free(mg);"]
        else:
            decl = ["  double mg[MAXP * %d];" % K]
            free = []
        cnt = "nprocs * %d" % K
        if k < 0.45:
            out = ["{ /* --mpi: MPI_Allgather of each rank's elements */"] + decl
            out.append("  MPI_Allgather(%s, %d, MPI_DOUBLE, %s, %d, MPI_DOUBLE, %s);" % (
                src, K, buf, K, self.m_comm))
            out += ["  " + l for l in self.mpi_sink("mg[@]", cnt, None)]
            return out + free + ["}"]
        root = self.mpi_root()
        if k < 0.75:
            lv = ["mg[mq]", "mg[mq]", "mg[(mq + 1) %% (%s)]" % cnt] + self.mpi_leaves()
            out = ["{ /* --mpi: MPI_Gather to a root, which sums, then MPI_Bcast */"] + decl
            out += ["  double mgs = 0.0;",
                    "  MPI_Gather(%s, %d, MPI_DOUBLE, %s, %d, MPI_DOUBLE, %s, %s);" % (
                        src, K, buf, K, root, self.m_comm),
                    "  if (rank == %s)" % root,
                    "    for (int mq = 0; mq < %s; mq++)" % cnt,
                    "      mgs += %s / (%s) * %s;" % (self.mpi_step(), cnt, self.mpi_squash(self.mpi_aexpr(lv))),
                    "  MPI_Bcast(&mgs, 1, MPI_DOUBLE, %s, %s);" % (root, self.m_comm)]
            out += ["  " + l for l in self.mpi_sink("mgs", 1, 1)]
            return out + free + ["}"]
        lv = self.mpi_leaves(None, ["%s[mq %% %d]" % (A, N)])
        out = ["{ /* --mpi: MPI_Scatter of values the root computes */"] + decl
        out += ["  double mrv[%d];" % K,
                "  if (rank == %s)" % root,
                "    for (int mq = 0; mq < %s; mq++)" % cnt,
                "      mg[mq] = %s;" % self.mpi_squash("%s * (1.0 + 0.1 * mq)" % self.mpi_aexpr(lv)),
                "  MPI_Scatter(mg, %d, MPI_DOUBLE, mrv, %d, MPI_DOUBLE, %s, %s);" % (
                    K, K, root, self.m_comm)]
        out += ["  " + l for l in self.mpi_sink("mrv[@]", K, K)]
        return out + free + ["}"]

    def mpi_b_ring(self):
        r = self.m_r
        K = r.randint(1, 3)
        A = r.choice(self.mpi_arrays())
        off = r.randint(0, N - K)
        t = self.mpi_newtag()
        src, tag = "left", str(t)
        k = r.random()
        if k < 0.2:
            src = "MPI_ANY_SOURCE"   # this block's tag: its one message
        elif k < 0.35:
            tag = "MPI_ANY_TAG"      # from the left: non-overtaking
        st = "&mst" if src != "left" or tag != str(t) or r.random() < 0.3 else "MPI_STATUS_IGNORE"
        send = "MPI_Ssend" if r.random() < 0.25 else "MPI_Send"
        snd = "%s(&%s[%d], %d, MPI_DOUBLE, right, %d, %s);" % (send, A, off, K, t, self.m_comm)
        rcv = "MPI_Recv(mrv, %d, MPI_DOUBLE, %s, %s, %s, %s);" % (K, src, tag, self.m_comm, st)
        sink = self.mpi_sink("mrv[@]", K, K)
        if r.random() < 0.3:
            out = ["{ /* --mpi: a ring of MPI_Isend, MPI_Recv, MPI_Wait */",
                   "  double mrv[%d];" % K, "  MPI_Request mrq;"]
            if st != "MPI_STATUS_IGNORE":
                out.append("  MPI_Status mst;")
            out += ["  MPI_Isend(&%s[%d], %d, MPI_DOUBLE, right, %d, %s, &mrq);" % (
                        A, off, K, t, self.m_comm),
                    "  " + rcv, "  MPI_Wait(&mrq, MPI_STATUS_IGNORE);"]
            return out + ["  " + l for l in sink] + ["}"]
        out = ["if (nprocs > 1) { /* --mpi: a ring of blocking %s / MPI_Recv */" % send,
               "  double mrv[%d];" % K]
        if st != "MPI_STATUS_IGNORE":
            out.append("  MPI_Status mst;")
        out += ["  if (rank %% 2 == 0) {", "    " + snd, "    " + rcv,
                "  } else {", "    " + rcv, "    " + snd, "  }"]
        out = [l.replace("%%", "%") for l in out]
        return out + ["  " + l for l in sink] + ["}"]

    def mpi_b_steps(self):
        r = self.m_r
        A = r.choice(self.mpi_arrays())
        steps = r.choice(["2", "3", "4", "n / 4"])
        t = self.mpi_newtag(2)
        c = self.mpi_c(0.05, 0.25, 2)
        c2 = self.mpi_c(0.02, 0.12, 2)
        nl = r.choice(["sin(%s[mq])" % A, "tanh(%s[mq] * %s[mq])" % (A, A),
                       "(%s[mq] / (1.0 + %s[mq] * %s[mq]))" % (A, A, A)])
        out = ["{ /* --mpi: time steps of a stencil over %s, halos from the neighbours */" % A,
               "  for (int mit = 0; mit < %s; mit++) {" % steps,
               "    double hl, hr, mnw[N];"]
        if r.random() < 0.5:
            out += ["    MPI_Sendrecv(&%s[N - 1], 1, MPI_DOUBLE, right, %d, &hl, 1, MPI_DOUBLE, left, %d,"
                    % (A, t, t), "                 %s, MPI_STATUS_IGNORE);" % self.m_comm,
                    "    MPI_Sendrecv(&%s[0], 1, MPI_DOUBLE, left, %d, &hr, 1, MPI_DOUBLE, right, %d,"
                    % (A, t + 1, t + 1), "                 %s, MPI_STATUS_IGNORE);" % self.m_comm]
        else:
            out += ["    MPI_Request mrq[4];",
                    "    MPI_Irecv(&hl, 1, MPI_DOUBLE, left, %d, %s, &mrq[0]);" % (t, self.m_comm),
                    "    MPI_Irecv(&hr, 1, MPI_DOUBLE, right, %d, %s, &mrq[1]);" % (t + 1, self.m_comm),
                    "    MPI_Isend(&%s[N - 1], 1, MPI_DOUBLE, right, %d, %s, &mrq[2]);" % (A, t, self.m_comm),
                    "    MPI_Isend(&%s[0], 1, MPI_DOUBLE, left, %d, %s, &mrq[3]);" % (A, t + 1, self.m_comm),
                    "    MPI_Waitall(4, mrq, MPI_STATUSES_IGNORE);"]
        out += ["    for (int mq = 0; mq < N; mq++) {",
                "      double lf = mq > 0 ? %s[mq - 1] : hl;" % A,
                "      double rt = mq < N - 1 ? %s[mq + 1] : hr;" % A,
                "      mnw[mq] = %s[mq] + %s * (lf - 2.0 * %s[mq] + rt) + %s * %s;" % (A, c, A, c2, nl),
                "    }"]
        if r.random() < 0.5:
            out.append("    memcpy(%s, mnw, sizeof mnw);" % A)
        else:
            out.append("    for (int mq = 0; mq < N; mq++) %s[mq] = mnw[mq];" % A)
        return out + ["  }", "}"]

    # -------------------------------------------------------------- hooks
    def on_setup(self):
        return ["  int rank, nprocs; /* --mpi */",
                "  MPI_Comm_rank(%s, &rank);" % self.m_comm,
                "  MPI_Comm_size(%s, &nprocs);" % self.m_comm,
                "  int left = (rank + nprocs - 1) %% nprocs, right = (rank + 1) %% nprocs;".replace(
                    "%%", "%"),
                "  (void)left; (void)right;"]

    def on_ret(self, terms):
        r = self.m_r
        k = self.m_ret
        root = "nprocs - 1" if self.m_root_last else "0"
        out = ["  double lt_loc = " + " + ".join(terms) + ";"]
        if k == "local":
            return out + ["  return lt_loc; /* --mpi: J sums the ranks' results */"]
        if k == "reduce":
            return out + ["  double lt_tot = 0.0;",
                          "  MPI_Reduce(&lt_loc, &lt_tot, 1, MPI_DOUBLE, MPI_SUM, %s, %s);" % (
                              root, self.m_comm),
                          "  return rank == %s ? lt_tot : 0.0;" % root]
        op = "MPI_MAX" if k == "max" else "MPI_SUM"
        out += ["  double lt_tot;",
                "  MPI_Allreduce(&lt_loc, &lt_tot, 1, MPI_DOUBLE, %s, %s);" % (op, self.m_comm)]
        if k == "allsum":
            return out + ["  return lt_tot;"]
        if k == "root0":
            return out + ["  return rank == 0 ? lt_tot : 0.0;"]
        if k == "mixed":
            return out + ["  return tanh(lt_tot / nprocs) + %s * lt_loc;" % self.mpi_c(0.2, 0.8, 2)]
        return out + ["  return lt_tot + %s * lt_loc;" % self.mpi_c(0.1, 0.5, 2)]

    def on_head(self):
        out = ("/* fuzz-mpi: compile with mpicc's flags ($(mpicc -showme:compile), -lm\n"
               "   $(mpicc -showme:link)), run with mpirun -np 2 (run.sh: FUZZ_MPI_RANKS) */\n"
               "#define MAXP %d /* the most ranks f's fixed buffers allow */\n" % MAXP)
        if self.m_comm == "lt_comm":
            out += "static MPI_Comm lt_comm; /* a duplicate of MPI_COMM_WORLD (main) */\n"
        return out

    def on_main(self, fn):
        r = self.m_r
        fn = list(fn)
        # the top-level statements of f after the setup: where blocks go
        start = next(i for i, l in enumerate(fn) if l.startswith("  MPI_Comm_size(")) + 3
        end = next(i for i in range(len(fn) - 1, -1, -1) if fn[i].startswith("  double lt_loc = "))
        spots = [i for i in range(start, end + 1)
                 if fn[i].startswith("  ") and not fn[i].startswith("   ")
                 and not fn[i].startswith("  }") and not fn[i].startswith("  #")]
        picks = sorted(r.choice(spots) for _ in range(self.m_nblocks))
        blocks = {}
        for i in picks:
            blocks.setdefault(i, []).append(["  " + l for l in self.mpi_block()])
        body = []
        for i, l in enumerate(fn):
            for b in blocks.get(i, []):
                body += b
            body.append(l)
        head = self.head().replace("#include <math.h>\n", "#include <math.h>\n#include <mpi.h>\n", 1)
        return head + "\n".join(body) + "\n" + self.mpi_main()

    def on_text(self, text):
        return text.replace(
            " *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude prog.c -lm\n",
            " *   clang-22 -O2 $(mpicc -showme:compile) -fpass-plugin=build/lib/LLVMLeantape.so\n"
            " *     -Iinclude prog.c -lm $(mpicc -showme:link)\n"
            " *   mpirun -np 2 ./a.out   (as root: --allow-run-as-root --oversubscribe)\n", 1)

    # ---------------------------------------------------------------- main
    def mpi_main(self):
        s = self.has_s
        K = "2 * N + 1" if s else "2 * N"
        sp = ", double s" if s else ""
        fcall = "f(x, y, n%s)" % (", s" if s else "")
        call = autodiff_call(self, ["enzyme_dup, x, dx", "enzyme_dup, y, dy", "enzyme_const, n"]
                             + ["enzyme_out, s0"] * s, ["x", "y", "n"] + ["s0"] * s, True)
        names = ["char nm[40];",
                 "int q = k / K, c = k % K;",
                 'if (c < N) snprintf(nm, sizeof nm, "rank %d dx[%d]", q, c);',
                 'else if (c < 2 * N) snprintf(nm, sizeof nm, "rank %d dy[%d]", q, c - N);',
                 'else snprintf(nm, sizeof nm, "rank %d ds", q);']
        cmp = ind(compare("k", names, ["double r = rr[k];"], NOTE_REVERSE), "      ")
        dup = ("  MPI_Comm_dup(MPI_COMM_WORLD, &lt_comm);\n" if self.m_comm == "lt_comm" else "")
        free_dup = ("  MPI_Comm_free(&lt_comm);\n" if self.m_comm == "lt_comm" else "")
        return PRELUDE % {"seed": self.seed} + """
static int lt_rank, lt_size;

/* The objective J, the same on every rank: the sum over the ranks of f's
   results (each rank's __enzyme_autodiff seeds its own with 1.0), f on
   copies (f may overwrite x and y in place). Collective. */
static double eval(const double *x0, const double *y0, int n%(sp)s) {
  double x[N], y[N], v, J;
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  v = %(fcall)s;
  MPI_Allreduce(&v, &J, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return J;
}

/* central difference of J in coordinate c (c < N: x, c < 2N: y, else s)
   of rank q, step h: rank q perturbs it, every rank runs f. Collective. */
static double fd(const double *x0, const double *y0, int n, double s0, int q, int c,
                 double h) {
  double xp[N], yp[N], xm[N], ym[N], sp = s0, sm = s0;
  memcpy(xp, x0, sizeof xp); memcpy(xm, x0, sizeof xm);
  memcpy(yp, y0, sizeof yp); memcpy(ym, y0, sizeof ym);
  if (lt_rank == q) {
    if (c < N) { xp[c] += h; xm[c] -= h; }
    else if (c < 2 * N) { yp[c - N] += h; ym[c - N] -= h; }
    else { sp += h; sm -= h; }
  }
  (void)sp; (void)sm;
  return (eval(xp, yp, n%(spv)s) - eval(xm, ym, n%(smv)s)) / (2.0 * h);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &lt_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &lt_size);
  if (lt_size > MAXP) {
    if (lt_rank == 0) printf("more than MAXP = %%d ranks\\n", MAXP);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
%(dup)s  /* each rank its own inputs: a stream of rnd() per rank */
  lt_state += 0x9E3779B97F4A7C15ULL * (unsigned long long)lt_rank;
  double x0[N], y0[N], s0 = 0.0;
  for (int i = 0; i < N; i++) x0[i] = rnd();
  for (int i = 0; i < N; i++) y0[i] = rnd();
  s0 = rnd();
  int n = n_runtime;
  const int K = %(K)s; /* coordinates per rank */

  double x[N], y[N], dx[N], dy[N];
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  double ds = 0.0;
  %(call)s
  (void)ds;

  /* every rank's inputs and gradient, on every rank: coordinate k = q K + c */
  double vl[2 * N + 1], adl[2 * N + 1];
  for (int i = 0; i < N; i++) {
    vl[i] = x0[i]; vl[N + i] = y0[i];
    adl[i] = dx[i]; adl[N + i] = dy[i];
  }
  vl[2 * N] = s0; adl[2 * N] = ds;
  int NK = lt_size * K;
  double *v = malloc(NK * sizeof *v), *ad = malloc(NK * sizeof *ad);
  double *fd1 = malloc(NK * sizeof *fd1), *fd2 = malloc(NK * sizeof *fd2);
  double *rr = malloc(NK * sizeof *rr);
  MPI_Allgather(vl, K, MPI_DOUBLE, v, K, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Allgather(adl, K, MPI_DOUBLE, ad, K, MPI_DOUBLE, MPI_COMM_WORLD);

  double fval = eval(x0, y0, n%(s0)s);
  double gmax = 0.0;
  for (int k = 0; k < NK; k++) { /* all collective: every rank runs them all */
    int q = k / K, c = k %% K;
    double h = 1e-6 * (fabs(v[k]) > 1.0 ? fabs(v[k]) : 1.0);
    fd1[k] = fd(x0, y0, n, s0, q, c, h);
    fd2[k] = fd(x0, y0, n, s0, q, c, 2.0 * h);
    /* the second opinion, Richardson's extrapolation from H = 1e3 h and H/2 */
    double H = 1e3 * h;
    rr[k] = (4.0 * fd(x0, y0, n, s0, q, c, 0.5 * H) - fd(x0, y0, n, s0, q, c, H)) / 3.0;
    if (fabs(fd1[k]) > gmax) gmax = fabs(fd1[k]);
  }
  double floor_ = 1e-8 * gmax + 1e-9 * (fabs(fval) > 1.0 ? fabs(fval) : 1.0);
  int bad = 0, unstable = 0;
  if (lt_rank == 0) {
    for (int k = 0; k < NK; k++) {
%(cmp)s    }
    printf("f=%%.12g gmax=%%.6g ranks=%%d checked=%%d mismatches=%%d unstable=%%d\\n", fval,
           gmax, lt_size, NK, bad, unstable);
  }
  int res[2] = { bad, unstable };
  MPI_Bcast(res, 2, MPI_INT, 0, MPI_COMM_WORLD);
  bad = res[0];
  unstable = res[1];
  free(v); free(ad); free(fd1); free(fd2); free(rr);
%(free_dup)s  MPI_Finalize();
  printf("lt-mpi: rank %%d finalized\\n", lt_rank);
  fflush(stdout);
  if (bad) return 1;
  if (unstable) return 77;
  return 0;
}
""" % {"sp": sp, "fcall": fcall, "spv": ", sp" if s else "", "smv": ", sm" if s else "",
       "dup": dup, "free_dup": free_dup, "K": K, "call": call, "s0": ", s0" if s else "",
       "cmp": cmp}
