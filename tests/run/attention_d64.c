/* Run test: stdlib/attention.tk with D = 64 (see attention_d64.tk). */
#include "attention_d64.h"
#include "tkt.h"
#define ATT_D 64
#define ATT_CAUSAL 0
#define ATT_RELPOS 1
#define ATT_LONG 1
#include "attention_check.h"

int main(void)
{
    return att_main("attention_d64");
}
