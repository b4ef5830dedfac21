/* compat.h: the differences between the LLVM majors Leantape builds against
 * (19 and 22; the list is LEANTAPE_LLVM_MAJORS in cmake/LeantapeLLVM.cmake).
 *
 * The C code is written against LLVM 22's C API. Each C API function that
 * an older LLVM lacks is declared here under its version test and mapped to
 * a C implementation of the same contract (base/compat.c), so that callers
 * keep LLVM 22's name; what C cannot do is a service of the host (LtHost,
 * base.h), which plugin.cpp implements for each major. Included by lt.h,
 * i.e. by every C file; plugin.cpp has its own #if blocks for the C++ API.
 */
#ifndef LT_COMPAT_H
#define LT_COMPAT_H

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm/Config/llvm-config.h> /* LLVM_VERSION_MAJOR (a C header) */

#if LLVM_VERSION_MAJOR < 19
#error "Leantape needs LLVM 19 or newer (see cmake/LeantapeLLVM.cmake)"
#endif

#if LLVM_VERSION_MAJOR < 20
/* LLVMIsAtomic (LLVM 20): inst is an atomic memory access (atomic load or
 * store, cmpxchg, atomicrmw, fence), as Instruction::isAtomic says. */
LLVMBool lt_compat_is_atomic(LLVMValueRef inst);
#define LLVMIsAtomic lt_compat_is_atomic
#endif

#endif
