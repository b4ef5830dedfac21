// std-map.cpp under the address sanitizer: the shadow nodes a derivative
// links into a container of the caller's are owned and freed by the
// caller's shadow container, once, and nothing is used after the
// derivative freed it. Leaks are not checked: shadows of forward mode's
// local hashtables may leak.
// REQUIRES: asan
// RUN: %ltclangxx -O1 -fsanitize=address %S/std-map.cpp -o %t -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t
