/*
 * rss.c - the server's resident memory for the API tests (rss.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rss.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

long rss_kb(pid_t pid)
{
  static const char field[] = "VmRSS:";
  char path[64], line[256];
  long kb = -1;
  FILE *f;

  snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
  f = fopen(path, "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof(line), f))
    if (strncmp(line, field, sizeof(field) - 1) == 0)
      kb = strtol(line + sizeof(field) - 1, NULL, 10);
  fclose(f);
  return kb;
}

void rss_without_asan_quarantine(void)
{
  const char *asan = getenv("ASAN_OPTIONS");
  char options[512];

  snprintf(options, sizeof(options), "%s%squarantine_size_mb=0", asan ? asan : "",
           asan && *asan ? ":" : "");
  setenv("ASAN_OPTIONS", options, 1);
}

static void *sample(void *arg)
{
  struct rss_sampler *m = arg;
  struct timespec pause = {0, 2 * 1000 * 1000};

  while (!m->stop) {
    long kb = rss_kb(m->pid);

    if (kb > m->peak_kb)
      m->peak_kb = kb;
    nanosleep(&pause, NULL); /* the sampling period of the measurement, not a wait */
  }
  return NULL;
}

long rss_sampler_start(struct rss_sampler *m, pid_t pid)
{
  memset(m, 0, sizeof(*m));
  m->pid = pid;
  m->peak_kb = rss_kb(pid);
  assert_true(m->peak_kb > 0);
  assert_int_equal(pthread_create(&m->thread, NULL, sample, m), 0);
  return m->peak_kb;
}

long rss_sampler_stop(struct rss_sampler *m)
{
  m->stop = true;
  pthread_join(m->thread, NULL);
  return m->peak_kb;
}
