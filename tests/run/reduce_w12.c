/* Run test: reduce.c's checks on reduce.tk's kernels built with
 * -D warps=12 (see reduce_w12.tk). */
#define REDUCE_NAME "reduce_w12"
#include "reduce_w12.h"
#include "reduce.c"
