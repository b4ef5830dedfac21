/* prep.h: the canonical clone: cloning, inlining, exception edges,
 * integer-only pointers.
 * Included by lt.h, in layer order; do not include directly. */
#ifndef LT_PREP_H
#define LT_PREP_H

/* intptr.c */
/* Unmarked pointer parameter p of fn is only used to read and write
 * integers and pointers (it then defaults to enzyme_const). */
int lt_param_int_only(LLVMValueRef fn, unsigned p);

/* clone.c: cloning function bodies and inlining calls */

/* Clone the body of src into dst before block `before` (NULL: append).
 * vmap must map src's parameters; it is filled with blocks/instructions.
 * Debug locations are kept when keep_dbg. Returns the clone of src's entry. */
LLVMBasicBlockRef lt_clone_body(LtMap *vmap, LLVMValueRef src, LLVMValueRef dst,
                                LLVMBasicBlockRef before, int keep_dbg);
/* New internal function named name with type fty, attributes of src copied
 * for the first nparams parameters; optnone/noinline dropped. */
LLVMValueRef lt_clone_decl(LLVMValueRef src, const char *name, LLVMTypeRef fty);
/* Inline the call (callee must be defined). Returns 0 on success. */
int lt_inline_call(LtCtx *c, LLVMValueRef call, int keep_dbg);

/* preprocess.c */

/* A canonical clone of fn: user calls inlined, SSA form, simplified.
 * NULL (after reporting) when fn uses something unsupported. */
LLVMValueRef lt_preprocess(LtCtx *c, LLVMValueRef fn, LLVMValueRef at);

/* libm.c: sincos, sincosf and llvm.sincos become llvm.sin and llvm.cos */
void lt_split_sincos(LtCtx *c, LLVMValueRef fn);

/* eh.c */
/* Invokes whose unwind path only cleans up become calls; a catch that
 * resumes normal code is reported (-1). */
int lt_eh_lower(LtCtx *c, LLVMValueRef fn);


#endif
