/* Run test: sdpa_relpos_bf16 with BLOCK_N = 32 (see relpos_bf16_n32.tk). */
#include "relpos_bf16_n32.h"
#include "relpos_check.h"
