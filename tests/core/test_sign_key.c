/*
 * test_sign_key.c - the export signing key file (api/sign.c) when several
 * nodes start at once on one shared folder (--key): every one of them must
 * end up with the same whole key, never half a file or a key of its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/sign.h"
#include "tests/order.h"

#define NODES 16

struct node {
  const char *path;
  pthread_barrier_t *start;
  struct api_sign_key key;
  enum cairn_status st;
};

static void *start_node(void *arg)
{
  struct node *n = arg;
  struct cairn_error err = {0};

  pthread_barrier_wait(n->start);
  n->st = api_sign_key_load(n->path, true, &n->key, &err);
  return NULL;
}

static void test_nodes_starting_at_once_share_one_whole_key(void **state)
{
  char dir[] = "/tmp/cairn-key-XXXXXX", path[64];
  struct node nodes[NODES];
  pthread_t threads[NODES];
  pthread_barrier_t start;
  struct stat st;

  (void)state;
  for (int round = 0; round < 20; round++) {
    snprintf(dir, sizeof dir, "/tmp/cairn-key-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/server.key", dir);
    pthread_barrier_init(&start, NULL, NODES);
    for (int i = 0; i < NODES; i++) {
      nodes[i] = (struct node){.path = path, .start = &start};
      assert_int_equal(pthread_create(&threads[i], NULL, start_node, &nodes[i]), 0);
    }
    for (int i = 0; i < NODES; i++)
      pthread_join(threads[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < NODES; i++) {
      assert_int_equal(nodes[i].st, CAIRN_OK);
      assert_memory_equal(nodes[i].key.pk, nodes[0].key.pk, sizeof(nodes[0].key.pk));
    }
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, sizeof(nodes[0].key.sk));
    assert_int_equal(st.st_mode & 0777, 0600);
    unlink(path);
    /* Nothing else is left in the folder: no half-made key. */
    assert_int_equal(rmdir(dir), 0);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nodes_starting_at_once_share_one_whole_key),
  };

  if (sodium_init() < 0)
    return 1;
  return order_run_group_tests_name("core/sign_key", tests, NULL, NULL);
}
