/*
 * lang/timing.c — the stage times of `tkc --time` (lang/timing.h).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "timing.h"

#define MAX_STAGES 32

static struct {
    const char *name;
    int runs;
    double wall, cpu;
} stages[MAX_STAGES];
static int nstages;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int on = -1;             /* -1: TKC_TIME not read yet */
static double start_wall, start_cpu;

double tk_wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

double tk_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    struct rusage r;
    getrusage(RUSAGE_CHILDREN, &r);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6 + (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e3 +
           (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e3;
}

void tk_time_enable(void)
{
    on = 1;
    start_wall = tk_wall_ms();
    start_cpu = tk_cpu_ms();
}

bool tk_time_on(void)
{
    if (on < 0) {               /* first asked on the main thread, before any other */
        const char *e = getenv("TKC_TIME");
        if (e && !strcmp(e, "1"))
            tk_time_enable();
        else
            on = 0;
    }
    return on > 0;
}

TkTimer tk_timer(void)
{
    if (!tk_time_on())
        return (TkTimer){ -1, 0 };
    return (TkTimer){ tk_wall_ms(), tk_cpu_ms() };
}

void tk_time_add(const char *stage, double wall_ms, double cpu_ms)
{
    if (!tk_time_on())
        return;
    pthread_mutex_lock(&lock);
    int i = 0;
    while (i < nstages && strcmp(stages[i].name, stage))
        i++;
    if (i < MAX_STAGES) {
        if (i == nstages)
            stages[nstages++].name = stage;
        stages[i].runs++;
        stages[i].wall += wall_ms;
        stages[i].cpu += cpu_ms;
    }
    pthread_mutex_unlock(&lock);
}

void tk_timer_end(TkTimer *t, const char *stage)
{
    if (t->wall < 0)
        return;
    tk_time_add(stage, tk_wall_ms() - t->wall, tk_cpu_ms() - t->cpu);
    t->wall = -1;
}

void tk_time_report(FILE *f)
{
    if (!tk_time_on())
        return;
    fprintf(f, "tkc --time (ms; cpu: all of tkc's threads and of the programs it ran)\n");
    fprintf(f, "  %-34s %5s %10s %10s\n", "stage", "runs", "wall", "cpu");
    for (int i = 0; i < nstages; i++)
        if (stages[i].cpu < 0)    /* a part another stage's cpu includes */
            fprintf(f, "  %-34s %5d %10.1f %10s\n", stages[i].name, stages[i].runs, stages[i].wall, "-");
        else
            fprintf(f, "  %-34s %5d %10.1f %10.1f\n", stages[i].name, stages[i].runs, stages[i].wall,
                    stages[i].cpu);
    fprintf(f, "  %-34s %5s %10.1f %10.1f\n", "total", "", tk_wall_ms() - start_wall, tk_cpu_ms() - start_cpu);
}
