/* Run test: stdlib/attention.tk with D = 80, CAUSAL = true (see attention_d80_causal.tk). */
#include "attention_d80_causal.h"
#include "tkt.h"
#define ATT_D 80
#define ATT_CAUSAL 1
#define ATT_RELPOS 0
#include "attention_check.h"

int main(void)
{
    return att_main("attention_d80_causal");
}
