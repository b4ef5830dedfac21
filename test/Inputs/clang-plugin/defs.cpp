// defs.cpp: a definition test/ClangPlugin/cpp-attributes.cpp declares
// [[enzyme::inactive]] and uses (no attribute here).
namespace ext {
int calls;
double scale(double v) {
  calls++;
  return 4.0 * v * v;
}
} // namespace ext
