/* tests/eco/dlpack_min.h — the DLPack declarations a tkc header uses, for
 * machines without <dlpack/dlpack.h> (Debian: libdlpack-dev).  The layout is
 * DLPack's ABI (unchanged from v0.5 to v1.x); DLPACK_VERSION tells tkc's
 * headers not to include dlpack.h themselves. */
#ifndef TKT_DLPACK_MIN_H
#define TKT_DLPACK_MIN_H
#include <stdint.h>

#define DLPACK_VERSION 60

typedef enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3 } DLDeviceType;
typedef struct { DLDeviceType device_type; int32_t device_id; } DLDevice;
typedef enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4 } DLDataTypeCode;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;            /* in elements; NULL: compact row-major */
    uint64_t byte_offset;
} DLTensor;
#endif
