/* mpi.c: the derivatives of MPI calls (what a call is: analysis/mpi.c).
 *
 * Reverse mode, Enzyme's convention: the adjoint flows back along the
 * message. Send(buf) becomes in R a receive of the adjoint from the
 * destination, added into buf's shadow; Recv(buf) a send of buf's shadow
 * to the source, which is then zeroed; Allreduce(SUM) an Allreduce of the
 * result's adjoints added into the operand's shadow; Reduce(SUM) a Bcast
 * of the root's adjoint; Bcast a Reduce(SUM) of the adjoints to the root.
 * Nonblocking calls record their request in A; the reverse of MPI_Wait
 * starts the adjoint communication, the reverse of MPI_Isend/Irecv
 * completes it (helpers: mpirt.c). The tag, communicator and peer are the
 * primal's, read in R as the plan says. Forward mode sends the tangent
 * the way the primal goes. Integer datatypes carry nothing.
 */
#include "lt.h"

#include <string.h>

/* The module's MPI ABI: MPICH's int handles, unless it names one of
 * OpenMPI's predefined objects (ompi_mpi_comm_world, ompi_mpi_double...),
 * whose handles are pointers. */
static int int_handles(LtCtx *c) {
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->mod); gv; gv = LLVMGetNextGlobal(gv)) {
    size_t len;
    const char *n = LLVMGetValueName2(gv, &len);
    if (len > 9 && !strncmp(n, "ompi_mpi_", 9))
      return 0;
  }
  return 1;
}

static LLVMValueRef call_helper(LtCtx *c, LLVMBuilderRef b, int ih, const char *name,
                                LLVMValueRef *args, unsigned n) {
  LLVMValueRef f = lt_mpi_helper(c, ih, name);
  if (!f)
    return NULL;
  LLVMTypeRef ft = LLVMGlobalGetValueType(f);
  LLVMTypeRef pt[16];
  LLVMGetParamTypes(ft, pt);
  for (unsigned k = 0; k < n; k++)
    if (LLVMTypeOf(args[k]) != pt[k]) {
      if (lt_is_ptr_ty(pt[k]))
        args[k] = LLVMBuildPointerCast(b, args[k], pt[k], "");
      else
        args[k] = LLVMBuildIntCast2(b, args[k], pt[k], 1, "");
    }
  return LLVMBuildCall2(b, ft, f, args, n, "");
}

static int is_f32(LLVMValueRef call, const LtMpiCall *m) {
  return lt_mpi_type(LLVMGetOperand(call, (unsigned)m->type)) == LT_MPI_T_FLOAT;
}

/* MPI_SUM in the call's ABI (for Bcast's reverse). */
static LLVMValueRef sum_op(LtCtx *c, int ih) {
  if (ih)
    return LLVMConstInt(c->i32, 0x58000003, 0);
  LLVMValueRef g = LLVMGetNamedGlobal(c->mod, "ompi_mpi_op_sum");
  if (!g)
    g = LLVMAddGlobal(c->mod, c->i8, "ompi_mpi_op_sum");
  return g;
}

static LLVMValueRef r_op(LtGen *g, LLVMValueRef call, int k) {
  return lt_rv(g, LLVMGetOperand(call, (unsigned)k));
}

static LLVMValueRef r_shadow(LtGen *g, LLVMValueRef call, int k) {
  LLVMValueRef p = LLVMGetOperand(call, (unsigned)k);
  LLVMValueRef s = lt_is_shadowed(&g->act_of, p) ? lt_rs(g, p) : NULL;
  return s ? s : LLVMConstNull(g->c->ptr);
}

/* The address of a request as A saw it (the key of its record): taped,
 * since R may have its own copy of the stack. */
static LLVMValueRef req_addr(LtGen *g, LLVMValueRef call) {
  return lt_tape_load_at(g, LT_SLOT_CUSTOMTAPE, call, g->c->ptr, g->b);
}

int lt_mpi_reverse(LtGen *g, LLVMValueRef call) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  if (k == LT_MPI_WAIT || k == LT_MPI_WAITALL) {
    int ih = int_handles(g->c);
    if (k == LT_MPI_WAIT) {
      LLVMValueRef a[1] = {req_addr(g, call)};
      return call_helper(g->c, g->b, ih, "rwait", a, 1) ? 0 : -1;
    }
    LLVMValueRef a[2] = {r_op(g, call, m.count), req_addr(g, call)};
    return call_helper(g->c, g->b, ih, "rwaitall", a, 2) ? 0 : -1;
  }
  if (!lt_mpi_float(&m, call))
    return 0;
  int ih = int_handles(g->c);
  LLVMValueRef fl = LLVMConstInt(g->c->i32, (unsigned long long)is_f32(call, &m), 0);
  LLVMValueRef n = r_op(g, call, m.count), dt = r_op(g, call, m.type);
  LLVMValueRef comm = r_op(g, call, m.comm);
  switch (k) {
  case LT_MPI_SEND:
  case LT_MPI_RECV: {
    LLVMValueRef a[7] = {r_shadow(g, call, k == LT_MPI_SEND ? m.sbuf : m.rbuf), n, dt,
                         r_op(g, call, m.peer), r_op(g, call, m.tag), comm, fl};
    return call_helper(g->c, g->b, ih, k == LT_MPI_SEND ? "rsend" : "rrecv", a, 7) ? 0 : -1;
  }
  case LT_MPI_ISEND:
  case LT_MPI_IRECV: {
    LLVMValueRef a[1] = {req_addr(g, call)};
    return call_helper(g->c, g->b, ih, "rstart", a, 1) ? 0 : -1;
  }
  case LT_MPI_ALLREDUCE: {
    LLVMValueRef a[7] = {r_shadow(g, call, m.sbuf), r_shadow(g, call, m.rbuf), n, dt,
                         r_op(g, call, m.op), comm, fl};
    return call_helper(g->c, g->b, ih, "rallreduce", a, 7) ? 0 : -1;
  }
  case LT_MPI_REDUCE: {
    LLVMValueRef a[7] = {r_shadow(g, call, m.sbuf), r_shadow(g, call, m.rbuf), n, dt,
                         r_op(g, call, m.root), comm, fl};
    return call_helper(g->c, g->b, ih, "rreduce", a, 7) ? 0 : -1;
  }
  case LT_MPI_BCAST: {
    LLVMValueRef a[7] = {r_shadow(g, call, m.sbuf), n, dt, sum_op(g->c, ih),
                         r_op(g, call, m.root), comm, fl};
    return call_helper(g->c, g->b, ih, "rbcast", a, 7) ? 0 : -1;
  }
  default:
    lt_error(g->c, call, "internal error: no reverse for this MPI call");
    return -1;
  }
}

int lt_mpi_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef acall,
                   LLVMValueRef (*shadow)(LtGen *, LLVMValueRef)) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  if (k != LT_MPI_WAIT && k != LT_MPI_WAITALL &&
      ((k != LT_MPI_ISEND && k != LT_MPI_IRECV) || !lt_mpi_float(&m, call)))
    return 0;
  /* the tape slot's value is defined here, in the call's iteration */
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(acall));
  lt_map_put(&g->custom_tape, call,
             LLVMBuildFreeze(b, LLVMGetOperand(acall, (unsigned)m.req), "lt.mpi.req"));
  if (k == LT_MPI_WAIT || k == LT_MPI_WAITALL)
    return 0;
  LLVMValueRef buf = LLVMGetOperand(call, (unsigned)(k == LT_MPI_ISEND ? m.sbuf : m.rbuf));
  LLVMValueRef sh = lt_is_shadowed(&g->act_of, buf) ? shadow(g, buf) : LLVMConstNull(g->c->ptr);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(acall));
  LLVMValueRef a[10] = {LLVMGetOperand(acall, (unsigned)m.req),
                        LLVMConstInt(g->c->i32, k == LT_MPI_IRECV, 0),
                        sh,
                        LLVMGetOperand(acall, (unsigned)m.count),
                        LLVMGetOperand(acall, (unsigned)m.type),
                        LLVMGetOperand(acall, (unsigned)m.peer),
                        LLVMGetOperand(acall, (unsigned)m.tag),
                        LLVMGetOperand(acall, (unsigned)m.comm),
                        LLVMConstInt(g->c->i32, (unsigned long long)is_f32(call, &m), 0),
                        LLVMConstNull(g->c->ptr)};
  return call_helper(g->c, b, int_handles(g->c), "push", a, 10) ? 0 : -1;
}

int lt_mpi_tangent(LtTg *t, LLVMValueRef call) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  LLVMValueRef tc = lt_tg_val(t, call);
  LtCtx *c = t->c;
  if (t->W != 1) {
    lt_error(c, call, "MPI calls in forward mode with enzyme_width > 1 are not "
                      "supported yet");
    return -1;
  }
  int ih = int_handles(c);
  if (k == LT_MPI_WAIT) {
    LLVMValueRef a[1] = {LLVMGetOperand(tc, (unsigned)m.req)};
    return call_helper(c, t->b, ih, "fwait", a, 1) ? 0 : -1;
  }
  if (k == LT_MPI_WAITALL) {
    LLVMValueRef a[2] = {LLVMGetOperand(tc, (unsigned)m.count), LLVMGetOperand(tc, (unsigned)m.req)};
    return call_helper(c, t->b, ih, "fwaitall", a, 2) ? 0 : -1;
  }
  if (!lt_mpi_float(&m, call))
    return 0;
#define OP(r) LLVMGetOperand(tc, (unsigned)(r))
#define SH(r) (lt_is_shadowed(&t->g->act_of, LLVMGetOperand(call, (unsigned)(r)))            \
                   ? lt_tg_lane(t, lt_tg_shadow(t, LLVMGetOperand(call, (unsigned)(r))),     \
                                LLVMTypeOf(LLVMGetOperand(call, (unsigned)(r))), 0)           \
                   : LLVMConstNull(c->ptr))
  LLVMValueRef fl = LLVMConstInt(c->i32, (unsigned long long)is_f32(call, &m), 0);
  switch (k) {
  case LT_MPI_SEND:
  case LT_MPI_RECV: {
    LLVMValueRef a[7] = {SH(k == LT_MPI_SEND ? m.sbuf : m.rbuf), OP(m.count), OP(m.type),
                         OP(m.peer), OP(m.tag), OP(m.comm), fl};
    return call_helper(c, t->b, ih, k == LT_MPI_SEND ? "fsend" : "frecv", a, 7) ? 0 : -1;
  }
  case LT_MPI_ISEND:
  case LT_MPI_IRECV: {
    LLVMValueRef a[9] = {OP(m.req), LLVMConstInt(c->i32, k == LT_MPI_IRECV, 0),
                         SH(k == LT_MPI_ISEND ? m.sbuf : m.rbuf), OP(m.count), OP(m.type),
                         OP(m.peer), OP(m.tag), OP(m.comm), fl};
    return call_helper(c, t->b, ih, "fstart", a, 9) ? 0 : -1;
  }
  case LT_MPI_BCAST: {
    LLVMValueRef a[6] = {SH(m.sbuf), OP(m.count), OP(m.type), OP(m.root), OP(m.comm), fl};
    return call_helper(c, t->b, ih, "fbcast", a, 6) ? 0 : -1;
  }
  case LT_MPI_REDUCE:
  case LT_MPI_ALLREDUCE: {
    LLVMValueRef a[8] = {SH(m.sbuf), SH(m.rbuf), OP(m.count), OP(m.type), OP(m.op),
                         k == LT_MPI_REDUCE ? OP(m.root) : LLVMConstInt(c->i32, (unsigned long long)-1, 1),
                         OP(m.comm), fl};
    return call_helper(c, t->b, ih, "freduce", a, 8) ? 0 : -1;
  }
  default:
    lt_error(c, call, "internal error: no tangent for this MPI call");
    return -1;
  }
#undef OP
#undef SH
}
