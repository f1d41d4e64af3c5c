/* Run test: flash attention with the accumulator rescaled in place (see flash_inplace.tk). */
#include "flash_inplace.h"
#include "tkt.h"
#define ATT_D 128
#define ATT_CAUSAL 0
#define ATT_RELPOS 0
#define ATT_HALF_ONLY 1
#include "attention_check.h"

int main(void)
{
    return att_main("flash_inplace");
}
