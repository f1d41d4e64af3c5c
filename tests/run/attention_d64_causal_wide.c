/* Run test: stdlib/attention.tk with D = 64, CAUSAL = true, default block sizes (see attention_d64_causal_wide.tk). */
#include "attention_d64_causal_wide.h"
#include "tkt.h"
#define ATT_D 64
#define ATT_CAUSAL 1
#define ATT_RELPOS 0
#include "attention_check.h"

int main(void)
{
    return att_main("attention_d64_causal_wide");
}
