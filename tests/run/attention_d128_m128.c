/* Run test: stdlib/attention.tk with D = 128 (BLOCK_M=128; see attention_d128_m128.tk). */
#include "attention_d128_m128.h"
#include "tkt.h"
#define ATT_D 128
#define ATT_CAUSAL 0
#define ATT_RELPOS 0
#define ATT_LONG 1
#include "attention_check.h"

int main(void)
{
    return att_main("attention_d128_m128");
}
