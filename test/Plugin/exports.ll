; The plugin exports exactly one function, llvmGetPassPluginInfo; everything
; else has hidden visibility (and a linker version script enforces it).
; RUN: nm -D --defined-only %plugin | FileCheck %s
; CHECK-NOT: {{ [TtWwiI] }}
; CHECK: {{ [TW] }}llvmGetPassPluginInfo{{$}}
; CHECK-NOT: {{ [TtWwiI] }}
