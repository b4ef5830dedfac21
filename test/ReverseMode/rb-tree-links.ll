; libstdc++'s out-of-line red-black tree functions on active nodes (the
; shape of std::map<K, double>'s nodes: color, parent, left, right, then
; the value at byte 32): the augmented forward pass and forward mode call
; them again on the shadow nodes (the shadow node is linked into the shadow
; tree; a walk from a shadow node gives the shadow of where the primal
; walk ends), the reverse pass does nothing for them, and the adjoint of
; the value read through the walk's result goes to the shadow node it found.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll

declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext, ptr, ptr, ptr)
declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr)
declare ptr @_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base(ptr)
declare double @__enzyme_autodiff(...)
declare double @__enzyme_fwddiff(...)
declare noalias ptr @_Znwm(i64)

; ins(hdr, x): a new node holding x*x linked under hdr; returns the value
; of the node after the leftmost one (the new node when it is the larger)
define double @ins(ptr %hdr, double %x) {
  %n = call ptr @_Znwm(i64 40)
  call void @llvm.memset.p0.i64(ptr %n, i8 0, i64 40, i1 false)
  %v = getelementptr inbounds i8, ptr %n, i64 32
  %xx = fmul double %x, %x
  store double %xx, ptr %v
  %root = getelementptr inbounds i8, ptr %hdr, i64 8
  %r = load ptr, ptr %root
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext false, ptr %n, ptr %r, ptr %hdr)
  %lm = getelementptr inbounds i8, ptr %hdr, i64 16
  %first = load ptr, ptr %lm
  %second = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %first)
  %back = call ptr @_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base(ptr %second)
  %sv = getelementptr inbounds i8, ptr %second, i64 32
  %a = load double, ptr %sv
  %bv = getelementptr inbounds i8, ptr %back, i64 32
  %b = load double, ptr %bv
  %m = fmul double %a, %b
  ret double %m
}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; CHECK-LABEL: define internal {{.*}}@ins.lt.grad(
; CHECK-SAME:    ptr %hdr, double %x, ptr %[[SH:[0-9]+]], double %{{[0-9]+}})
; CHECK:         call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext false, ptr {{.*}}%n, ptr %r, ptr %hdr)
; CHECK-NEXT:    call void @{{(lt.link.)?}}_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 false, ptr {{.+}}, ptr {{.+}}, ptr %[[SH]])
; CHECK:         %second = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %first)
; CHECK-NEXT:    call ptr @{{(lt.link.)?}}_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %
; CHECK:         ret

; CHECK-LABEL: define internal double @ins.lt.tan(
; CHECK:         call void @{{(lt.link.)?}}_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 false,
; CHECK:         call ptr @{{(lt.link.)?}}_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr %
; CHECK:         call ptr @{{(lt.link.)?}}_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base(ptr %
; CHECK:         ret double

; The tree: header and one node holding 2.0 (its shadow: 0); the new node
; holds x^2 = 9 > 2, so first = the old node, second = the new one, back =
; the old one: ins = x^2 * 2, d/dx = 4x = 12, d/d(old value) = x^2 = 9.
; Forward mode on a second such tree, the old value's tangent 0.5: 16.5.
; Written with the same layout, so that lli runs libstdc++'s functions.
@hdr = global [6 x ptr] zeroinitializer
@dhdr = global [6 x ptr] zeroinitializer
@node = global [5 x i64] zeroinitializer
@dnode = global [5 x i64] zeroinitializer
@hdr2 = global [6 x ptr] zeroinitializer
@thdr2 = global [6 x ptr] zeroinitializer
@node2 = global [5 x i64] zeroinitializer
@tnode2 = global [5 x i64] zeroinitializer

define void @init(ptr %h, ptr %nd, double %v) {
  ; header: color red (0), parent = node, left = right = node; node: black
  ; (1), parent = header, no children, value v
  %hp = getelementptr inbounds i8, ptr %h, i64 8
  store ptr %nd, ptr %hp
  %hl = getelementptr inbounds i8, ptr %h, i64 16
  store ptr %nd, ptr %hl
  %hr = getelementptr inbounds i8, ptr %h, i64 24
  store ptr %nd, ptr %hr
  store i32 1, ptr %nd
  %np = getelementptr inbounds i8, ptr %nd, i64 8
  store ptr %h, ptr %np
  %nv = getelementptr inbounds i8, ptr %nd, i64 32
  store double %v, ptr %nv
  ret void
}

define i32 @main() {
  call void @init(ptr @hdr, ptr @node, double 2.0)
  call void @init(ptr @dhdr, ptr @dnode, double 0.0)
  %dx = call double (...) @__enzyme_autodiff(ptr @ins, metadata !"enzyme_dup", ptr @hdr, ptr @dhdr, double 3.0)
  %dv = getelementptr inbounds i8, ptr @dnode, i64 32
  %dold = load double, ptr %dv
  %ok1 = fcmp oeq double %dx, 1.200000e+01
  %ok2 = fcmp oeq double %dold, 9.000000e+00
  ; forward mode: tangent 1 on x and 0.5 on the old node's value:
  ; 4x + 0.5 x^2 = 16.5
  call void @init(ptr @hdr2, ptr @node2, double 2.0)
  call void @init(ptr @thdr2, ptr @tnode2, double 0.5)
  %t = call double (...) @__enzyme_fwddiff(ptr @ins, metadata !"enzyme_dup", ptr @hdr2, ptr @thdr2, double 3.0, double 1.0)
  %ok3 = fcmp oeq double %t, 1.650000e+01
  %ok12 = and i1 %ok1, %ok2
  %ok = and i1 %ok12, %ok3
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
