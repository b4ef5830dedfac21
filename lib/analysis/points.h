/* points.h: the objects and sets of points.c, shared with pointsq.c (the
 * queries on the fixpoint's result) and pointsglobal.c (the globals).
 * Private to lib/analysis: included after lt.h by those files only. */
#ifndef LT_POINTS_H
#define LT_POINTS_H

/* O_NULL stands for "no shadow here" where a shadow may be null at run
 * time (a callee's result, a LT_DUPNULL parameter): inactive, and never
 * reported as memory losing active data (guard.c handles it). O_CHARS is
 * a buffer of characters a library function allocates (std::string's):
 * never active, it holds no addresses. */
enum { O_ARG, O_ARGMEM, O_ALLOC, O_GLOBAL, O_UNKNOWN, O_CALLMEM, O_NULL, O_CHARS };

static inline int set_has(const uint64_t *s, unsigned o) { return s[o / 64] >> (o % 64) & 1; }

/* The objects whose addresses object o may hold. */
static inline uint64_t *contents(LtPoints *pt, unsigned o) {
  return pt->contents + (size_t)o * pt->words;
}

static inline int nonempty(const LtPoints *pt, const uint64_t *s) {
  for (unsigned w = 0; w < pt->words; w++)
    if (s[w])
      return 1;
  return 0;
}

/* dst |= src; 1 when dst grew. */
int lt_points_join(LtPoints *pt, uint64_t *dst, const uint64_t *src);

/* A new object of kind (O_*) for src (the parameter's index, or -1). */
unsigned lt_points_new_obj(LtPoints *pt, int kind, LLVMValueRef src, int param);

/* pointsglobal.c: v without constant GEPs and casts */
LLVMValueRef lt_points_strip_const(LLVMValueRef v);
/* A constant global whose value is plain data: no addresses, no stores. */
int lt_points_const_data(LLVMValueRef gv);
/* A global table of other globals' addresses, never written: them, in out. */
int lt_points_const_table(LLVMValueRef gv, LtVec *out);
/* An object for every global g's constants name (and the tables' globals). */
void lt_points_globals(LtPoints *pt, const LtCfg *g);

/* Object o is a null shadow or memory that only holds plain data. */
int lt_points_holds_data(const LtPoints *pt, unsigned o);

#endif
