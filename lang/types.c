/*
 * lang/types.c — the element-type table and operator spellings.
 */
#include <string.h>

#include "lang.h"

const DTypeInfo dtype_info[DT_COUNT] = {
#define X(e, name, st, ct, bits, fl, sg) {name, st, ct, bits, fl, sg},
    TK_DTYPES(X)
#undef X
};

bool dtype_from_name(const char *name, DType *out)
{
    for (int i = 0; i < DT_COUNT; i++) {
        if (strcmp(dtype_info[i].name, name) == 0) {
            *out = (DType)i;
            return true;
        }
    }
    return false;
}

const char *const binop_str[B_COUNT] = {
    "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=",
    "&&", "||", "&", "|", "^", "<<", ">>",
};

const char *const unop_str[U_COUNT] = { "-", "!", "~" };
