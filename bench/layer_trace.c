/*===- layer_trace.c - Per-operator time of a generated program -----------===*
 *
 * Linked by bench/layers.sh into the host program `accelgen compile --main`
 * writes, between main.c and the model: main.c is compiled with
 * -Dmodel_reset=bench_main_reset -Dmodel_trace=bench_main_trace and model.c
 * with -DMODEL_TRACE, so every timed run (`--repeat N`) starts here and the
 * model reports the end of each operator here. An operator's time is the
 * time since the previous operator ended (for the first, since the run
 * started). At exit prints `op INDEX MEAN_US` per operator over the runs.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 199309L
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_OPS 4096

static double op_us[MAX_OPS];
static long runs;
static double last_us;

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void report(void) {
  int i;
  for (i = 0; i < MAX_OPS; ++i)
    if (runs > 0 && op_us[i] > 0)
      printf("op %d %.2f\n", i, op_us[i] / (double)runs);
}

void bench_main_reset(void) {
  if (runs == 0)
    atexit(report);
  ++runs;
  model_reset();
  last_us = now_us();
}

void model_trace(int32_t op, int32_t tensor, const void *data, size_t bytes) {
  const double t = now_us();
  (void)tensor;
  (void)data;
  (void)bytes;
  if (runs > 0 && op >= 0 && op < MAX_OPS)
    op_us[op] += t - last_us;
  last_us = now_us();
}
