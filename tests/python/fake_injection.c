/* The injection library's Python-facing entry points and nothing else: lets
   the shim load "an injection" on a machine without CUDA, so tests can tell
   an installed shim from one that stayed out. */
#include <stdint.h>

void graphcheck_event(const char *JsonLine) { (void)JsonLine; }
void graphcheck_python_site(const char *Frame) { (void)Frame; }
int graphcheck_graph_memory(unsigned long long Addr) {
  (void)Addr;
  return 0;
}
int graphcheck_yield_cupti(const char *Site) {
  (void)Site;
  return 1;
}
