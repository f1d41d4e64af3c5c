/* Run test: sdpa_relpos_bf16 at head dim 128 (see relpos_bf16_d128.tk). */
#define D 128
#include "relpos_bf16_d128.h"
#include "relpos_check.h"
