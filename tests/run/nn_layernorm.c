/* Run test: stdlib/nn.tk layernorm_f16, BLOCK=64 PASSES=0 (see nn_layernorm.tk). */
#include "nn_layernorm.h"
#include "tkt.h"
#define LN_BLOCK 64
#define LN_PASSES 0
#include "nn_layernorm_check.h"

int main(void)
{
    return ln_main("nn_layernorm");
}
