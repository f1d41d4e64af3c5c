/*
 * lang/timing.h — `tkc --time` (or TKC_TIME=1): where a compilation's time
 * goes, stage by stage, printed to stderr at the end.
 *
 * A stage is timed by a TkTimer around it; its wall clock and the CPU time
 * of the whole process (every thread) and of the programs it waited for
 * (ptxas) accumulate under the stage's name, with a count of how often it
 * ran.  Stages that run inside another (the NVRTC compiles of --max-autotune
 * inside its tuning) are counted in both, so the report lists them without
 * a sum; "total" is the process's.  Thread-safe: stages may end on any
 * thread.  Off, a timer costs one test of a flag.
 */
#ifndef TKC_TIMING_H
#define TKC_TIMING_H

#include <stdbool.h>
#include <stdio.h>

typedef struct TkTimer {
    double wall, cpu;        /* at the start, ms; wall < 0: timing is off */
} TkTimer;

void tk_time_enable(void);                  /* --time; TKC_TIME=1 turns it on too */
bool tk_time_on(void);
double tk_wall_ms(void);                    /* monotonic clock, ms */
TkTimer tk_timer(void);
void tk_timer_end(TkTimer *t, const char *stage);
/* a stage measured elsewhere (LLVM's steps inside one call) */
void tk_time_add(const char *stage, double wall_ms, double cpu_ms);
double tk_cpu_ms(void);                     /* process + waited-for children, ms */
void tk_time_report(FILE *f);

#endif
