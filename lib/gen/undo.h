/* undo.h: the undo log of overwritten memory (combined mode): where R
 * restores what A logged, the run-time helpers, and the entries of whole
 * blocks and runs. Part of gen.h (included there, after LtGen). */
#ifndef LT_GEN_UNDO_H
#define LT_GEN_UNDO_H

/* undo.c: the undo log of overwritten memory (combined mode) */
/* R re-read this load (overwrite.c kind 3) through the log. */
void lt_undo_note_reload(LtGen *g, LLVMValueRef load);
/* R, at the start of a store's reverse: put its old value back. */
void lt_undo_reverse_store(LtGen *g, LLVMValueRef store);
/* R's exit, g->b there: keep the restores of the classes a re-read load
 * needs (else none), replay the log forwards and free it. */
void lt_undo_reverse_finish(LtGen *g);
/* A, after R is built: the run-time test, and the old values saved
 * before the stores whose restores R kept (each store a restore). */
void lt_undo_forward(LtGen *g);
/* A's log (k 0), count (k 1) or arena block (k 5), loaded at b (for the tape
 * header). */
LLVMValueRef lt_undo_forward_field(LtGen *g, LLVMBuilderRef b, unsigned k);
/* Once A and R are complete: each call of the log's helpers behind a
 * branch on the log's `on` (an i1 at the entry), so that loop unswitching
 * can make a copy of the loop without them, which vectorises like the
 * primal's, for when the run-time test turns the log off. 1 if any. */
int lt_undo_guard(LtGen *g);
/* Once A is complete: the saves of stores logged by runs behind a branch
 * on their run's "apart" (skipped then). */
void lt_undo_skip_runs(LtGen *g);

/* undort.c: the undo log's run-time helpers (internal IR functions) */
#define LT_UNDO_ENTRY 24          /* bytes of one entry */
#define LT_UNDO_BLOCK (1ull << 62) /* the entry's size: its value points to a block */
#define LT_UNDO_RUN (1ull << 61)   /* the entry's size: a run entry (undoblock.c),
                                      its value saved before its loop */
#define LT_UNDO_KEPT (1ull << 60)  /* a block's size: the block is in A's room
                                      in the arena (undort.c), not malloc's */
#define LT_UNDO_LATER (1ull << 59) /* a block's size: a later block of the log
                                      covers exactly its range (undort.c) */
#define LT_UNDO_FLAGS (LT_UNDO_BLOCK | LT_UNDO_RUN | LT_UNDO_KEPT | LT_UNDO_LATER)
#define LT_UNDO_TABLE 1024         /* slots of A's table of the last block at
                                      an address (state field 9), at least */
#define LT_UNDO_TABLE_MAX (1u << 20) /* and at most */
LLVMTypeRef lt_undo_state_ty(LtCtx *c);
LLVMValueRef lt_undo_field(LtCtx *c, LLVMBuilderRef b, LLVMValueRef st, unsigned k);
LLVMValueRef lt_undo_save_fn(LtCtx *c);
LLVMValueRef lt_undo_run_fn(LtCtx *c);
LLVMValueRef lt_undo_block_fn(LtCtx *c);
LLVMValueRef lt_undo_block_run_fn(LtCtx *c);
LLVMValueRef lt_undo_restore_fn(LtCtx *c);
LLVMValueRef lt_undo_restore_run_fn(LtCtx *c);
LLVMValueRef lt_undo_top_run_fn(LtCtx *c);
LLVMValueRef lt_undo_finish_fn(LtCtx *c);
LLVMValueRef lt_undo_begin_fn(LtCtx *c, int arena);
LLVMValueRef lt_undo_reserve_fn(LtCtx *c);
/* shared by undort.c and undoblockrt.c: the byte at off from p; n bytes
 * from src to dst; the helper `name` defined once, filled by fill behind
 * its "log on" test; the next entry of the log (grown when full) */
LLVMValueRef lt_undo_rt_at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, unsigned long long off);
void lt_undo_rt_copy(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst, LLVMValueRef src,
                     LLVMValueRef n);
LLVMValueRef lt_undo_rt_helper(LtCtx *c, const char *name, LLVMTypeRef *pt, unsigned np,
                               void (*fill)(LtCtx *, LLVMBuilderRef, LLVMValueRef));
LLVMValueRef lt_undo_rt_next_entry(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef st);
/* i1: is flag f set in an entry's size word n? */
LLVMValueRef lt_undo_rt_has_flag(LtCtx *c, LLVMBuilderRef b, LLVMValueRef n, unsigned long long f);

/* undoblock.c: log entries of whole blocks (a dense affine store's range
 * per run of its loop). The store's loop when it can be logged so (after
 * R is built: no re-read load in it, or, *tested, only loads of the loop
 * itself that A tests per run against the block), else -1. */
int lt_undo_block_loop(LtGen *g, LLVMValueRef store, int *tested);
/* A, at b in the loop's preheader: the first byte of the range the store
 * writes over the run of loop l about to start, and (bytes) its size. */
LLVMValueRef lt_undo_block_range(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                                 LLVMValueRef *bytes);
/* Run entries: the loop of a store logged once per run of it, at an
 * address that stays put in the loop, when every store logged in the loop
 * writes there and the loads R re-reads in it are affine (after R is
 * built), else -1. */
int lt_undo_run_loop(LtGen *g, LLVMValueRef store);
/* A, at b in l's preheader: i1, the store runs in the run about to start
 * and the loads R re-reads in l lie apart from its address over the run;
 * *at: the address. */
LLVMValueRef lt_undo_run_apart(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                               LLVMValueRef *at);
/* A, at b in l's preheader, for a tested block: i1, the loads R re-reads
 * in l stay clear of the block over the run; *lo, *bytes: the block. */
LLVMValueRef lt_undo_block_apart(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                                 LLVMValueRef *lo, LLVMValueRef *bytes);

#endif
