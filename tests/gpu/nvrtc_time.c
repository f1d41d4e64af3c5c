/* tests/gpu/nvrtc_time.c — nvrtc_time FILE.cu... -- NVRTC-OPTIONS: each file
 * compiled once, in order, in one process; prints the wall ms of each
 * nvrtcCompileProgram (the first pays NVRTC's start-up; see nvrtc_time.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvrtc.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc(n + 1);
    if (s && fread(s, 1, n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

int main(int argc, char **argv)
{
    int sep = 1;
    while (sep < argc && strcmp(argv[sep], "--"))
        sep++;
    int nopt = sep < argc ? argc - sep - 1 : 0;
    for (int i = 1; i < sep; i++) {
        char *src = slurp(argv[i]);
        if (!src) {
            fprintf(stderr, "nvrtc_time: cannot read %s\n", argv[i]);
            return 1;
        }
        nvrtcProgram p;
        if (nvrtcCreateProgram(&p, src, argv[i], 0, NULL, NULL) != NVRTC_SUCCESS)
            return 1;
        double t = now_ms();
        nvrtcResult rc = nvrtcCompileProgram(p, nopt, (const char *const *)argv + sep + 1);
        printf("%-24s %7.1f ms%s\n", argv[i], now_ms() - t, rc == NVRTC_SUCCESS ? "" : "  (failed)");
        nvrtcDestroyProgram(&p);
        free(src);
    }
    return 0;
}
