/* mpicoll.c: the derivatives of MPI_Reduce/MPI_Allreduce with MPI_MAX or
 * MPI_MIN, MPI_Sendrecv, MPI_Gather, MPI_Scatter and MPI_Allgather
 * (helpers: mpirtcoll.c; the other calls: mpi.c).
 *
 * MAX/MIN: A records, per element, the rank whose value won (one extra
 * MPI_Allreduce of (value, rank) pairs with MPI_MAXLOC/MPI_MINLOC, which
 * every rank needs, as every rank takes part in R's communication and
 * must know whether the adjoint is its own; comparing values with the
 * result would need the result on every rank, which MPI_Reduce does not
 * give). Ties go to the lowest rank, as MAXLOC/MINLOC break them: the
 * derivative of max is a subgradient there, this one. The record is a
 * malloc'd array on the tape, freed by R. The rest records nothing:
 * Sendrecv's reverse is a Sendrecv with the peers swapped (a wildcard
 * source or tag from the status A recorded, mpi.c), the gather family's
 * the transposed collective.
 */
#include "lt.h"

static int is_f32(LLVMValueRef call, const LtMpiCall *m) {
  return lt_mpi_type(LLVMGetOperand(call, (unsigned)m->type)) == LT_MPI_T_FLOAT;
}

static LtMpiOp op_of(const LtMpiCall *m, LLVMValueRef call) {
  return m->op >= 0 ? lt_mpi_op(LLVMGetOperand(call, (unsigned)m->op)) : LT_MPI_OP_UNKNOWN;
}

static int by_maxmin(const LtMpiCall *m, LLVMValueRef call) {
  LtMpiOp op = op_of(m, call);
  return (m->kind == LT_MPI_REDUCE || m->kind == LT_MPI_ALLREDUCE) &&
         (op == LT_MPI_OP_MAX || op == LT_MPI_OP_MIN);
}

int lt_mpicoll_handles(const LtMpiCall *m, LLVMValueRef call) {
  return by_maxmin(m, call) || m->kind == LT_MPI_SENDRECV || m->kind == LT_MPI_GATHER ||
         m->kind == LT_MPI_SCATTER || m->kind == LT_MPI_ALLGATHER;
}

/* MPI_DOUBLE_INT / MPI_FLOAT_INT, MPI_MAXLOC / MPI_MINLOC, MPI_SUM */
static LLVMValueRef pair_type(LtCtx *c, int ih, int f32) {
  return f32 ? lt_mpi_handle(c, ih, "ompi_mpi_float_int", (long long)0x8c000000)
             : lt_mpi_handle(c, ih, "ompi_mpi_double_int", (long long)0x8c000001);
}

static LLVMValueRef loc_op(LtCtx *c, int ih, LtMpiOp op) {
  return op == LT_MPI_OP_MAX ? lt_mpi_handle(c, ih, "ompi_mpi_op_maxloc", 0x5800000c)
                             : lt_mpi_handle(c, ih, "ompi_mpi_op_minloc", 0x5800000b);
}

static LLVMValueRef sum(LtCtx *c, int ih) {
  return lt_mpi_handle(c, ih, "ompi_mpi_op_sum", 0x58000003);
}

static LLVMValueRef flag(LtCtx *c, LLVMValueRef call, const LtMpiCall *m) {
  return LLVMConstInt(c->i32, (unsigned long long)is_f32(call, m), 0);
}

int lt_mpicoll_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef acall) {
  LtMpiCall m;
  lt_mpi_call(call, &m);
  if (!by_maxmin(&m, call))
    return 0;
  LtCtx *c = g->c;
  int ih = lt_mpi_int_handles(c);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(acall));
#define AOP(r) LLVMGetOperand(acall, (unsigned)(r))
  LLVMValueRef a[6] = {AOP(m.sbuf), AOP(m.count), pair_type(c, ih, is_f32(call, &m)),
                       loc_op(c, ih, op_of(&m, call)), AOP(m.comm), flag(c, call, &m)};
#undef AOP
  LLVMValueRef win = lt_mpi_call_helper(c, b, ih, "winners", a, 6);
  if (!win)
    return -1;
  lt_map_put(&g->custom_tape, call, win);
  return 0;
}

int lt_mpicoll_reverse(LtGen *g, LLVMValueRef call) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  LtCtx *c = g->c;
  int ih = lt_mpi_int_handles(c);
#define ROP(r) lt_rv(g, LLVMGetOperand(call, (unsigned)(r)))
#define RSH(r) lt_mpi_rshadow(g, call, (r))
  LLVMValueRef fl = lt_mpi_fl(g, call);
  if (by_maxmin(&m, call)) {
    LLVMValueRef win = lt_tape_load_at(g, LT_SLOT_CUSTOMTAPE, call, c->ptr, g->b);
    LLVMValueRef root = k == LT_MPI_REDUCE ? ROP(m.root) : LLVMConstInt(c->i32, (unsigned long long)-1, 1);
    LLVMValueRef a[9] = {RSH(m.sbuf), RSH(m.rbuf), ROP(m.count), ROP(m.type), sum(c, ih),
                         root, ROP(m.comm), fl, win};
    return lt_mpi_call_helper(c, g->b, ih, "rmaxmin", a, 9) ? 0 : -1;
  }
  switch (k) {
  case LT_MPI_SENDRECV: {
    LLVMValueRef src, tag;
    lt_mpi_recv_peer(g, &m, call, &src, &tag);
    LLVMValueRef a[11] = {RSH(m.sbuf), ROP(m.count), ROP(m.peer), ROP(m.tag), RSH(m.rbuf),
                          ROP(m.rcount), src, tag, ROP(m.type), ROP(m.comm), fl};
    return lt_mpi_call_helper(c, g->b, ih, "rsendrecv", a, 11) ? 0 : -1;
  }
  case LT_MPI_GATHER:
  case LT_MPI_SCATTER: {
    LLVMValueRef a[8] = {RSH(m.sbuf), ROP(m.count), RSH(m.rbuf), ROP(m.rcount),
                         ROP(m.root), ROP(m.type), ROP(m.comm), fl};
    return lt_mpi_call_helper(c, g->b, ih, k == LT_MPI_GATHER ? "rgather" : "rscatter", a, 8)
               ? 0
               : -1;
  }
  case LT_MPI_ALLGATHER: {
    LLVMValueRef a[8] = {RSH(m.sbuf), ROP(m.count), RSH(m.rbuf), ROP(m.rcount),
                         ROP(m.type), sum(c, ih), ROP(m.comm), fl};
    return lt_mpi_call_helper(c, g->b, ih, "rallgather", a, 8) ? 0 : -1;
  }
  default:
    return lt_mpi_no_rule(c, call, "reverse");
  }
#undef ROP
#undef RSH
}

/* One message per lane, as in mpi.c's lt_mpi_tangent; MAX/MIN find the
 * winners once for all lanes. */
int lt_mpicoll_tangent(LtTg *t, LLVMValueRef call) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  LtCtx *c = t->c;
  int ih = lt_mpi_int_handles(c);
  LLVMValueRef tc = lt_tg_val(t, call);
#define OP(r) LLVMGetOperand(tc, (unsigned)(r))
#define SH(r) lt_mpi_tshadow(t, call, (r), l)
  LLVMValueRef fl = flag(c, call, &m), win = NULL, src = NULL, tag = NULL;
  if (by_maxmin(&m, call)) {
    LLVMValueRef a[6] = {OP(m.sbuf), OP(m.count), pair_type(c, ih, is_f32(call, &m)),
                         loc_op(c, ih, op_of(&m, call)), OP(m.comm), fl};
    if (!(win = lt_mpi_call_helper(c, t->b, ih, "winners", a, 6)))
      return -1;
  } else if (k == LT_MPI_SENDRECV) {
    src = OP(m.rpeer), tag = OP(m.rtag);
    if (lt_mpi_records_status(&m, call))
      lt_mpi_status_after(c, t->b, &m, call, tc, &src, &tag);
  }
  for (unsigned l = 0; l < t->W; l++) {
    LLVMValueRef r;
    if (win) {
      LLVMValueRef root = k == LT_MPI_REDUCE ? OP(m.root)
                                             : LLVMConstInt(c->i32, (unsigned long long)-1, 1);
      LLVMValueRef a[9] = {SH(m.sbuf), SH(m.rbuf), OP(m.count), OP(m.type), sum(c, ih),
                           root, OP(m.comm), fl, win};
      r = lt_mpi_call_helper(c, t->b, ih, "fmaxmin", a, 9);
    } else if (k == LT_MPI_SENDRECV) {
      LLVMValueRef a[11] = {SH(m.sbuf), OP(m.count), OP(m.peer), OP(m.tag), SH(m.rbuf),
                            OP(m.rcount), src, tag, OP(m.type), OP(m.comm), fl};
      r = lt_mpi_call_helper(c, t->b, ih, "fsendrecv", a, 11);
    } else if (k == LT_MPI_GATHER || k == LT_MPI_SCATTER || k == LT_MPI_ALLGATHER) {
      int kind = k == LT_MPI_GATHER ? 0 : k == LT_MPI_SCATTER ? 1 : 2;
      LLVMValueRef a[9] = {LLVMConstInt(c->i32, (unsigned long long)kind, 0), SH(m.sbuf),
                           OP(m.count), SH(m.rbuf), OP(m.rcount),
                           m.root >= 0 ? OP(m.root) : LLVMConstInt(c->i32, 0, 0), OP(m.type),
                           OP(m.comm), fl};
      r = lt_mpi_call_helper(c, t->b, ih, "fgather", a, 9);
    } else {
      return lt_mpi_no_rule(c, call, "tangent");
    }
    if (!r)
      return -1;
  }
  if (win && !lt_mpi_call_helper(c, t->b, ih, "free", &win, 1))
    return -1;
  return 0;
#undef OP
#undef SH
}
