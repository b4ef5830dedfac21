/* overwrite.h: the private state of overwrite.c and owchoice.c (the
 * analysis's classes of writes and loads, and the loads an undo log could
 * re-read). */
#ifndef LT_OVERWRITE_H
#define LT_OVERWRITE_H

#include "lt.h"

/* An access class: instructions with the same base pointer and AA tags. */
typedef struct Class {
  LLVMValueRef inst, addr, base;
  LLVMValueRef md[3]; /* !tbaa, !alias.scope, !noalias */
  int unloggable;     /* a member is not a plain store of <= 8 bytes */
  int store;          /* its members are stores; calls and intrinsics that
                         write (memset, memcpy) are classes of their own, so
                         that a row's memset before a loop nest does not
                         make the nest's stores to the same array unloggable
                         (C = 0 then C += A B: A and B were taped, 16 bytes
                         per innermost iteration, instead of re-read) */
  unsigned depth;     /* deepest loop nest of a member */
  int logged;
  int range;          /* members' ranges computable at entry: 0 ?, 1 yes, 2 no */
  LtVec members;      /* (instruction, address) pairs of its plain stores */
  LtVec *kept;        /* the members, moved to the LtOverwrite */
} Class;

typedef struct Classes {
  Class *c;
  unsigned n, cap;
  unsigned md_kind[3];
} Classes;


#define CLOBBER LT_CLOBBER

typedef struct Ctx {
  const LtFacts *g;
  Classes w, l;            /* write classes, load classes */
  unsigned words;          /* bitset words over write classes + clobber */
  uint64_t *reach;         /* block -> write classes reachable after it */
  LtMap alias;             /* (write class, load class) -> 1 may, 2 apart */
  LtVec cands;             /* Cand *: loads that an undo log could re-read */
  LtMap dist;              /* value -> req_dist + 1 */
} Ctx;

typedef struct Cand {
  LLVMValueRef load;
  unsigned lc, ld, sd;     /* load class, loop depths of load and writes */
  uint64_t *wcs;           /* the write classes after it that may alias it */
  LtVec closure;           /* values the reverse pass may recompute from it */
  int hopeless;            /* a write at its very address */
} Cand;

static inline void bit_set(uint64_t *s, unsigned b) { s[b / 64] |= 1ull << (b % 64); }
static inline int bit_has(const uint64_t *s, unsigned b) { return (s[b / 64] >> (b % 64)) & 1; }

/* the loop depth of block b (0: in no loop) */
static inline unsigned depth_of(const LtFacts *g, unsigned b) {
  int l = g->loops->innermost ? g->loops->innermost[b] : -1;
  return l < 0 ? 0 : g->loops->loop[l].depth;
}

/* owchoice.c: which candidates the undo log may re-read (o->ok, o->late,
 * o->cand) and whether a run-time test of ranges is planned (o->runtime);
 * frees the candidates */
void lt_ow_decide(LtOverwrite *o, Ctx *x);

#endif
