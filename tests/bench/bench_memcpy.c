/* bench_memcpy BYTES: the memory-bandwidth rival for the row-wise kernels.
 * Copies BYTES from one buffer to another: with memcpy on one thread, and with
 * an OpenMP loop giving each thread a contiguous slice to memcpy.  Prints
 *     best_GBps parallel_GBps single_GBps
 * counting 2*BYTES per copy (read + write), as the kernel benchmarks count
 * their bytes. */
#include "bench.h"

/* Each thread copies one contiguous slice. */
static void parallel_copy(void *dst, const void *src, size_t bytes)
{
    int nt = bench_threads();
#pragma omp parallel for schedule(static)
    for (int t = 0; t < nt; t++) {
        size_t lo = bytes / (size_t)nt * (size_t)t;
        size_t hi = t == nt - 1 ? bytes : bytes / (size_t)nt * (size_t)(t + 1);
        memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
    }
}

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : (size_t)1 << 27;
    size_t n = bytes / sizeof(float);
    float *src = bench_alloc(bytes), *dst = bench_alloc(bytes);
    bench_fill(src, (int64_t)n, 1, -1, 1);
    bench_fill(dst, (int64_t)n, 2, -1, 1);

    double tp, ts;
    BENCH_TIME(tp, 2, 11, parallel_copy(dst, src, bytes));
    BENCH_TIME(ts, 1, 7, memcpy(dst, src, bytes));
    if (memcmp(dst, src, bytes) != 0) {
        fprintf(stderr, "bench_memcpy: copy mismatch\n");
        return 1;
    }
    double gp = 2.0 * (double)bytes / tp * 1e-9, gs = 2.0 * (double)bytes / ts * 1e-9;
    printf("%.3f %.3f %.3f\n", gp > gs ? gp : gs, gp, gs);
    free(src);
    free(dst);
    return 0;
}
