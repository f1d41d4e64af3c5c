/* Run test: stdlib/nn.tk layernorm_f16, BLOCK=32 PASSES=3 (see nn_layernorm_p3.tk). */
#include "nn_layernorm_p3.h"
#include "tkt.h"
#define LN_BLOCK 32
#define LN_PASSES 3
#include "nn_layernorm_check.h"

int main(void)
{
    return ln_main("nn_layernorm_p3");
}
