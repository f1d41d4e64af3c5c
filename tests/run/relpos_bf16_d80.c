/* Run test: sdpa_relpos_bf16 at head dim 80 (see relpos_bf16_d80.tk). */
#define D 80
#include "relpos_bf16_d80.h"
#include "relpos_check.h"
