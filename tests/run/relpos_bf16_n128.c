/* Run test: sdpa_relpos_bf16 with BLOCK_N = 128 (see relpos_bf16_n128.tk). */
#include "relpos_bf16_n128.h"
#include "relpos_check.h"
