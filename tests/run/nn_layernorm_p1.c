/* Run test: stdlib/nn.tk layernorm_f16, BLOCK=128 PASSES=1 (see nn_layernorm_p1.tk). */
#include "nn_layernorm_p1.h"
#include "tkt.h"
#define LN_BLOCK 128
#define LN_PASSES 1
#include "nn_layernorm_check.h"

int main(void)
{
    return ln_main("nn_layernorm_p1");
}
