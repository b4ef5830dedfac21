/* mpirt.c: the MPI helpers derivatives call, as LLVM IR linked into the
 * module once (per handle ABI: OpenMPI's pointer handles or MPICH's int
 * ones, H below).
 *
 * Reverse: lt.mpi.rsend/rrecv/rallreduce/rreduce/rbcast emit the adjoint
 * communication of one blocking call; a nonblocking call pushes a record
 * (what it sent or received, its shadow buffer) keyed by the address of
 * its request on a LIFO list in A; the reverse of MPI_Wait(all) finds the
 * newest record of that address and starts the adjoint communication, the
 * reverse of MPI_Isend/Irecv completes it and pops the record (Enzyme's
 * shadow request, kept beside the request instead of in its shadow, whose
 * size MPICH's int handles would not allow). Forward: lt.mpi.f* send the
 * tangent the way the primal goes; nonblocking ones keep their own
 * request on the same list. Buffers are MPI_DOUBLE (fl 0) or MPI_FLOAT
 * (fl 1); a null shadow sends zeros and drops what arrives.
 */
#include "lt.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* %H: the handle type; %S: the suffix of the names. Rank and counts are
 * i32, as in the C bindings. */
static const char *const rt_ir =
    "%lt.mpi.node = type { ptr, ptr, i32, i32, ptr, ptr, i32, %H, i32, i32, %H, i32, [16 x i8] }\n"
    "@lt.mpi.pending%S = hidden global ptr null\n"
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
    "  %fl.b = icmp ne i32 %fl, 0\n"
    "  %w = select i1 %fl.b, i64 4, i64 8\n"
    "  %nn = sext i32 %n to i64\n"
    "  %r = mul i64 %nn, %w\n"
    "  ret i64 %r\n}\n"
    /* dst[i] += src[i]; nothing when dst is null */
    "define hidden void @lt.mpi.acc%S(ptr %dst, ptr %src, i32 %n, i32 %fl) {\n"
    "entry:\n"
    "  %nul = icmp eq ptr %dst, null\n"
    "  %isf = icmp ne i32 %fl, 0\n"
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
    "  %a = load float, ptr %pd\n"
    "  %b = load float, ptr %ps\n"
    "  %s = fadd float %a, %b\n"
    "  store float %s, ptr %pd\n"
    "  br label %next\n"
    "f64:\n"
    "  %qd = getelementptr double, ptr %dst, i32 %i\n"
    "  %qs = getelementptr double, ptr %src, i32 %i\n"
    "  %x = load double, ptr %qd\n"
    "  %y = load double, ptr %qs\n"
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
    /* reverse of Recv: send the shadow back, zero it */
    "define hidden void @lt.mpi.rrecv%S(ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl) {\n"
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl)\n"
    "  call i32 @MPI_Send(ptr %buf, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm)\n"
    "  call void @lt.mpi.clear%S(ptr %sh, ptr %buf, i32 %n, i32 %fl)\n"
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
    /* nonblocking: a record per request address, LIFO; kind 0 Isend,
     * 1 Irecv (reverse records), 2 a tangent's own request */
    "define hidden void @lt.mpi.push%S(ptr %addr, i32 %kind, ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl, ptr %tmp) {\n"
    "  %nd = call ptr @calloc(i64 1, i64 128)\n"
    "  %head = load ptr, ptr @lt.mpi.pending%S\n"
    "  %f0 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 0\n"
    "  store ptr %head, ptr %f0\n"
    "  %f1 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 1\n"
    "  store ptr %addr, ptr %f1\n"
    "  %f2 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 2\n"
    "  store i32 %kind, ptr %f2\n"
    "  %f4 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 4\n"
    "  store ptr %sh, ptr %f4\n"
    "  %f5 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 5\n"
    "  store ptr %tmp, ptr %f5\n"
    "  %f6 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 6\n"
    "  store i32 %n, ptr %f6\n"
    "  %f7 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 7\n"
    "  store %H %dt, ptr %f7\n"
    "  %f8 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 8\n"
    "  store i32 %peer, ptr %f8\n"
    "  %f9 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 9\n"
    "  store i32 %tag, ptr %f9\n"
    "  %f10 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 10\n"
    "  store %H %comm, ptr %f10\n"
    "  %f11 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 11\n"
    "  store i32 %fl, ptr %f11\n"
    "  store ptr %nd, ptr @lt.mpi.pending%S\n"
    "  ret void\n}\n"
    /* the newest record of addr whose kind is (tangent ? 2 : 0 or 1);
     * unlinked when pop; null when none */
    "define hidden ptr @lt.mpi.find%S(ptr %addr, i1 %tangent, i1 %pop) {\n"
    "entry:\n"
    "  br label %loop\n"
    "loop:\n"
    "  %link = phi ptr [ @lt.mpi.pending%S, %entry ], [ %nlink, %skip ]\n"
    "  %nd = load ptr, ptr %link\n"
    "  %end = icmp eq ptr %nd, null\n"
    "  br i1 %end, label %none, label %test\n"
    "test:\n"
    "  %f1 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 1\n"
    "  %a = load ptr, ptr %f1\n"
    "  %f2 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 2\n"
    "  %k = load i32, ptr %f2\n"
    "  %kt = icmp eq i32 %k, 2\n"
    "  %samek = icmp eq i1 %kt, %tangent\n"
    "  %samea = icmp eq ptr %a, %addr\n"
    "  %hit = and i1 %samek, %samea\n"
    "  br i1 %hit, label %found, label %skip\n"
    "skip:\n"
    "  %nlink = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 0\n"
    "  br label %loop\n"
    "found:\n"
    "  br i1 %pop, label %unlink, label %ret\n"
    "unlink:\n"
    "  %nx = load ptr, ptr %nd\n"
    "  store ptr %nx, ptr %link\n"
    "  br label %ret\n"
    "ret:\n"
    "  ret ptr %nd\n"
    "none:\n"
    "  ret ptr null\n}\n"
    ;

/* The second half (C compilers limit the length of one string literal):
 * starting a record's adjoint (or tangent) communication, and the
 * reverses of the nonblocking calls. */
static const char *const rt_ir2 =
    "define hidden void @lt.mpi.begin%S(ptr %nd) {\n"
    "entry:\n"
    "  %f3 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 3\n"
    "  %st = load i32, ptr %f3\n"
    "  %done = icmp ne i32 %st, 0\n"
    "  br i1 %done, label %out, label %go\n"
    "go:\n"
    "  store i32 1, ptr %f3\n"
    "  %f2 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 2\n"
    "  %k = load i32, ptr %f2\n"
    "  %f4 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 4\n"
    "  %sh = load ptr, ptr %f4\n"
    "  %f5 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 5\n"
    "  %f6 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 6\n"
    "  %n = load i32, ptr %f6\n"
    "  %f7 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 7\n"
    "  %dt = load %H, ptr %f7\n"
    "  %f8 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 8\n"
    "  %peer = load i32, ptr %f8\n"
    "  %f9 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 9\n"
    "  %tag = load i32, ptr %f9\n"
    "  %f10 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 10\n"
    "  %comm = load %H, ptr %f10\n"
    "  %f11 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 11\n"
    "  %fl = load i32, ptr %f11\n"
    "  %req = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 12\n"
    "  %isend = icmp eq i32 %k, 0\n"
    "  br i1 %isend, label %rsend, label %rrecv\n"
    "rsend:\n" /* Isend's adjoint: receive it */
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @calloc(i64 %b, i64 1)\n"
    "  store ptr %t, ptr %f5\n"
    "  call i32 @MPI_Irecv(ptr %t, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, ptr %req)\n"
    "  ret void\n"
    "rrecv:\n" /* Irecv's: send the shadow back */
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl)\n"
    "  store ptr %buf, ptr %f5\n"
    "  call i32 @MPI_Isend(ptr %buf, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, ptr %req)\n"
    "  ret void\n"
    "out:\n"
    "  ret void\n}\n"
    /* reverse of MPI_Wait(addr) */
    "define hidden void @lt.mpi.rwait%S(ptr %addr) {\n"
    "  %nd = call ptr @lt.mpi.find%S(ptr %addr, i1 false, i1 false)\n"
    "  %nul = icmp eq ptr %nd, null\n"
    "  br i1 %nul, label %out, label %go\n"
    "go:\n"
    "  call void @lt.mpi.begin%S(ptr %nd)\n"
    "  ret void\n"
    "out:\n"
    "  ret void\n}\n"
    /* reverse of MPI_Waitall(n, reqs): each request, in reverse order */
    "define hidden void @lt.mpi.rwaitall%S(i32 %n, ptr %reqs) {\n"
    "entry:\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i32 [ %n, %entry ], [ %j, %body ]\n"
    "  %more = icmp sgt i32 %i, 0\n"
    "  br i1 %more, label %body, label %out\n"
    "body:\n"
    "  %j = sub i32 %i, 1\n"
    "  %a = getelementptr %H, ptr %reqs, i32 %j\n"
    "  call void @lt.mpi.rwait%S(ptr %a)\n"
    "  br label %loop\n"
    "out:\n"
    "  ret void\n}\n"
    /* reverse of MPI_Isend/Irecv(addr): complete and pop */
    "define hidden void @lt.mpi.rstart%S(ptr %addr) {\n"
    "  %st = alloca [64 x i8], align 8\n"
    "  %nd = call ptr @lt.mpi.find%S(ptr %addr, i1 false, i1 true)\n"
    "  %nul = icmp eq ptr %nd, null\n"
    "  br i1 %nul, label %out, label %go\n"
    "go:\n"
    "  call void @lt.mpi.begin%S(ptr %nd)\n"
    "  %req = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 12\n"
    "  call i32 @MPI_Wait(ptr %req, ptr %st)\n"
    "  %f2 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 2\n"
    "  %k = load i32, ptr %f2\n"
    "  %f4 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 4\n"
    "  %sh = load ptr, ptr %f4\n"
    "  %f5 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 5\n"
    "  %t = load ptr, ptr %f5\n"
    "  %f6 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 6\n"
    "  %n = load i32, ptr %f6\n"
    "  %f11 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 11\n"
    "  %fl = load i32, ptr %f11\n"
    "  %isend = icmp eq i32 %k, 0\n"
    "  br i1 %isend, label %add, label %zero\n"
    "add:\n"
    "  call void @lt.mpi.acc%S(ptr %sh, ptr %t, i32 %n, i32 %fl)\n"
    "  call void @free(ptr %t)\n"
    "  br label %fin\n"
    "zero:\n"
    "  call void @lt.mpi.clear%S(ptr %sh, ptr %t, i32 %n, i32 %fl)\n"
    "  br label %fin\n"
    "fin:\n"
    "  call void @free(ptr %nd)\n"
    "  ret void\n"
    "out:\n"
    "  ret void\n}\n"
    /* tangent of Isend/Irecv: the same on the shadow, own request */
    "define hidden void @lt.mpi.fstart%S(ptr %addr, i32 %recv, ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl) {\n"
    "  call void @lt.mpi.push%S(ptr %addr, i32 2, ptr %sh, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, i32 %fl, ptr null)\n"
    "  %nd = load ptr, ptr @lt.mpi.pending%S\n"
    "  %req = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 12\n"
    "  %f5 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 5\n"
    "  %isr = icmp ne i32 %recv, 0\n"
    "  %nul = icmp eq ptr %sh, null\n"
    "  br i1 %isr, label %r, label %s\n"
    "r:\n" /* no shadow: receive into a scratch buffer, dropped */
    "  %b = call i64 @lt.mpi.bytes%S(i32 %n, i32 %fl)\n"
    "  %t = call ptr @malloc(i64 %b)\n"
    "  %into = select i1 %nul, ptr %t, ptr %sh\n"
    "  store ptr %t, ptr %f5\n"
    "  call i32 @MPI_Irecv(ptr %into, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, ptr %req)\n"
    "  ret void\n"
    "s:\n"
    "  %buf = call ptr @lt.mpi.orzero%S(ptr %sh, i32 %n, i32 %fl)\n"
    "  %own = select i1 %nul, ptr %buf, ptr null\n"
    "  store ptr %own, ptr %f5\n"
    "  call i32 @MPI_Isend(ptr %buf, i32 %n, %H %dt, i32 %peer, i32 %tag, %H %comm, ptr %req)\n"
    "  ret void\n}\n"
    /* tangent of MPI_Wait(addr) */
    "define hidden void @lt.mpi.fwait%S(ptr %addr) {\n"
    "  %st = alloca [64 x i8], align 8\n"
    "  %nd = call ptr @lt.mpi.find%S(ptr %addr, i1 true, i1 true)\n"
    "  %nul = icmp eq ptr %nd, null\n"
    "  br i1 %nul, label %out, label %go\n"
    "go:\n"
    "  %req = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 12\n"
    "  call i32 @MPI_Wait(ptr %req, ptr %st)\n"
    "  %f5 = getelementptr %lt.mpi.node, ptr %nd, i32 0, i32 5\n"
    "  %t = load ptr, ptr %f5\n"
    "  call void @free(ptr %t)\n"
    "  call void @free(ptr %nd)\n"
    "  ret void\n"
    "out:\n"
    "  ret void\n}\n"
    "define hidden void @lt.mpi.fwaitall%S(i32 %n, ptr %reqs) {\n"
    "entry:\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i32 [ 0, %entry ], [ %j, %body ]\n"
    "  %more = icmp slt i32 %i, %n\n"
    "  br i1 %more, label %body, label %out\n"
    "body:\n"
    "  %a = getelementptr %H, ptr %reqs, i32 %i\n"
    "  call void @lt.mpi.fwait%S(ptr %a)\n"
    "  %j = add i32 %i, 1\n"
    "  br label %loop\n"
    "out:\n"
    "  ret void\n}\n"
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

/* the parts' text, concatenated, with %H and %S replaced */
static char *instantiate(const char *const *parts, int np, const char *H, const char *S) {
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
  const char *const parts[] = {rt_ir, rt_ir2, lt_mpirt_coll_text(0), lt_mpirt_coll_text(1)};
  char *text = instantiate(parts, 4, int_handles ? "i32" : "ptr", S);
  /* Parsed in a context of its own (the compiler's may discard value
   * names, which the text reader refuses), moved over as bitcode. */
  LLVMContextRef own = LLVMContextCreate();
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "lt.mpi");
  free(text);
  LLVMModuleRef tm = NULL, m = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(own, buf, &tm, &msg)) {
    lt_internal_error(c, NULL, msg ? msg : "the MPI helpers do not parse");
    LLVMDisposeMessage(msg);
    LLVMContextDispose(own);
    return NULL;
  }
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(tm);
  LLVMDisposeModule(tm);
  LLVMContextDispose(own);
  int bad = LLVMParseBitcodeInContext2(c->llctx, bc, &m);
  LLVMDisposeMemoryBuffer(bc);
  if (bad) {
    lt_internal_error(c, NULL, "the MPI helpers do not load");
    return NULL;
  }
  LLVMSetDataLayout(m, LLVMGetDataLayoutStr(c->mod));
  LLVMSetTarget(m, LLVMGetTarget(c->mod));
  if (LLVMLinkModules2(c->mod, m)) {
    lt_internal_error(c, NULL, "the MPI helpers do not link");
    return NULL;
  }
  /* Linked with external linkage (the linker skips unreferenced local
   * symbols), local to the module from here on. */
  for (LLVMValueRef f2 = LLVMGetFirstFunction(c->mod); f2; f2 = LLVMGetNextFunction(f2))
    if (!LLVMIsDeclaration(f2) && !strncmp(LLVMGetValueName2(f2, &(size_t){0}), "lt.mpi.", 7))
      LLVMSetLinkage(f2, LLVMInternalLinkage);
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->mod); gv; gv = LLVMGetNextGlobal(gv))
    if (!strncmp(LLVMGetValueName2(gv, &(size_t){0}), "lt.mpi.", 7))
      LLVMSetLinkage(gv, LLVMInternalLinkage);
  return LLVMGetNamedFunction(c->mod, full);
}
