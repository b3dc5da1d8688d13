/*
 * later.c - answers that come later (struct api_later, api.h): parking a
 * connection while work it started finishes elsewhere, answering it on a
 * finishing thread once the work is done, and waking the connection so
 * its own thread sends the answer. A move's group commit is the one user:
 * its connection waits on no thread while the fsync is under way (issue 22).
 *
 * Why finishing threads: a parked move holds its game's lock until its
 * answer is written, and the thread that owns the move's connection may
 * meanwhile be blocked waiting for that same lock (another request on the
 * game, from a connection of the same thread): answering there would
 * deadlock. The finishing threads wait on nothing a polling thread holds.
 *
 * One lock orders the two ends: the handler's thread parks (suspends) the
 * connection only if the answer is not ready yet, and the finisher resumes
 * it only once it is parked, so neither a resume before the suspend nor a
 * connection left suspended for ever can happen.
 */
#include "server.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

/* Two: a move's answer is a view to render, and this machine class has
 * two cores; one thread left the commit's follow-ups queued behind one
 * another's renders. */
#define FINISHING_THREADS 2

struct api_finisher {
  pthread_mutex_t lock;
  pthread_cond_t queued;
  struct api_later *queue, **tail; /* FIFO of laters whose work is done */
  bool stopping;
  pthread_t threads[FINISHING_THREADS];
  int started;
};

/* Orders parking against answering (see above); held for a few
 * instructions: libmicrohttpd's resume only flags the connection. */
static pthread_mutex_t park_lock = PTHREAD_MUTEX_INITIALIZER;

/* Answer `later` (its work is done) and wake its connection if parked. */
static void answer_now(struct api_later *later)
{
  bool wake;

  later->st = later->answer(later, &later->resp, &later->err);
  pthread_mutex_lock(&park_lock);
  later->answered = true;
  wake = later->parked;
  later->parked = false;
  /* Once resumed, the connection's thread may send the answer and free
   * `later`: nothing of it is touched after this. */
  if (wake)
    MHD_resume_connection(later->conn);
  pthread_mutex_unlock(&park_lock);
}

static void *finish_forever(void *arg)
{
  struct api_finisher *f = arg;

  pthread_mutex_lock(&f->lock);
  for (;;) {
    struct api_later *later;

    while (!f->queue && !f->stopping)
      pthread_cond_wait(&f->queued, &f->lock);
    if (!f->queue)
      break;
    later = f->queue;
    f->queue = later->next;
    if (!f->queue)
      f->tail = &f->queue;
    pthread_mutex_unlock(&f->lock);
    answer_now(later);
    pthread_mutex_lock(&f->lock);
  }
  pthread_mutex_unlock(&f->lock);
  return NULL;
}

struct api_finisher *api_finisher_new(void)
{
  struct api_finisher *f = calloc(1, sizeof(*f));

  if (!f)
    return NULL;
  pthread_mutex_init(&f->lock, NULL);
  pthread_cond_init(&f->queued, NULL);
  f->tail = &f->queue;
  for (; f->started < FINISHING_THREADS; f->started++)
    if (pthread_create(&f->threads[f->started], NULL, finish_forever, f) != 0)
      break;
  if (f->started == 0) {
    api_finisher_free(f);
    return NULL;
  }
  return f;
}

void api_finisher_stop(struct api_finisher *f)
{
  if (!f)
    return;
  pthread_mutex_lock(&f->lock);
  f->stopping = true;
  pthread_cond_broadcast(&f->queued);
  pthread_mutex_unlock(&f->lock);
  for (int i = 0; i < f->started; i++)
    pthread_join(f->threads[i], NULL);
  f->started = 0;
}

void api_finisher_free(struct api_finisher *f)
{
  if (!f)
    return;
  api_finisher_stop(f);
  pthread_cond_destroy(&f->queued);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

void api_later_done(struct api_later *later)
{
  struct api_finisher *f = later->server ? later->server->finisher : NULL;

  if (!f) { /* no finishing threads (a server that never started) */
    answer_now(later);
    return;
  }
  pthread_mutex_lock(&f->lock);
  if (f->stopping) {
    pthread_mutex_unlock(&f->lock);
    answer_now(later);
    return;
  }
  later->next = NULL;
  *f->tail = later;
  f->tail = &later->next;
  pthread_cond_signal(&f->queued);
  pthread_mutex_unlock(&f->lock);
}

bool api_later_park(struct api_server *server, struct MHD_Connection *conn, struct api_later *later)
{
  bool parked = false;

  pthread_mutex_lock(&park_lock);
  if (!later->answered) {
    later->conn = conn;
    later->parked = parked = true;
    atomic_fetch_add(&server->laters_parked, 1);
    MHD_suspend_connection(conn);
  }
  pthread_mutex_unlock(&park_lock);
  return parked;
}

void api_later_answered(struct api_server *server)
{
  atomic_fetch_sub(&server->laters_parked, 1);
}

void api_later_forget(struct api_later *later)
{
  struct api_server *server = later->server;
  struct timespec pause = {.tv_nsec = 1000 * 1000};
  bool answered = false;

  /* Only a connection that ended while its work was under way lands here;
   * the work (a commit) is milliseconds from answered. */
  while (!answered) {
    pthread_mutex_lock(&park_lock);
    answered = later->answered;
    pthread_mutex_unlock(&park_lock);
    if (!answered)
      nanosleep(&pause, NULL);
  }
  api_response_clear(&later->resp);
  later->release(later);
  api_later_answered(server);
}

bool api_server_settled(const struct api_server *server)
{
  return atomic_load(&server->laters_parked) == 0;
}
