/* memcopy.h: what a memcpy/memmove copies, field by field: memlayout.c
 * (the layout; memaccess.c, the layout from the accesses), memelem.c (the element types of the blocks a run-time
 * length copy moves), memnote.c (declared types noted before
 * canonicalising), memuse.c (how the function accesses a copy's objects).
 * Part of analysis.h, included by it after tbaa.c's declarations; do not
 * include directly. */
#ifndef LT_ANALYSIS_MEMCOPY_H
#define LT_ANALYSIS_MEMCOPY_H

/* memlayout.c: the float and pointer fields a memcpy/memmove copies */
#define LT_MEM_FIELDS 32
typedef struct LtMemLayout {
  unsigned long long period; /* bytes per element */
  unsigned n, overflow;
  int guessed;               /* uniform, from how the memory is accessed */
  struct {
    unsigned off;
    unsigned char filled; /* a float guessed for bytes nothing else says */
    LLVMTypeRef ty;
  } f[LT_MEM_FIELDS]; /* float or ptr */
} LtMemLayout;
typedef struct LtGen LtGen;
/* a: its bit groups (bits.c) say which integer accesses move floats; NULL
 * when they are not known yet (integer accesses are then integers) */
int lt_mem_layout(LtCtx *c, const LtActivity *a, LLVMValueRef call, LtMemLayout *L);
int lt_mem_layout_has(const LtMemLayout *L, int ptrs); /* pointer / float fields */
/* A constant copy whose !tbaa.struct has fields past its byte count: it
 * moves a prefix of a struct (memcpyopt shrinks the copy of an S
 * {double, double *, int} to 16 bytes and keeps S's tag) */
int lt_mem_partial_struct(LtCtx *c, LLVMValueRef call);
/* A run-time copy of [p, gep T, p, k) from or to one of its ends p, T a
 * float or pointer type: *L is elements of T (1), or 0 */
int lt_mem_range_layout(LtCtx *c, LLVMValueRef call, LtMemLayout *L);
/* memelem.c: the aggregate type a GEP indexes base's object with (also
 * through the PHIs and selects that merge base with other pointers, when
 * they agree), or NULL */
LLVMTypeRef lt_mem_element_type(LLVMValueRef base);
/* ... the float or pointer type GEPs at run-time indices step over base's
 * object with, through the same PHIs and selects, when they agree (a
 * std::vector<double *>'s data: `gep ptr, %data, %i`), or NULL */
LLVMTypeRef lt_mem_scalar_element_type(LLVMValueRef base);
/* The element size the byte count of `call` (a copy of a run-time length)
 * is made of or divided by exactly (n * 24, (last - first) / 24), or 0 */
unsigned long long lt_mem_size_stride(LLVMValueRef call);
/* Byte count v is a whole number of m-byte elements: a multiple of a
 * constant, or the distance between two pointers at whole elements */
int lt_mem_multiple_of(LLVMTargetDataRef td, LLVMValueRef v, unsigned long long m);
/* ... of the allocations p (an end of `call`) may address, or the objects
 * copied into or out of them (with a, also the layouts of constant copies
 * of whole elements of floats and pointers into or out of them), when
 * those agree and have the size of the elements call copies (from its
 * byte count or its blocks'), or NULL */
LLVMTypeRef lt_mem_pointee_element_type(LtCtx *c, const LtActivity *a, LtPoints *pt,
                                        LLVMValueRef call, LLVMValueRef p);
/* Is some allocation the copy `call` may copy from of a type with
 * pointer fields, and of its stride? (A copy of it guessed to move floats
 * would leave their shadows behind.) */
int lt_mem_pointee_holds_ptrs(LtCtx *c, LtPoints *pt, LLVMValueRef call);
int lt_realloc_layout(LtCtx *c, LLVMValueRef call, LtMemLayout *L);
/* memperiod.c: copies of whole elements. field[r]: the type accessed at
 * byte r of a copy of n bytes (NULL: none); the smallest period the
 * fields seen agree with (the unseen ones filled from the others), or 0 */
unsigned long long lt_mem_periodic_fill(LLVMTargetDataRef td, LLVMTypeRef *field,
                                        unsigned long long n);
/* Is base, whose bytes [at, at + n) a copy moves, an allocation of whole
 * n-byte elements of a run-time count, the copy at an element's start? */
int lt_mem_array_of(LLVMTargetDataRef td, LLVMValueRef base, long long at, unsigned long long n);
/* memnote.c: the declared types of copies, noted before canonicalising */
void lt_mem_note_types(LtCtx *c, LLVMValueRef fn); /* before canonicalising */
int lt_mem_ptrs_seen(LtCtx *c, LLVMValueRef call);
/* The declared type of the memory at p, through GEPs of constant offset,
 * stack slots and, for a parameter's memory, what every caller passes
 * there (when they agree); the offset into it in *off. NULL: unknown. */
LLVMTypeRef lt_mem_place(LtCtx *c, LLVMValueRef p, unsigned long long *off);
unsigned lt_mem_note_kind(LLVMContextRef ctx); /* !leantape.layout */
/* memlayout.c, for memnote.c: the scalar leaves of t in [lo, hi) (t
 * placed at base) added to L; a char buffer's type (SROA's [40 x i8]
 * slices, aligned storage), which says nothing of what it holds; the
 * declared type at p (alloca, global, typed GEP), p's byte offset into it
 * and whether p may step over an array of it. */
void lt_mem_leaves(LLVMTargetDataRef td, LLVMTypeRef t, long long base, long long lo,
                   long long hi, LtMemLayout *L, int depth);
int lt_mem_bytes_only(LLVMTypeRef t);
LLVMTypeRef lt_mem_declared(LLVMTargetDataRef td, LLVMValueRef p, unsigned long long *off,
                            int *element);
/* Types a and b hold the same float and pointer fields from their offsets
 * from_a and from_b to their ends, as many bytes (an S local and the S
 * member of a struct; a type made of a copy's layout and the struct a GEP
 * names) */
int lt_mem_same_leaves(LLVMTargetDataRef td, LLVMTypeRef a, unsigned long long from_a,
                       LLVMTypeRef b, unsigned long long from_b);
/* memuse.c: the address a load or store accesses, and in *t the type it
 * accesses there; NULL for other instructions */
LLVMValueRef lt_mem_access(LLVMValueRef i, LLVMTypeRef *t);
/* The float (else pointer) type the function of `call` accesses through
 * pointers based on its destination or source (b1, b2), or NULL. */
LLVMTypeRef lt_mem_elem_type(LLVMTargetDataRef td, LLVMValueRef call);
/* The function accesses the copy's memory both as floats and pointers,
 * and pointers where the copy may move them (not all below its start). */
int lt_mem_mixed(LLVMTargetDataRef td, LLVMValueRef call);
LLVMTypeRef lt_elem_type_of(LLVMValueRef fn, LLVMValueRef b1, LLVMValueRef b2);
/* The allocation `block` in fn is accessed, or copied with a known layout,
 * both as floats and as pointers */
int lt_mem_block_mixed(LtCtx *c, LLVMValueRef fn, LLVMValueRef block);
/* A run-time length copy's layout from the constant copies of the same
 * objects at whole elements from it (1: found, in *L) */
int lt_mem_layout_from_copies(LtCtx *c, const LtActivity *a, LLVMValueRef call,
                              LtMemLayout *L);

#endif
