; A libstdc++ link call that would join an active node to a structure
; without shadows (an enzyme_const tree): its shadow cannot follow, so it
; is an error naming the call, not a crash or a silent zero.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: '_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_' links active nodes with nodes that have no shadow (argument 3)
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext, ptr, ptr, ptr)
declare double @__enzyme_autodiff(...)

; the node n holds x and is active; the tree at hdr (its parent p) is const
define void @link(ptr %n, ptr %p, ptr %hdr, double %x) {
  %v = getelementptr inbounds i8, ptr %n, i64 32
  store double %x, ptr %v
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext true, ptr %n, ptr %p, ptr %hdr)
  ret void
}

define void @main(ptr %n, ptr %dn, ptr %p, ptr %hdr, double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @link, metadata !"enzyme_dup", ptr %n, ptr %dn, metadata !"enzyme_const", ptr %p, metadata !"enzyme_const", ptr %hdr, double %x)
  ret void
}
