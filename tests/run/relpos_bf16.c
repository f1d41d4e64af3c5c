/* Run test: sdpa_relpos_bf16 at its default blocks (see relpos_bf16.tk). */
#include "relpos_bf16.h"
#include "relpos_check.h"
