/* Run test: stdlib/attention.tk with D = 80 (see attention_d80.tk). */
#include "attention_d80.h"
#include "tkt.h"
#define ATT_D 80
#define ATT_CAUSAL 0
#define ATT_RELPOS 1
#include "attention_check.h"

int main(void)
{
    return att_main("attention_d80");
}
