/* mpi.c: what an MPI call is for AD.
 *
 * Calls are named by the MPI standard's C bindings, so OpenMPI and MPICH
 * alike; a table gives each one's kind and the role of its operands
 * (buffers, count, datatype, peer, tag, communicator, status, request,
 * reduction operation, root). Predefined datatype and operation handles
 * are recognised in both ABIs: OpenMPI's are addresses of globals
 * (&ompi_mpi_double, &ompi_mpi_op_sum), MPICH's integer constants
 * (0x4c00080b). A handle that is neither (a derived datatype, a user
 * operation, a value only known at run time) is unknown: gen/mpi.c never
 * guesses, activity.c reports it.
 */
#include "lt.h"

#include <string.h>

#define NO -1
/* The receive side of calls whose two sides differ (MPI_Sendrecv; the
 * collectives' receive count and type): RCNT etc.; others have none. */
#define NOR NO, NO, NO, NO
static const LtMpiCall table[] = {
    /* name            kind          sbuf rbuf cnt typ peer tag comm st  req op  root
     *                               rcnt rtyp rpeer rtag */
    {"MPI_Send", LT_MPI_SEND, 0, NO, 1, 2, 3, 4, 5, NO, NO, NO, NO, NOR},
    {"MPI_Ssend", LT_MPI_SEND, 0, NO, 1, 2, 3, 4, 5, NO, NO, NO, NO, NOR},
    {"MPI_Rsend", LT_MPI_SEND, 0, NO, 1, 2, 3, 4, 5, NO, NO, NO, NO, NOR},
    {"MPI_Bsend", LT_MPI_SEND, 0, NO, 1, 2, 3, 4, 5, NO, NO, NO, NO, NOR},
    {"MPI_Recv", LT_MPI_RECV, NO, 0, 1, 2, 3, 4, 5, 6, NO, NO, NO, NOR},
    {"MPI_Isend", LT_MPI_ISEND, 0, NO, 1, 2, 3, 4, 5, NO, 6, NO, NO, NOR},
    {"MPI_Issend", LT_MPI_ISEND, 0, NO, 1, 2, 3, 4, 5, NO, 6, NO, NO, NOR},
    {"MPI_Irecv", LT_MPI_IRECV, NO, 0, 1, 2, 3, 4, 5, NO, 6, NO, NO, NOR},
    {"MPI_Wait", LT_MPI_WAIT, NO, NO, NO, NO, NO, NO, NO, 1, 0, NO, NO, NOR},
    {"MPI_Waitall", LT_MPI_WAITALL, NO, NO, 0, NO, NO, NO, NO, 2, 1, NO, NO, NOR},
    {"MPI_Bcast", LT_MPI_BCAST, 0, 0, 1, 2, NO, NO, 4, NO, NO, NO, 3, NOR},
    {"MPI_Reduce", LT_MPI_REDUCE, 0, 1, 2, 3, NO, NO, 6, NO, NO, 4, 5, NOR},
    {"MPI_Allreduce", LT_MPI_ALLREDUCE, 0, 1, 2, 3, NO, NO, 5, NO, NO, 4, NO, NOR},
    {"MPI_Sendrecv", LT_MPI_SENDRECV, 0, 5, 1, 2, 3, 4, 10, 11, NO, NO, NO, 6, 7, 8, 9},
    {"MPI_Gather", LT_MPI_GATHER, 0, 3, 1, 2, NO, NO, 7, NO, NO, NO, 6, 4, 5, NO, NO},
    {"MPI_Scatter", LT_MPI_SCATTER, 0, 3, 1, 2, NO, NO, 7, NO, NO, NO, 6, 4, 5, NO, NO},
    {"MPI_Allgather", LT_MPI_ALLGATHER, 0, 3, 1, 2, NO, NO, 6, NO, NO, NO, NO, 4, 5, NO, NO},
};

/* No derivative and no effect on floating-point data: kept in A only.
 * A barrier orders nothing R needs (its messages are matched by tag). */
static const char *const inert[] = {
    "MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Initialized",
    "MPI_Finalized", "MPI_Query_thread", "MPI_Comm_rank", "MPI_Comm_size",
    "MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_split_type", "MPI_Comm_free",
    "MPI_Comm_create", "MPI_Comm_group", "MPI_Comm_compare", "MPI_Group_free",
    "MPI_Group_incl", "MPI_Group_size", "MPI_Group_rank", "MPI_Wtime",
    "MPI_Wtick", "MPI_Barrier", "MPI_Abort", "MPI_Get_processor_name",
    "MPI_Type_size", "MPI_Get_count", "MPI_Error_string",
    "MPI_Comm_set_errhandler", "MPI_Cart_create", "MPI_Cart_coords",
    "MPI_Cart_rank", "MPI_Cart_shift", "MPI_Dims_create", "MPI_Cart_get",
};

static int is_mpi_name(const char *n, size_t len) {
  return (len > 4 && !strncmp(n, "MPI_", 4)) || (len > 5 && !strncmp(n, "PMPI_", 5));
}

LtMpiKind lt_mpi_call(LLVMValueRef call, LtMpiCall *out) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  if (out) {
    static const LtMpiCall none = {"", LT_MPI_UNSUPPORTED, NO, NO, NO, NO, NO, NO,
                                   NO, NO, NO, NO, NO, NOR};
    *out = none;
  }
  if (!is_mpi_name(n, len))
    return LT_MPI_NONE;
  if (n[0] == 'P') { /* the profiling interface: the same calls */
    n++;
    len--;
  }
  for (size_t k = 0; k < sizeof inert / sizeof *inert; k++)
    if (strlen(inert[k]) == len && !strncmp(n, inert[k], len))
      return LT_MPI_INERT;
  for (size_t k = 0; k < sizeof table / sizeof *table; k++)
    if (strlen(table[k].name) == len && !strncmp(n, table[k].name, len) &&
        (int)LLVMGetNumArgOperands(call) > table[k].comm &&
        (int)LLVMGetNumArgOperands(call) > table[k].req) {
      if (out)
        *out = table[k];
      return table[k].kind;
    }
  return LT_MPI_UNSUPPORTED;
}

/* v through pointer casts: the named global it addresses, or NULL. */
static const char *global_name(LLVMValueRef v, size_t *len) {
  while (LLVMIsAConstantExpr(v) &&
         (LLVMGetConstOpcode(v) == LLVMBitCast || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
    v = LLVMGetOperand(v, 0);
  if (!LLVMIsAGlobalVariable(v))
    return NULL;
  return LLVMGetValueName2(v, len);
}

static int int_const(LLVMValueRef v, long long *x) {
  if (!LLVMIsAConstantInt(v))
    return 0;
  *x = LLVMConstIntGetSExtValue(v);
  return 1;
}

/* A predefined handle: OpenMPI's global (its name after the table's
 * prefix) or MPICH's integer constant, and what it means (an LtMpiType or
 * an LtMpiOp). */
typedef struct {
  const char *ompi;
  long long mpich;
  int what;
} Handle;

static const Handle types[] = { /* after "ompi_mpi_" */
    {"double", 0x4c00080b, LT_MPI_T_DOUBLE},
    {"float", 0x4c00040a, LT_MPI_T_FLOAT},
    {"int", 0x4c000405, LT_MPI_T_INT},
    {"unsigned", 0x4c000406, LT_MPI_T_INT},
    {"long", 0x4c000807, LT_MPI_T_INT},
    {"unsigned_long", 0x4c000808, LT_MPI_T_INT},
    {"long_long_int", 0x4c000809, LT_MPI_T_INT},
    {"short", 0x4c000203, LT_MPI_T_INT},
    {"char", 0x4c000101, LT_MPI_T_INT},
    {"signed_char", 0x4c000118, LT_MPI_T_INT},
    {"unsigned_char", 0x4c000102, LT_MPI_T_INT},
    {"byte", 0x4c00010d, LT_MPI_T_INT},
    {"int8_t", 0x4c000137, LT_MPI_T_INT},
    {"int16_t", 0x4c000238, LT_MPI_T_INT},
    {"int32_t", 0x4c000439, LT_MPI_T_INT},
    {"int64_t", 0x4c00083a, LT_MPI_T_INT},
    {"uint64_t", 0x4c00083e, LT_MPI_T_INT},
    {"c_bool", 0x4c00013f, LT_MPI_T_INT},
};

static const Handle ops[] = { /* after "ompi_mpi_op_" */
    {"sum", 0x58000003, LT_MPI_OP_SUM},   {"max", 0x58000001, LT_MPI_OP_MAX},
    {"min", 0x58000002, LT_MPI_OP_MIN},   {"prod", 0x58000004, LT_MPI_OP_OTHER},
    {"land", 0x58000005, LT_MPI_OP_OTHER}, {"band", 0x58000006, LT_MPI_OP_OTHER},
    {"lor", 0x58000007, LT_MPI_OP_OTHER}, {"bor", 0x58000008, LT_MPI_OP_OTHER},
    {"lxor", 0x58000009, LT_MPI_OP_OTHER}, {"bxor", 0x5800000a, LT_MPI_OP_OTHER},
    {"maxloc", 0x5800000c, LT_MPI_OP_OTHER}, {"minloc", 0x5800000b, LT_MPI_OP_OTHER},
    {"replace", 0x5800000d, LT_MPI_OP_OTHER},
};

/* The meaning of handle v in table t[0..n) (OpenMPI names after prefix),
 * or unknown. */
static int lookup(LLVMValueRef v, const Handle *t, size_t n, const char *prefix, int unknown) {
  size_t len, pl = strlen(prefix);
  long long x;
  const char *name = global_name(v, &len);
  for (size_t k = 0; k < n; k++) {
    if (name && len == pl + strlen(t[k].ompi) && !strncmp(name, prefix, pl) &&
        !strncmp(name + pl, t[k].ompi, len - pl))
      return t[k].what;
    if (!name && int_const(v, &x) && x == t[k].mpich)
      return t[k].what;
  }
  return unknown;
}

LtMpiType lt_mpi_type(LLVMValueRef dt) {
  return (LtMpiType)lookup(dt, types, sizeof types / sizeof *types, "ompi_mpi_",
                           LT_MPI_T_UNKNOWN);
}

LtMpiOp lt_mpi_op(LLVMValueRef op) {
  return (LtMpiOp)lookup(op, ops, sizeof ops / sizeof *ops, "ompi_mpi_op_", LT_MPI_OP_UNKNOWN);
}

int lt_mpi_float(const LtMpiCall *m, LLVMValueRef call) {
  if (m->type < 0)
    return 0;
  LtMpiType t = lt_mpi_type(LLVMGetOperand(call, (unsigned)m->type));
  return t == LT_MPI_T_DOUBLE || t == LT_MPI_T_FLOAT;
}

/* The MPICH ABI (integer handles) or OpenMPI's (pointers to globals),
 * from how the call passes its communicator. */
static int mpich_abi(const LtMpiCall *m, LLVMValueRef call) {
  return m->comm >= 0 &&
         !lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, (unsigned)m->comm)));
}

long long lt_mpi_any_source(const LtMpiCall *m, LLVMValueRef call) {
  return mpich_abi(m, call) ? -2 : -1;
}

long long lt_mpi_status_ignore(const LtMpiCall *m, LLVMValueRef call) {
  return mpich_abi(m, call) ? 1 : 0;
}

unsigned lt_mpi_status_source_offset(const LtMpiCall *m, LLVMValueRef call) {
  /* MPI_Status: OpenMPI {MPI_SOURCE, MPI_TAG, MPI_ERROR, ...}; MPICH
   * {count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR} */
  return mpich_abi(m, call) ? 8 : 0;
}

/* The receive's source and tag operands (MPI_Recv, MPI_Irecv; the receive
 * side of MPI_Sendrecv), or -1. */
static void recv_peer_tag(const LtMpiCall *m, int *peer, int *tag) {
  *peer = *tag = NO;
  if (m->kind == LT_MPI_RECV || m->kind == LT_MPI_IRECV) {
    *peer = m->peer;
    *tag = m->tag;
  } else if (m->kind == LT_MPI_SENDRECV) {
    *peer = m->rpeer;
    *tag = m->rtag;
  }
}

int lt_mpi_recv_wildcard(const LtMpiCall *m, LLVMValueRef call) {
  int peer, tag;
  long long x;
  recv_peer_tag(m, &peer, &tag);
  if (peer < 0)
    return 0;
  /* a source or tag only known at run time may be a wildcard */
  return !int_const(LLVMGetOperand(call, (unsigned)peer), &x) ||
         x == lt_mpi_any_source(m, call) ||
         !int_const(LLVMGetOperand(call, (unsigned)tag), &x) || x == -1;
}

/* MPI_IN_PLACE: (void *)1 or -1, a constant that is neither null nor an
 * object. */
static int in_place(LLVMValueRef buf) {
  return LLVMIsAConstant(buf) && !LLVMIsAGlobalValue(buf) && !LLVMIsAConstantPointerNull(buf) &&
         !LLVMIsAUndefValue(buf);
}

const char *lt_mpi_check(const LtMpiCall *m, LLVMValueRef call, int active) {
  if (m->kind == LT_MPI_UNSUPPORTED)
    return "has no derivative rule in Leantape (supported: point-to-point "
           "send and receive, blocking and nonblocking with MPI_Wait and "
           "MPI_Waitall, MPI_Sendrecv, MPI_Bcast, MPI_Reduce and "
           "MPI_Allreduce with MPI_SUM, MPI_MAX or MPI_MIN, MPI_Gather, "
           "MPI_Scatter, MPI_Allgather)";
  if (m->type < 0)
    return NULL;
  LtMpiType t = lt_mpi_type(LLVMGetOperand(call, (unsigned)m->type));
  LtMpiType rt = m->rtype >= 0 ? lt_mpi_type(LLVMGetOperand(call, (unsigned)m->rtype)) : t;
  if (t == LT_MPI_T_INT && rt == LT_MPI_T_INT)
    return NULL; /* no derivative to carry */
  if (t == LT_MPI_T_UNKNOWN || rt == LT_MPI_T_UNKNOWN)
    return active || m->rbuf >= 0
               ? "has a datatype that is not a predefined MPI datatype known "
                 "at compile time (derived datatypes are not differentiated; "
                 "use MPI_DOUBLE or MPI_FLOAT)"
               : NULL;
  if (t != rt)
    return "sends and receives different datatypes, which Leantape does "
           "not differentiate; use the same MPI_DOUBLE or MPI_FLOAT on "
           "both sides";
  if (m->sbuf >= 0 && m->rbuf >= 0 && m->sbuf != m->rbuf &&
      (in_place(LLVMGetOperand(call, (unsigned)m->sbuf)) ||
       in_place(LLVMGetOperand(call, (unsigned)m->rbuf))))
    return "uses MPI_IN_PLACE, which Leantape does not differentiate yet; "
           "pass a separate send buffer";
  if (m->op >= 0) {
    LtMpiOp op = lt_mpi_op(LLVMGetOperand(call, (unsigned)m->op));
    if (op != LT_MPI_OP_SUM && op != LT_MPI_OP_MAX && op != LT_MPI_OP_MIN)
      return "reduces floating-point data with an operation that has no "
             "derivative rule (MPI_SUM, MPI_MAX and MPI_MIN have)";
  }
  return NULL;
}
