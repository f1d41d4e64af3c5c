/*
 * targets/nvptx/none.c — the nvptx target when tkc is built without LLVM 19
 * (the Makefile compiles this file instead of the others): it only says so.
 */
#include "nvptx.h"

static const char why[] =
    "tkc was built without LLVM, so --target=nvptx (and --codegen=llvm, --emit=llvm) are not "
    "available: install LLVM 19 (make deps, or apt-get install llvm-19-dev) and rebuild tkc";

const char *nvptx_unavailable(void)
{
    return why;
}

bool nvptx_compile(Arena *a, TirKernel **ks, int n, CudaKernel *ck, const char *arch, char **ir,
                   CudaBinary *bin, Diag *d)
{
    diag_error(d, (Span){0}, "%s", why);
    return false;
}

bool nvptx_compile_pir(Arena *a, PirFunc **fs, int n, CudaKernel *ck, const char *arch, char **ir,
                       CudaBinary *bin, Diag *d)
{
    diag_error(d, (Span){0}, "%s", why);
    return false;
}
