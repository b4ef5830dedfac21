/* mpirt.c: the MPI helpers derivatives call, as LLVM IR linked into the
 * module once (per handle ABI: OpenMPI's pointer handles or MPICH's int
 * ones, H below).
 *
 * Reverse: lt.mpi.rsend/rrecv/rallreduce/rreduce/rbcast emit the adjoint
 * communication of one blocking call; a nonblocking call pushes a record
 * (what it sent or received, its shadow buffer) that the reverse of its
 * wait starts and the reverse of the call completes (mpirtreq.c: Enzyme's
 * shadow request, kept beside the request instead of in its shadow, whose
 * size MPICH's int handles would not allow). Forward: lt.mpi.f* send the
 * tangent the way the primal goes, one lane per call; nonblocking ones
 * keep their own request on the same list. Buffers are MPI_DOUBLE (fl 0)
 * or MPI_FLOAT (fl 1), adjoints added atomically with LT_MPI_ATOMIC (2)
 * in fl; a null shadow sends zeros and drops what arrives.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* %H: the handle type; %S: the suffix of the names. Rank and counts are
 * i32, as in the C bindings. */
static const char *const rt_ir =
    "declare i32 @MPI_Send(ptr, i32, %H, i32, i32, %H)\n"
    "declare i32 @MPI_Recv(ptr, i32, %H, i32, i32, %H, ptr)\n"
    "declare i32 @MPI_Isend(ptr, i32, %H, i32, i32, %H, ptr)\n"
    "declare i32 @MPI_Irecv(ptr, i32, %H, i32, i32, %H, ptr)\n"
    "declare i32 @MPI_Wait(ptr, ptr)\n"
    "declare i32 @MPI_Bcast(ptr, i32, %H, i32, %H)\n"
    "declare i32 @MPI_Reduce(ptr, ptr, i32, %H, %H, i32, %H)\n"
    "declare i32 @MPI_Allreduce(ptr, ptr, i32, %H, %H, %H)\n"
    "declare i32 @MPI_Comm_rank(%H, ptr)\n"
    "declare ptr @malloc(i64)\n"
    "declare ptr @calloc(i64, i64)\n"
    "declare void @free(ptr)\n"
    "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
    "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
    /* bytes of n elements */
    "define hidden i64 @lt.mpi.bytes%S(i32 %n, i32 %fl) {\n"
    "  %fl1 = and i32 %fl, 1\n"
    "  %fl.b = icmp ne i32 %fl1, 0\n"
    "  %w = select i1 %fl.b, i64 4, i64 8\n"
    "  %nn = sext i32 %n to i64\n"
    "  %r = mul i64 %nn, %w\n"
    "  ret i64 %r\n}\n"
    /* dst[i] += src[i], atomically with LT_MPI_ATOMIC in fl (on a team,
     * where another thread's send may have read the same buffer); nothing
     * when dst is null */
    "define hidden void @lt.mpi.acc%S(ptr %dst, ptr %src, i32 %n, i32 %fl) {\n"
    "entry:\n"
    "  %nul = icmp eq ptr %dst, null\n"
    "  %fl1 = and i32 %fl, 1\n"
    "  %isf = icmp ne i32 %fl1, 0\n"
    "  %fl2 = and i32 %fl, 2\n"
    "  %atom = icmp ne i32 %fl2, 0\n"
    "  br i1 %nul, label %done, label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %next ]\n"
    "  %c = icmp slt i32 %i, %n\n"
    "  br i1 %c, label %body, label %done\n"
    "body:\n"
    "  br i1 %isf, label %f32, label %f64\n"
    "f32:\n"
    "  %pd = getelementptr float, ptr %dst, i32 %i\n"
    "  %ps = getelementptr float, ptr %src, i32 %i\n"
    "  %b = load float, ptr %ps\n"
    "  br i1 %atom, label %a32, label %p32\n"
    "a32:\n"
    "  atomicrmw fadd ptr %pd, float %b monotonic, align 4\n"
    "  br label %next\n"
    "p32:\n"
    "  %a = load float, ptr %pd\n"
    "  %s = fadd float %a, %b\n"
    "  store float %s, ptr %pd\n"
    "  br label %next\n"
    "f64:\n"
    "  %qd = getelementptr double, ptr %dst, i32 %i\n"
    "  %qs = getelementptr double, ptr %src, i32 %i\n"
    "  %y = load double, ptr %qs\n"
    "  br i1 %atom, label %a64, label %p64\n"
    "a64:\n"
    "  atomicrmw fadd ptr %qd, double %y monotonic, align 8\n"
    "  br label %next\n"
    "p64:\n"
    "  %x = load double, ptr %qd\n"
    "  %z = fadd double %x, %y\n"
    "  store double %z, ptr %qd\n"
    "  br label %next\n"
    "next:\n"
    "  %i1 = add i32 %i, 1\n"
    "  br label %head\n"
    "done:\n"
    "  ret void\n}\n"
    /* a zeroed buffer when sh is null, else sh */
    "define hidden ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl) {\n"
    "  %nul = icmp eq ptr %sh, null\n"
    "  br i1 %nul, label %z, label %k\n"
    "z:\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %p = call ptr @calloc(i64 %b, i64 1)\n"
    "  ret ptr %p\n"
    "k:\n"
    "  ret ptr %sh\n}\n"
    /* sh = 0 (sh not null), or free the zero buffer orzero made */
    "define hidden void @lt.mpi.clear%S(ptr %sh, ptr %buf, i32 %n, i32 %fl) {\n"
    "  %nul = icmp eq ptr %sh, null\n"
    "  br i1 %nul, label %f, label %z\n"
    "f:\n"
    "  call void @free(ptr %buf)\n"
    "  ret void\n"
    "z:\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  call void @llvm.memset.p0.i64(ptr %sh, i8 0, i64 %b, i1 false)\n"
    "  ret void\n}\n"
    /* reverse of Send: receive the adjoint, add it into the shadow (a
     * zeroed buffer: a receive from MPI_PROC_NULL leaves it as it is) */
    "define hidden void @lt.mpi.rsend%S(ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl) {\n"
    "  %st = alloca [64 x i8], align 8\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @calloc(i64 %b, i64 1)\n"
    "  call i32 @MPI_Recv(ptr %t, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, ptr %st)\n"
    "  call void @lt.mpi.acc%S(ptr %sh, ptr %t, i32 %n, i32 %fl)\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n"
    /* reverse of Recv: send the shadow back, zero it (a receive from
     * MPI_PROC_NULL left the buffer as it was: its adjoint stays) */
    "define hidden void @lt.mpi.rrecv%S(ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl) {\n"
    "  %none = icmp eq i32 %peer, %N\n"
    "  br i1 %none, label %out, label %go\n"
    "go:\n"
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl)\n"
    "  call i32 @MPI_Send(ptr %buf, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm)\n"
    "  call void @lt.mpi.clear%S(ptr %sh, ptr %buf, i32 %n, i32 %fl)\n"
    "  ret void\n"
    "out:\n"
    "  ret void\n}\n"
    /* reverse of Allreduce(SUM): every contributor gets the sum of the
     * result's adjoints */
    "define hidden void @lt.mpi.rallreduce%S(ptr %ssh, ptr %rsh, i32 %n, %H %dt, %H %op, %H %comm, i32 %fl) {\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @malloc(i64 %b)\n"
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %rsh, i32 %n, i32 %fl)\n"
    "  call i32 @MPI_Allreduce(ptr %buf, ptr %t, i32 %n, %H %dt, %H %op, %H %comm)\n"
    "  call void @lt.mpi.clear%S(ptr %rsh, ptr %buf, i32 %n, i32 %fl)\n"
    "  call void @lt.mpi.acc%S(ptr %ssh, ptr %t, i32 %n, i32 %fl)\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n"
    /* reverse of Reduce(SUM) to root: the root's adjoint, broadcast */
    "define hidden void @lt.mpi.rreduce%S(ptr %ssh, ptr %rsh, i32 %n, %H %dt, i32 %root, %H %comm, i32 %fl) {\n"
    "  %rk = alloca i32\n"
    "  call i32 @MPI_Comm_rank(%H %comm, ptr %rk)\n"
    "  %r = load i32, ptr %rk\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @calloc(i64 %b, i64 1)\n"
    "  %isroot = icmp eq i32 %r, %root\n"
    "  %has = icmp ne ptr %rsh, null\n"
    "  %take = and i1 %isroot, %has\n"
    "  br i1 %take, label %own, label %go\n"
    "own:\n"
    "  call void @llvm.memcpy.p0.p0.i64(ptr %t, ptr %rsh, i64 %b, i1 false)\n"
    "  call void @llvm.memset.p0.i64(ptr %rsh, i8 0, i64 %b, i1 false)\n"
    "  br label %go\n"
    "go:\n"
    "  call i32 @MPI_Bcast(ptr %t, i32 %n, %H %dt, i32 %root, %H %comm)\n"
    "  call void @lt.mpi.acc%S(ptr %ssh, ptr %t, i32 %n, i32 %fl)\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n"
    /* reverse of Bcast: the sum of all adjoints goes to the root's */
    "define hidden void @lt.mpi.rbcast%S(ptr %sh, i32 %n, %H %dt, %H %sum, i32 %root, %H %comm, i32 %fl) {\n"
    "  %rk = alloca i32\n"
    "  call i32 @MPI_Comm_rank(%H %comm, ptr %rk)\n"
    "  %r = load i32, ptr %rk\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @calloc(i64 %b, i64 1)\n"
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl)\n"
    "  call i32 @MPI_Reduce(ptr %buf, ptr %t, i32 %n, %H %dt, %H %sum, i32 %root, %H %comm)\n"
    "  call void @lt.mpi.clear%S(ptr %sh, ptr %buf, i32 %n, i32 %fl)\n"
    "  %isroot = icmp eq i32 %r, %root\n"
    "  br i1 %isroot, label %own, label %done\n"
    "own:\n"
    "  call void @lt.mpi.acc%S(ptr %sh, ptr %t, i32 %n, i32 %fl)\n"
    "  br label %done\n"
    "done:\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n"
    ;

/* The second half (C compilers limit the length of one string literal):
 * the tangents of the blocking calls. */
static const char *const rt_ir2 =
    /* tangents of the blocking calls */
    "define hidden void @lt.mpi.fsend%S(ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl) {\n"
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl)\n"
    "  call i32 @MPI_Send(ptr %buf, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm)\n"
    "  %nul = icmp eq ptr %sh, null\n"
    "  br i1 %nul, label %f, label %k\n"
    "f:\n"
    "  call void @free(ptr %buf)\n"
    "  ret void\n"
    "k:\n"
    "  ret void\n}\n"
    "define hidden void @lt.mpi.frecv%S(ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl) {\n"
    "  %st = alloca [64 x i8], align 8\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @malloc(i64 %b)\n"
    "  %nul = icmp eq ptr %sh, null\n"
    "  %into = select i1 %nul, ptr %t, ptr %sh\n"
    "  call i32 @MPI_Recv(ptr %into, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, ptr %st)\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n"
    "define hidden void @lt.mpi.fbcast%S(ptr %sh, i32 %n, %H %dt, i32 %root, %H %comm, i32 %fl) {\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @calloc(i64 %b, i64 1)\n"
    "  %nul = icmp eq ptr %sh, null\n"
    "  %into = select i1 %nul, ptr %t, ptr %sh\n"
    "  call i32 @MPI_Bcast(ptr %into, i32 %n, %H %dt, i32 %root, %H %comm)\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n"
    /* Reduce (root >= 0) or Allreduce (root < 0) of the tangents */
    "define hidden void @lt.mpi.freduce%S(ptr %ssh, ptr %rsh, i32 %n, %H %dt, %H %op, i32 %root, %H %comm, i32 %fl) {\n"
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @calloc(i64 %b, i64 1)\n"
    "  %src = call ptr @lt.mpi.orzero%S(ptr %ssh, i32 %n, i32 %fl)\n"
    "  %nul = icmp eq ptr %rsh, null\n"
    "  %into = select i1 %nul, ptr %t, ptr %rsh\n"
    "  %all = icmp slt i32 %root, 0\n"
    "  br i1 %all, label %a, label %r\n"
    "a:\n"
    "  call i32 @MPI_Allreduce(ptr %src, ptr %into, i32 %n, %H %dt, %H %op, %H %comm)\n"
    "  br label %done\n"
    "r:\n"
    "  call i32 @MPI_Reduce(ptr %src, ptr %into, i32 %n, %H %dt, %H %op, i32 %root, %H %comm)\n"
    "  br label %done\n"
    "done:\n"
    "  %snul = icmp eq ptr %ssh, null\n"
    "  br i1 %snul, label %fs, label %k\n"
    "fs:\n"
    "  call void @free(ptr %src)\n"
    "  br label %k\n"
    "k:\n"
    "  call void @free(ptr %t)\n"
    "  ret void\n}\n";

/* the parts' text, concatenated, with %H, %S and %N (MPI_PROC_NULL of the
 * ABI: OpenMPI's -2, MPICH's -1) replaced */
static char *instantiate(const char *const *parts, int np, const char *H, const char *S,
                         const char *N) {
  size_t len = 0, n = 0;
  for (int k = 0; k < np; k++)
    len += strlen(parts[k]);
  char *out = lt_xcalloc(len * 2 + 1, 1);
  for (int part = 0; part < np; part++)
    for (const char *p = parts[part]; *p; p++) {
      const char *rep = NULL;
      if (p[0] == '%' && p[1] == 'H')
        rep = H;
      else if (p[0] == '%' && p[1] == 'S')
        rep = S;
      else if (p[0] == '%' && p[1] == 'N')
        rep = N;
      if (rep) {
        size_t r = strlen(rep);
        memcpy(out + n, rep, r);
        n += r;
        p++;
      } else {
        out[n++] = *p;
      }
    }
  out[n] = 0;
  return out;
}

LLVMValueRef lt_mpi_helper(LtCtx *c, int int_handles, const char *name) {
  const char *S = int_handles ? ".i" : ".p";
  char full[64];
  snprintf(full, sizeof full, "lt.mpi.%s%s", name, S);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, full);
  if (f)
    return f;
  const char *const parts[] = {rt_ir, rt_ir2, lt_mpirt_req_text(0), lt_mpirt_req_text(1),
                               lt_mpirt_coll_text(0), lt_mpirt_coll_text(1)};
  char *text = instantiate(parts, 6, int_handles ? "i32" : "ptr", S, int_handles ? "-1" : "-2");
  int bad = lt_link_ir(c, text, "the MPI helpers", "lt.mpi.");
  free(text);
  if (bad)
    return NULL;
  return LLVMGetNamedFunction(c->mod, full);
}
