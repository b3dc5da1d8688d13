/*
 * rss.h - the server's resident memory, for the API tests that bound it:
 * VmRSS now, and its peak while something runs (sampled on a thread of
 * its own).
 */
#ifndef CAIRN_TESTS_API_RSS_H
#define CAIRN_TESTS_API_RSS_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

/* Under AddressSanitizer a server keeps up to 256 MB of freed memory in
 * quarantine, which would measure ASan rather than the server: the
 * servers started after this (their environment is ours) get none. Call
 * from main() before the tests. */
void rss_without_asan_quarantine(void);

/* VmRSS of process `pid` in KiB (/proc/PID/status), -1 when unreadable. */
long rss_kb(pid_t pid);

struct rss_sampler {
  pid_t pid;
  volatile bool stop;
  long peak_kb; /* the highest VmRSS seen */
  pthread_t thread;
};

/* Start sampling `pid`'s VmRSS every 2 ms; the peak starts at VmRSS now,
 * which it returns (fails the test when unreadable). Stop it before any
 * assertion that may fail: the sampler reads `m`, in the caller's frame. */
long rss_sampler_start(struct rss_sampler *m, pid_t pid);
/* Stop sampling and join the sampler: the peak seen. */
long rss_sampler_stop(struct rss_sampler *m);

#endif
