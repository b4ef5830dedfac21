/* mpi.c: the derivatives of MPI calls (what a call is: analysis/mpi.c).
 *
 * Reverse mode, Enzyme's convention: the adjoint flows back along the
 * message. Send(buf) becomes in R a receive of the adjoint from the
 * destination, added into buf's shadow; Recv(buf) a send of buf's shadow
 * to the source, which is then zeroed; Allreduce(SUM) an Allreduce of the
 * result's adjoints added into the operand's shadow; Reduce(SUM) a Bcast
 * of the root's adjoint; Bcast a Reduce(SUM) of the adjoints to the root.
 * Nonblocking calls record their request in A, and each wait claims the
 * records of the requests it names (by handle value: it may name copies);
 * the reverse of MPI_Wait starts the adjoint communication, the reverse of
 * MPI_Isend/Irecv completes it (helpers: mpirt.c, mpirtreq.c). The tag,
 * communicator and peer are the primal's, read in R as the plan says.
 * Forward mode sends the tangent the way the primal goes, one message per
 * lane. Integer datatypes carry nothing.
 */
#include "lt.h"

#include <string.h>

/* The module's MPI ABI: MPICH's int handles, unless it names one of
 * OpenMPI's predefined objects (ompi_mpi_comm_world, ompi_mpi_double...),
 * whose handles are pointers. */
int lt_mpi_int_handles(LtCtx *c) {
  for (LLVMValueRef gv = LLVMGetFirstGlobal(c->mod); gv; gv = LLVMGetNextGlobal(gv)) {
    size_t len;
    const char *n = LLVMGetValueName2(gv, &len);
    if (len > 9 && !strncmp(n, "ompi_mpi_", 9))
      return 0;
  }
  return 1;
}

int lt_mpi_no_rule(LtCtx *c, LLVMValueRef call, const char *what) {
  lt_error(c, call, "internal error: no %s for this MPI call", what);
  return -1;
}

LLVMValueRef lt_mpi_call_helper(LtCtx *c, LLVMBuilderRef b, int ih, const char *name,
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

LLVMValueRef lt_mpi_fl(LtGen *g, LLVMValueRef call) {
  LtMpiCall m;
  lt_mpi_call(call, &m);
  return LLVMConstInt(g->c->i32, (is_f32(call, &m) ? LT_MPI_FL_FLOAT : 0) |
                                     (g->parallel ? LT_MPI_ATOMIC : 0), 0);
}

LLVMValueRef lt_mpi_handle(LtCtx *c, int ih, const char *ompi, long long mpich) {
  if (ih)
    return LLVMConstInt(c->i32, (unsigned long long)mpich, 1);
  LLVMValueRef g = LLVMGetNamedGlobal(c->mod, ompi);
  if (!g)
    g = LLVMAddGlobal(c->mod, c->i8, ompi);
  return g;
}

/* MPI_SUM in the call's ABI (for Bcast's reverse). */
static LLVMValueRef sum_op(LtCtx *c, int ih) {
  return lt_mpi_handle(c, ih, "ompi_mpi_op_sum", 0x58000003);
}

static LLVMValueRef r_op(LtGen *g, LLVMValueRef call, int k) {
  return lt_rv(g, LLVMGetOperand(call, (unsigned)k));
}

LLVMValueRef lt_mpi_rshadow(LtGen *g, LLVMValueRef call, int k) {
  LLVMValueRef p = LLVMGetOperand(call, (unsigned)k);
  LLVMValueRef s = lt_is_shadowed(&g->act_of, p) ? lt_rs(g, p) : NULL;
  return s ? s : LLVMConstNull(g->c->ptr);
}

/* The address of a request as A saw it (the key of its record): taped,
 * since R may have its own copy of the stack. */
static LLVMValueRef req_addr(LtGen *g, LLVMValueRef call) {
  return lt_tape_load_at(g, LT_SLOT_CUSTOMTAPE, call, g->c->ptr, g->b);
}

/* A receive whose source or tag may be a wildcard: A (and T) read the
 * actual ones from the status after the call, R uses those. */
int lt_mpi_records_status(const LtMpiCall *m, LLVMValueRef call) {
  return (m->kind == LT_MPI_RECV || m->kind == LT_MPI_SENDRECV) && lt_mpi_float(m, call) &&
         lt_mpi_recv_wildcard(m, call);
}

/* The status acall (the clone of call in A or T) fills: the user's, or
 * for MPI_STATUS_IGNORE (also one only known at run time) one of ours in
 * the function's entry; *src and *tag are read from it at b, after acall. */
void lt_mpi_status_after(LtCtx *c, LLVMBuilderRef b, const LtMpiCall *m, LLVMValueRef call,
                         LLVMValueRef acall, LLVMValueRef *src, LLVMValueRef *tag) {
  LLVMValueRef st = LLVMGetOperand(acall, (unsigned)m->status);
  LLVMValueRef ign = LLVMConstIntToPtr(
      LLVMConstInt(c->i64, (unsigned long long)lt_mpi_status_ignore(m, call), 0), c->ptr);
  LLVMBasicBlockRef entry =
      LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(acall)));
  LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(entry));
  LLVMValueRef mine = lt_build_slot(eb, LLVMArrayType2(c->i8, 64), 8, "lt.mpi.status");
  LLVMDisposeBuilder(eb);
  LLVMValueRef use = mine;
  if (!LLVMIsAConstant(st)) {
    LLVMBuilderRef at = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderBefore(at, acall);
    use = LLVMBuildSelect(at, LLVMBuildICmp(at, LLVMIntEQ, st, ign, ""), mine, st, "");
    LLVMDisposeBuilder(at);
  } else if (st != ign) {
    use = st;
  }
  LLVMSetOperand(acall, (unsigned)m->status, use);
  unsigned off = lt_mpi_status_source_offset(m, call);
  LLVMValueRef ps = LLVMBuildGEP2(b, c->i8, use, &(LLVMValueRef){LLVMConstInt(c->i64, off, 0)},
                                  1, "");
  LLVMValueRef pt = LLVMBuildGEP2(b, c->i8, use,
                                  &(LLVMValueRef){LLVMConstInt(c->i64, off + 4, 0)}, 1, "");
  *src = LLVMBuildLoad2(b, c->i32, ps, "lt.mpi.source");
  *tag = LLVMBuildLoad2(b, c->i32, pt, "");
  /* a receive from MPI_PROC_NULL reports MPI_ANY_TAG, which no send may
   * use: any tag does for MPI_PROC_NULL */
  *tag = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, *tag, LLVMConstInt(c->i32, 0, 0), ""),
                         LLVMConstInt(c->i32, 0, 0), *tag, "lt.mpi.tag");
}

/* In R: the source and tag of the receive (as A recorded them when they
 * may be wildcards). */
void lt_mpi_recv_peer(LtGen *g, const LtMpiCall *m, LLVMValueRef call, LLVMValueRef *src,
                      LLVMValueRef *tag) {
  int rp = m->kind == LT_MPI_SENDRECV ? m->rpeer : m->peer;
  int rt = m->kind == LT_MPI_SENDRECV ? m->rtag : m->tag;
  if (!lt_mpi_records_status(m, call)) {
    *src = lt_rv(g, LLVMGetOperand(call, (unsigned)rp));
    *tag = lt_rv(g, LLVMGetOperand(call, (unsigned)rt));
    return;
  }
  LLVMValueRef v = lt_tape_load_at(g, LT_SLOT_CUSTOMTAPE, call, g->c->i64, g->b);
  *src = LLVMBuildTrunc(g->b, LLVMBuildLShr(g->b, v, LLVMConstInt(g->c->i64, 32, 0), ""),
                        g->c->i32, "lt.mpi.source");
  *tag = LLVMBuildTrunc(g->b, v, g->c->i32, "lt.mpi.tag");
}

/* Forward mode: an MPI_Irecv whose source or tag is only known at run time
 * stops there if it is a wildcard (constant ones are errors, below). The
 * tangent's receive is posted with the primal's, before the source is
 * known, and could take another message's tangent. */
static int irecv_guard(LtCtx *c, LLVMBuilderRef b, const LtMpiCall *m, LLVMValueRef call,
                       LLVMValueRef acall) {
  if (m->kind != LT_MPI_IRECV || !lt_mpi_recv_wildcard(m, call))
    return 0;
  LLVMValueRef a[4] = {LLVMGetOperand(acall, (unsigned)m->peer),
                       LLVMGetOperand(acall, (unsigned)m->tag),
                       LLVMConstInt(c->i32, (unsigned long long)lt_mpi_any_source(m, call), 1),
                       LLVMGetOperand(acall, (unsigned)m->comm)};
  return lt_mpi_call_helper(c, b, lt_mpi_int_handles(c), "nowild", a, 4) ? 0 : -1;
}

/* Whether the module has an MPI_Irecv whose source or tag may be a
 * wildcard (its records may be waited anywhere). */
static int wild_irecv(LtCtx *c) {
  static const char *const names[2] = {"MPI_Irecv", "PMPI_Irecv"};
  for (int k = 0; k < 2; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(c->mod, names[k]);
    for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
      LLVMValueRef call = LLVMGetUser(u);
      LtMpiCall m;
      if (LLVMIsACallInst(call) && lt_mpi_call(call, &m) == LT_MPI_IRECV &&
          lt_mpi_recv_wildcard(&m, call))
        return 1;
    }
  }
  return 0;
}

/* A, around wcall (MPI_Wait or MPI_Waitall) when some MPI_Irecv may be a
 * wildcard: the records it claims learn the source and tag from the
 * statuses it fills (ours where the user ignores them), as the blocking
 * receive's do (lt_mpi_status_after); the reverse of the wait sends the
 * adjoint there. The status layout is the ABI's: OpenMPI's {MPI_SOURCE,
 * MPI_TAG, MPI_ERROR, int, size_t} (24 bytes), MPICH's {int, int,
 * MPI_SOURCE, MPI_TAG, MPI_ERROR} (20). */
static int hear(LtCtx *c, const LtMpiCall *m, LLVMValueRef wcall) {
  int ih = lt_mpi_int_handles(c);
  LLVMValueRef soff = LLVMConstInt(c->i32, ih ? 8 : 0, 0), size = LLVMConstInt(c->i32, ih ? 20 : 24, 0);
  LLVMValueRef any = LLVMConstInt(c->i32, (unsigned long long)(ih ? -2 : -1), 1);
  LLVMValueRef ign = LLVMConstIntToPtr(LLVMConstInt(c->i64, ih ? 1 : 0, 0), c->ptr);
  LLVMValueRef req = LLVMGetOperand(wcall, (unsigned)m->req);
  LLVMValueRef st = LLVMGetOperand(wcall, (unsigned)m->status), use, nd;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, wcall);
  int ok;
  if (m->kind == LT_MPI_WAIT) {
    LLVMBasicBlockRef entry =
        LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(wcall)));
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(entry));
    LLVMValueRef mine = lt_build_slot(eb, LLVMArrayType2(c->i8, 64), 8, "lt.mpi.status");
    LLVMDisposeBuilder(eb);
    LLVMValueRef a[3] = {req, LLVMConstInt(c->i1, 0, 0), LLVMConstInt(c->i32, 1, 0)};
    nd = lt_mpi_call_helper(c, b, ih, "claim", a, 3);
    use = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, st, ign, ""), mine, st, "");
    LLVMSetOperand(wcall, (unsigned)m->status, use);
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(wcall));
    LLVMValueRef h[4] = {nd, use, soff, any};
    ok = nd && lt_mpi_call_helper(c, b, ih, "heard", h, 4);
  } else {
    LLVMValueRef n = LLVMGetOperand(wcall, (unsigned)m->count);
    LLVMValueRef a[2] = {n, req}, s[4] = {n, st, ign, size};
    nd = lt_mpi_call_helper(c, b, ih, "claimed", a, 2);
    use = lt_mpi_call_helper(c, b, ih, "statuses", s, 4);
    ok = nd && use;
    if (ok) {
      LLVMSetOperand(wcall, (unsigned)m->status, use);
      LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(wcall));
      LLVMValueRef h[7] = {n, nd, use, st, size, soff, any};
      ok = lt_mpi_call_helper(c, b, ih, "heardall", h, 7) != NULL;
    }
  }
  LLVMDisposeBuilder(b);
  return ok ? 0 : -1;
}

/* Before wcall (MPI_Wait or MPI_Waitall, in A or T): the records of the
 * requests it waits for (lanes per request: one in A, W in T) are keyed by
 * the address it names, which may be a copy's (mpirtreq.c). */
static int claim(LtCtx *c, const LtMpiCall *m, LLVMValueRef wcall, int tangent, unsigned lanes) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, wcall);
  LLVMValueRef a[4], r;
  unsigned n = 0;
  if (m->kind == LT_MPI_WAITALL)
    a[n++] = LLVMGetOperand(wcall, (unsigned)m->count);
  a[n++] = LLVMGetOperand(wcall, (unsigned)m->req);
  a[n++] = LLVMConstInt(c->i1, (unsigned long long)tangent, 0);
  a[n++] = LLVMConstInt(c->i32, lanes, 0);
  r = lt_mpi_call_helper(c, b, lt_mpi_int_handles(c),
                         m->kind == LT_MPI_WAITALL ? "claimall" : "claim", a, n);
  LLVMDisposeBuilder(b);
  return r ? 0 : -1;
}

int lt_mpi_reverse(LtGen *g, LLVMValueRef call) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  if (k == LT_MPI_WAIT || k == LT_MPI_WAITALL) {
    int ih = lt_mpi_int_handles(g->c);
    if (k == LT_MPI_WAIT) {
      LLVMValueRef a[1] = {req_addr(g, call)};
      return lt_mpi_call_helper(g->c, g->b, ih, "rwait", a, 1) ? 0 : -1;
    }
    LLVMValueRef a[2] = {r_op(g, call, m.count), req_addr(g, call)};
    return lt_mpi_call_helper(g->c, g->b, ih, "rwaitall", a, 2) ? 0 : -1;
  }
  if (!lt_mpi_float(&m, call))
    return 0;
  if (lt_mpicoll_handles(&m, call))
    return lt_mpicoll_reverse(g, call);
  int ih = lt_mpi_int_handles(g->c);
  LLVMValueRef fl = lt_mpi_fl(g, call);
  LLVMValueRef n = r_op(g, call, m.count), dt = r_op(g, call, m.type);
  LLVMValueRef comm = r_op(g, call, m.comm);
  switch (k) {
  case LT_MPI_SEND:
  case LT_MPI_RECV: {
    LLVMValueRef peer, tag;
    if (k == LT_MPI_RECV)
      lt_mpi_recv_peer(g, &m, call, &peer, &tag);
    else
      peer = r_op(g, call, m.peer), tag = r_op(g, call, m.tag);
    LLVMValueRef a[7] = {lt_mpi_rshadow(g, call, k == LT_MPI_SEND ? m.sbuf : m.rbuf), n, dt,
                         peer, tag, comm, fl};
    return lt_mpi_call_helper(g->c, g->b, ih, k == LT_MPI_SEND ? "rsend" : "rrecv", a, 7) ? 0 : -1;
  }
  case LT_MPI_ISEND:
  case LT_MPI_IRECV: {
    LLVMValueRef a[1] = {req_addr(g, call)};
    return lt_mpi_call_helper(g->c, g->b, ih, "rstart", a, 1) ? 0 : -1;
  }
  case LT_MPI_ALLREDUCE: {
    LLVMValueRef a[7] = {lt_mpi_rshadow(g, call, m.sbuf), lt_mpi_rshadow(g, call, m.rbuf), n, dt,
                         r_op(g, call, m.op), comm, fl};
    return lt_mpi_call_helper(g->c, g->b, ih, "rallreduce", a, 7) ? 0 : -1;
  }
  case LT_MPI_REDUCE: {
    LLVMValueRef a[7] = {lt_mpi_rshadow(g, call, m.sbuf), lt_mpi_rshadow(g, call, m.rbuf), n, dt,
                         r_op(g, call, m.root), comm, fl};
    return lt_mpi_call_helper(g->c, g->b, ih, "rreduce", a, 7) ? 0 : -1;
  }
  case LT_MPI_BCAST: {
    LLVMValueRef a[7] = {lt_mpi_rshadow(g, call, m.sbuf), n, dt, sum_op(g->c, ih),
                         r_op(g, call, m.root), comm, fl};
    return lt_mpi_call_helper(g->c, g->b, ih, "rbcast", a, 7) ? 0 : -1;
  }
  default:
    return lt_mpi_no_rule(g->c, call, "reverse");
  }
}

int lt_mpi_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef acall,
                   LLVMValueRef (*shadow)(LtGen *, LLVMValueRef)) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  if (lt_mpi_records_status(&m, call)) {
    LLVMValueRef src, tag;
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(acall));
    lt_mpi_status_after(g->c, b, &m, call, acall, &src, &tag);
    LLVMValueRef hi = LLVMBuildShl(b, LLVMBuildZExt(b, src, g->c->i64, ""),
                                   LLVMConstInt(g->c->i64, 32, 0), "");
    lt_map_put(&g->custom_tape, call,
               LLVMBuildOr(b, hi, LLVMBuildZExt(b, tag, g->c->i64, ""), "lt.mpi.from"));
    return 0;
  }
  if (lt_mpi_float(&m, call) && lt_mpicoll_handles(&m, call))
    return lt_mpicoll_forward(g, b, call, acall);
  if (k != LT_MPI_WAIT && k != LT_MPI_WAITALL &&
      ((k != LT_MPI_ISEND && k != LT_MPI_IRECV) || !lt_mpi_float(&m, call)))
    return 0;
  if ((k == LT_MPI_WAIT || k == LT_MPI_WAITALL) &&
      (wild_irecv(g->c) ? hear(g->c, &m, acall) : claim(g->c, &m, acall, 0, 1)))
    return -1;
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
                        lt_mpi_fl(g, call),
                        LLVMConstNull(g->c->ptr)};
  return lt_mpi_call_helper(g->c, b, lt_mpi_int_handles(g->c), "push", a, 10) ? 0 : -1;
}

/* An MPI_Irecv from MPI_ANY_SOURCE or with MPI_ANY_TAG, as constants. */
static int wild_const(const LtMpiCall *m, LLVMValueRef call) {
  LLVMValueRef peer = LLVMGetOperand(call, (unsigned)m->peer);
  LLVMValueRef tag = LLVMGetOperand(call, (unsigned)m->tag);
  return (LLVMIsAConstantInt(peer) &&
          LLVMConstIntGetSExtValue(peer) == lt_mpi_any_source(m, call)) ||
         (LLVMIsAConstantInt(tag) && LLVMConstIntGetSExtValue(tag) == -1);
}

/* Lane k of the tangent shadow of call's operand r (null when none). */
LLVMValueRef lt_mpi_tshadow(LtTg *t, LLVMValueRef call, int r, unsigned k) {
  LLVMValueRef p = LLVMGetOperand(call, (unsigned)r);
  if (!lt_is_shadowed(&t->g->act_of, p))
    return LLVMConstNull(t->c->ptr);
  return lt_tg_lane(t, lt_tg_shadow(t, p), LLVMTypeOf(p), k);
}

/* With enzyme_width W, every lane's tangent travels as a message of its
 * own, the same call on that lane's shadow, lanes in order on every rank
 * (so MPI's non-overtaking rule pairs lane k with lane k). A lane's shadow
 * is a buffer of its own: packing W lanes into one message would copy
 * each buffer in and out at every call and multiply the count, an int,
 * by W; the width-1 helpers serve unchanged. A nonblocking call keeps a
 * record per lane, which its wait claims and completes W times. */
int lt_mpi_tangent(LtTg *t, LLVMValueRef call) {
  LtMpiCall m;
  LtMpiKind k = lt_mpi_call(call, &m);
  LLVMValueRef tc = lt_tg_val(t, call);
  LtCtx *c = t->c;
  int ih = lt_mpi_int_handles(c);
  if (k == LT_MPI_WAIT || k == LT_MPI_WAITALL) {
    if (claim(c, &m, tc, 1, t->W))
      return -1;
    for (unsigned l = 0; l < t->W; l++) {
      LLVMValueRef a[2] = {LLVMGetOperand(tc, (unsigned)m.req), NULL};
      if (k == LT_MPI_WAITALL) {
        a[1] = a[0];
        a[0] = LLVMGetOperand(tc, (unsigned)m.count);
      }
      if (!lt_mpi_call_helper(c, t->b, ih, k == LT_MPI_WAIT ? "fwait" : "fwaitall", a,
                              k == LT_MPI_WAIT ? 1 : 2))
        return -1;
    }
    return 0;
  }
  if (!lt_mpi_float(&m, call))
    return 0;
  if (lt_mpicoll_handles(&m, call))
    return lt_mpicoll_tangent(t, call);
#define OP(r) LLVMGetOperand(tc, (unsigned)(r))
  LLVMValueRef fl = LLVMConstInt(c->i32, (unsigned long long)is_f32(call, &m), 0);
  LLVMValueRef peer = NULL, tag = NULL;
  if (k == LT_MPI_SEND || k == LT_MPI_RECV) {
    peer = OP(m.peer), tag = OP(m.tag);
    if (lt_mpi_records_status(&m, call))
      lt_mpi_status_after(c, t->b, &m, call, tc, &peer, &tag);
  }
  if (k == LT_MPI_IRECV && wild_const(&m, call)) {
    lt_error(c, call, "'MPI_Irecv' receives from MPI_ANY_SOURCE or with MPI_ANY_TAG, which "
                      "Leantape differentiates in reverse mode but not yet in forward mode; "
                      "name the source rank and the tag");
    return -1;
  }
  if ((k == LT_MPI_ISEND || k == LT_MPI_IRECV) && irecv_guard(c, t->b, &m, call, tc))
    return -1;
  for (unsigned l = 0; l < t->W; l++) {
    LLVMValueRef r;
    switch (k) {
    case LT_MPI_SEND:
    case LT_MPI_RECV: {
      LLVMValueRef a[7] = {lt_mpi_tshadow(t, call, k == LT_MPI_SEND ? m.sbuf : m.rbuf, l),
                           OP(m.count), OP(m.type), peer, tag, OP(m.comm), fl};
      r = lt_mpi_call_helper(c, t->b, ih, k == LT_MPI_SEND ? "fsend" : "frecv", a, 7);
      break;
    }
    case LT_MPI_ISEND:
    case LT_MPI_IRECV: {
      LLVMValueRef a[9] = {OP(m.req), LLVMConstInt(c->i32, k == LT_MPI_IRECV, 0),
                           lt_mpi_tshadow(t, call, k == LT_MPI_ISEND ? m.sbuf : m.rbuf, l),
                           OP(m.count), OP(m.type), OP(m.peer), OP(m.tag), OP(m.comm), fl};
      r = lt_mpi_call_helper(c, t->b, ih, "fstart", a, 9);
      break;
    }
    case LT_MPI_BCAST: {
      LLVMValueRef a[6] = {lt_mpi_tshadow(t, call, m.sbuf, l), OP(m.count), OP(m.type),
                           OP(m.root), OP(m.comm), fl};
      r = lt_mpi_call_helper(c, t->b, ih, "fbcast", a, 6);
      break;
    }
    case LT_MPI_REDUCE:
    case LT_MPI_ALLREDUCE: {
      LLVMValueRef a[8] = {lt_mpi_tshadow(t, call, m.sbuf, l), lt_mpi_tshadow(t, call, m.rbuf, l),
                           OP(m.count), OP(m.type), OP(m.op),
                           k == LT_MPI_REDUCE ? OP(m.root)
                                              : LLVMConstInt(c->i32, (unsigned long long)-1, 1),
                           OP(m.comm), fl};
      r = lt_mpi_call_helper(c, t->b, ih, "freduce", a, 8);
      break;
    }
    default:
      return lt_mpi_no_rule(c, call, "tangent");
    }
    if (!r)
      return -1;
  }
  return 0;
#undef OP
}
