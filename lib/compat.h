/* compat.h: the differences between the LLVM majors Leantape builds against
 * (19 and 22; the list is LEANTAPE_LLVM_MAJORS in cmake/LeantapeLLVM.cmake).
 *
 * The rest of the C code is written against LLVM 22's C API. Each C API
 * function that an older LLVM lacks is declared here under its version test
 * and mapped to a bridge of the same contract in plugin.cpp (the only C++),
 * so that callers keep LLVM 22's name. Pass pipeline strings that differ
 * between versions are macros here too. Included by lt.h, i.e. by every C
 * file; plugin.cpp has its own #if blocks for the C++ API.
 */
#ifndef LT_COMPAT_H
#define LT_COMPAT_H

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h> /* LLVM_VERSION_MAJOR (a C header) */

#if LLVM_VERSION_MAJOR < 19
#error "Leantape needs LLVM 19 or newer (see cmake/LeantapeLLVM.cmake)"
#endif

#if LLVM_VERSION_MAJOR < 20
/* LLVMIsAtomic (LLVM 20): inst is an atomic memory access (atomic load or
 * store, cmpxchg, atomicrmw, fence, or a call that is atomic). */
LLVMBool lt_compat_is_atomic(LLVMValueRef inst);
#define LLVMIsAtomic lt_compat_is_atomic

/* LLVMRunPassesOnFunction (LLVM 20): run the function pass pipeline
 * `passes` on fn with fresh analysis managers. The bridge supports what
 * Leantape passes: tm NULL and default options (LLVMCreatePassBuilderOptions,
 * unchanged). Returns NULL, or an error (a pipeline that does not parse). */
LLVMErrorRef lt_compat_run_passes_on_function(LLVMValueRef fn,
                                              const char *passes,
                                              LLVMTargetMachineRef tm,
                                              LLVMPassBuilderOptionsRef opts);
#define LLVMRunPassesOnFunction lt_compat_run_passes_on_function
#endif

#endif
