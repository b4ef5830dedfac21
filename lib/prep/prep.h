/* prep.h: the canonical clone: inlining policy, exception edges, libm
 * calls split for the rules.
 * Included by lt.h, in layer order; do not include directly. */
#ifndef LT_PREP_H
#define LT_PREP_H

/* preprocess.c */

/* A canonical clone of fn: user calls inlined, SSA form, simplified.
 * NULL (after reporting) when fn uses something unsupported. */
LLVMValueRef lt_preprocess(LtCtx *c, LLVMValueRef fn, LLVMValueRef at);

/* apart.c: P's pointer parameters p with apart[p] become noalias, and LICM
 * runs, where those parameters (and locals) are all the memory P touches:
 * for a derivative that runs only when a test took them apart (at -O2 and
 * up). 1 when done, 0 when not, -1 when the pipeline failed. */
int lt_prep_apart(LtCtx *c, LLVMValueRef P, const unsigned char *apart);

/* outline.c: the body of every outermost loop of P with a known trip
 * count and an inner loop becomes a function of its own, P.lt.step, called
 * once per iteration (a kept call); what iterations carry goes through
 * allocas. The number of loops outlined, or -1 after reporting. */
int lt_outline_time_loops(LtCtx *c, LLVMValueRef P);
/* outline.c: 0 (with a remark) when the gradient of call is differentiated
 * again in forward mode: forward mode does not go through checkpointing's
 * run-time helpers (callbacks, getenv), so its time loops stay loops. */
int lt_outline_wanted(LtCtx *c, LLVMValueRef call, int ckpt);

/* frame.c: in combined mode, the static allocas of P's entry lose their
 * lifetime markers (A and R then share their frame: R may read them) */
void lt_frame_locals(LLVMValueRef P);
/* frame.c: is a a static alloca of P's entry block without lifetime
 * markers (one R may read again, in combined mode)? */
int lt_frame_alloca(LLVMValueRef P, LLVMValueRef a);
/* frame.c: is a an alloca of a constant size in P's entry block? */
int lt_static_local(LLVMValueRef P, LLVMValueRef a);
/* frame.c: is i a call of llvm.lifetime.start or .end? */
int lt_lifetime_marker(LLVMValueRef i);

/* storefwd.c: loads of a static local that read what its one store wrote
 * in the same run of its loop become the stored expression (its counter
 * replaced by the load's); the number of loads replaced */
unsigned lt_forward_local_stores(LtCtx *c, LLVMValueRef P);

/* loopform.c: check that every loop of P (whose CFG is cfg) is in
 * loop-simplify form, find them (loops), and give each a canonical i64
 * counter lt.iv ((*loop_iv)[l]) with exit copies lt.ivx (ivx_loop: copy ->
 * loop + 1). -1 after reporting; fn names the user's function. */
int lt_loopform(LtCtx *c, LLVMValueRef fn, const LtCfg *cfg, LtLoops *loops,
                LLVMValueRef **loop_iv, LtMap *ivx_loop);

/* omp.c: OpenMP in the clone */
/* Replace a __kmpc_fork_call by the direct call of its outlined function
 * with (null, null, captures...), marked "parallel". 0 on success. */
int lt_omp_lower_fork(LtCtx *c, LLVMValueRef fork);
/* The ident_t location a parallel call's fork had. */
LLVMValueRef lt_omp_loc(LtCtx *c, LLVMValueRef call);
/* The turn counters of the critical sections and reductions of fn and of
 * the defined functions it calls (each once): a region's derivative sets
 * them back for its reverse pass. */
void lt_omp_turns(LtCtx *c, LLVMValueRef fn, LtVec *turns);
/* Critical sections and reductions of fn get tickets (lt.omp.critical,
 * lt.omp.end_critical); an unsupported construct is reported (-1). */
int lt_omp_lower_sync(LtCtx *c, LLVMValueRef fn);

/* libm.c: sincos, sincosf and llvm.sincos become llvm.sin and llvm.cos */
void lt_split_sincos(LtCtx *c, LLVMValueRef fn);
/* libm.c: each __enzyme_iter(a, b) in the clone fn counts once more:
 * a + b */
void lt_step_iter_hints(LtCtx *c, LLVMValueRef fn);

/* asm.c: inline assembly with a known meaning (Eigen's FMA) becomes the
 * intrinsic it computes */
void lt_known_asm(LtCtx *c, LLVMValueRef fn);

/* deadcopy.c: memcpy, memmove and memset calls of a constant length that
 * is negative as a signed number (undefined: a path never taken) go */
void lt_drop_impossible_copies(LLVMValueRef fn);
/* poison.c: the poison lanes of float vectors a shuffle or an
 * insertelement leaves hold 1.0 (after the pipeline) */
void lt_define_lanes(LtCtx *c, LLVMValueRef fn);
/* ptrvec.c: every <N x ptr> value becomes N pointers, its loads and
 * stores N loads and stores (after the pipeline) */
void lt_pointer_vectors(LtCtx *c, LLVMValueRef fn);
/* lanes.c: a pointer taken out of a float vector load's bits is loaded as
 * an integer of its own (after the pipeline) */
void lt_pointer_lanes(LtCtx *c, LLVMValueRef fn);
/* floatlanes.c: floats moved through integers become float lanes again
 * (after lt_pointer_lanes) */
void lt_float_lanes(LtCtx *c, LLVMValueRef fn);
/* lanetrack.c: r = bitcast (integer arithmetic on float lanes) to floats
 * as a shuffle of one float vector (before r, at b), or NULL */
LLVMValueRef lt_tracked_lanes(LtCtx *c, LLVMBuilderRef b, LLVMValueRef r);
/* reduce.c: llvm.vector.reduce.{fadd,fmul,fmax,...} as chains of lanes */
void lt_expand_reductions(LtCtx *c, LLVMValueRef fn);
/* reduce.c: a running maxnum / minnum (fmax, fmin: m = fmax(m, x) around a
 * loop) as a select on a compare */
void lt_select_extremes(LtCtx *c, LLVMValueRef fn);

/* indirect.c: each call through a function pointer in fn becomes a call
 * of a dispatcher over the module's functions it may reach (inlined by the
 * next round); the number of calls changed */
int lt_promote_indirect(LtCtx *c, LLVMValueRef fn);

/* eh.c */
/* Invokes whose unwind path only cleans up become calls; a catch that
 * resumes normal code is reported (-1). */
int lt_eh_lower(LtCtx *c, LLVMValueRef fn);


#endif
