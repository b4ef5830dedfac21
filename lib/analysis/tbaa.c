/* tbaa.c: what clang's TBAA tags say about the type of an access.
 *
 * A scalar access tag !{base, access, offset} names the accessed type in
 * its access type node ("double", "int", "any pointer", "p1 double", ...).
 * Only the names clang emits for C and C++ scalars are recognised; char
 * (which may alias anything) and struct-path bases say nothing.
 */
#include "lt.h"

#include <string.h>

int lt_tbaa_class(LLVMContextRef c, LLVMValueRef tag, LLVMTypeRef *fty) {
  unsigned n = tag && LLVMIsAMDNode(tag) ? LLVMGetMDNodeNumOperands(tag) : 0;
  if (n < 2 || n > 4)
    return LT_TBAA_UNKNOWN;
  LLVMValueRef ops[4];
  LLVMGetMDNodeOperands(tag, ops);
  unsigned na = LLVMIsAMDNode(ops[1]) ? LLVMGetMDNodeNumOperands(ops[1]) : 0;
  if (na < 1 || na > 8)
    return LT_TBAA_UNKNOWN;
  LLVMValueRef aops[8];
  LLVMGetMDNodeOperands(ops[1], aops);
  unsigned len = 0;
  const char *s = LLVMIsAMDString(aops[0]) ? LLVMGetMDString(aops[0], &len) : NULL;
  if (!s)
    return LT_TBAA_UNKNOWN;
#define IS(lit) (len == sizeof(lit) - 1 && !strncmp(s, lit, len))
  if (IS("double")) {
    *fty = LLVMDoubleTypeInContext(c);
    return LT_TBAA_FLOAT;
  }
  if (IS("float")) {
    *fty = LLVMFloatTypeInContext(c);
    return LT_TBAA_FLOAT;
  }
  if (IS("long double")) {
    *fty = LLVMX86FP80TypeInContext(c);
    return LT_TBAA_FLOAT;
  }
  if (IS("any pointer") || IS("vtable pointer") ||
      (len > 2 && s[0] == 'p' && s[1] >= '1' && s[1] <= '9'))
    return LT_TBAA_PTR;
  if (IS("int") || IS("long") || IS("long long") || IS("short") ||
      IS("bool") || IS("_Bool") || IS("unsigned int") || IS("unsigned long") ||
      IS("unsigned long long") || IS("unsigned short") || IS("__int128") ||
      IS("unsigned __int128") || IS("wchar_t") || IS("char16_t") ||
      IS("char32_t"))
    return LT_TBAA_INT;
#undef IS
  return LT_TBAA_UNKNOWN;
}

int lt_tbaa_class_of(LLVMValueRef inst, LLVMTypeRef *fty) {
  LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(inst));
  unsigned k = LLVMGetMDKindIDInContext(c, "tbaa", 4);
  return lt_tbaa_class(c, LLVMGetMetadata(inst, k), fty);
}
