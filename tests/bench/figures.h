/*
 * figures.h - how a bench states a figure: a sentence for people, with the
 * target the speed issue (22) sets beside it and whether it is met, and one
 * line for scripts,
 *
 *   figure <key> <value> <higher|lower>
 *
 * (which way is better), that tests/bench/compare.sh reads from the history
 * to call out a figure more than 20% worse than in the run before. Keys are
 * stable (dotted, lower case, no spaces): renaming one starts its history
 * over. A bench reports a target as "met" or "NOT met"; it never fails on
 * one, since wall-clock figures on a shared machine are not assertions.
 */
#ifndef TESTS_BENCH_FIGURES_H
#define TESTS_BENCH_FIGURES_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

enum figure_better { FIGURE_HIGHER, FIGURE_LOWER };

/* The CPU time (all threads, user + system) process `pid` has used so far,
 * in ms, to the ns: a figure of some thousand moves is a few hundred ms of
 * CPU, which /proc's 10 ms ticks would blur. 0 when it cannot be read.
 * What a bench divides by the work done to state a cost per request or
 * per move. */
static inline double figure_cpu_ms(pid_t pid)
{
  struct timespec ts;
  clockid_t clock;

  if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &ts) != 0)
    return 0.0;
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Print the figure line for `value` under the key made from `key_fmt`. */
static inline void figure(enum figure_better better, double value, const char *key_fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline void figure(enum figure_better better, double value, const char *key_fmt, ...)
{
  char key[160];
  va_list ap;

  va_start(ap, key_fmt);
  vsnprintf(key, sizeof key, key_fmt, ap);
  va_end(ap);
  /* Four significant digits are plenty to see a 20% change; large counts
   * stay whole numbers, never exponents, so awk reads them as written. */
  if (value >= 1000 || value <= -1000)
    printf("figure %s %.0f %s\n", key, value, better == FIGURE_HIGHER ? "higher" : "lower");
  else
    printf("figure %s %.4g %s\n", key, value, better == FIGURE_HIGHER ? "higher" : "lower");
}

/* The word printed after a target. */
static inline const char *figure_verdict(bool met)
{
  return met ? "met" : "NOT met";
}

#endif
