/* compile_time RUNS CMD [ARGS...]: runs CMD RUNS times (plus one warm-up) and
 * prints the median wall time in milliseconds.  Exits 1 if any run fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + 1e-6 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int run_once(char **argv)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: compile_time RUNS CMD [ARGS...]\n");
        return 2;
    }
    int runs = atoi(argv[1]);
    if (runs < 1 || runs > 1000)
        runs = 11;
    double *t = malloc(sizeof(double) * (size_t)runs);
    if (!t || run_once(argv + 2) != 0)
        return 1;
    for (int i = 0; i < runs; i++) {
        double t0 = now_ms();
        if (run_once(argv + 2) != 0)
            return 1;
        t[i] = now_ms() - t0;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp);
    printf("%.2f\n", runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]));
    free(t);
    return 0;
}
