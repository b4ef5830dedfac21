/* leantape.h: the user interface of Leantape (Enzyme's call convention).
 *
 * Compile with clang-22 -fpass-plugin=build/lib/LLVMLeantape.so; the plugin
 * replaces every call to an __enzyme_* entry point by generated derivative
 * code. Without the plugin these calls fail to link, which is intended.
 *
 * Activity markers precede the argument(s) they describe:
 *   enzyme_dup, x, dx       x is active; its shadow dx receives dL/dx (+=)
 *   enzyme_dupnoneed, x, dx as enzyme_dup, but the primal result is unused
 *   enzyme_const, x         x is inactive (no derivative)
 *   enzyme_out, x           x is an active scalar; its gradient is returned
 * Unmarked arguments: pointers are dup, floating-point values are out,
 * integers are const. With several enzyme_out arguments the entry point
 * returns a struct of their gradients in argument order.
 *
 * Return types: the entry points are variadic and their declared return
 * type tells the plugin what to build. A call that needs another return type
 * (e.g. a struct of doubles for several enzyme_out arguments) declares its
 * own entry point under a name with the same prefix, for example
 *   typedef struct { double dx, dy; } grad2;
 *   grad2 __enzyme_autodiff2(void *, ...);
 * Any function whose name starts with __enzyme_autodiff is treated as
 * __enzyme_autodiff, and likewise for the other entry points.
 */
#ifndef LEANTAPE_H
#define LEANTAPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Markers: the plugin recognises the loaded value by the global's name (or
 * an IR `metadata !"enzyme_dup"` argument); the value itself is never used. */
extern int enzyme_dup;
extern int enzyme_dupnoneed;
extern int enzyme_const;
extern int enzyme_out;
/* Split mode: in front of a pointer argument (on either side of its
 * activity marker), the caller promises not to change the memory it points
 * to between __enzyme_augmentfwd and __enzyme_reverse, so the reverse half
 * may read it again instead of keeping it on the tape. Give it to both
 * calls. */
extern int enzyme_not_overwritten;
extern int enzyme_nocache; /* the same promise (Enzyme's container tests) */
/* Reverse mode (combined and split): enzyme_tape_budget, N (bytes, an
 * integer constant) anywhere among the arguments checkpoints the time
 * loops of this call's function when their tapes would exceed N bytes,
 * as -leantape-checkpoint=N does for every call (Leantape's, not
 * Enzyme's; LEANTAPE_TAPE_BUDGET at run time still overrides N). In split
 * mode give it to both calls. */
extern int enzyme_tape_budget;

/* Combined reverse mode: run fn, accumulate gradients into the shadows of
 * dup arguments, and return the gradient of the (single) enzyme_out
 * argument. */
double __enzyme_autodiff(void *fn, ...);

/* Split mode, forward half: run fn and return an opaque heap tape. */
void *__enzyme_augmentfwd(void *fn, ...);

/* Split mode, reverse half: same arguments as __enzyme_augmentfwd, then the
 * adjoint of the return value (if fn returns an active float), then the
 * tape, which this call consumes and frees. */
void __enzyme_reverse(void *fn, ...);

/* Folds to the size in bytes of the tape header for fn and these args. */
size_t __enzyme_augmentsize(void *fn, ...);

#ifdef __cplusplus
}
#endif

#endif /* LEANTAPE_H */
