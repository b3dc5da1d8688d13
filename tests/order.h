/*
 * order.h - every test binary runs its tests in a shuffled order, so no test
 * can lean on what another one left behind (issue 21).
 *
 * order_run_group_tests(tests, setup, teardown) stands in for cmocka's
 * cmocka_run_group_tests and takes the same arguments. The order comes from
 * env CAIRN_TEST_SEED (a decimal number) or, when that is unset, from a
 * fresh random seed; either way the binary prints `test order seed: N`
 * before its first test, so `CAIRN_TEST_SEED=N` runs a failing order again.
 * Group setup and teardown still run once, around the whole group.
 *
 * Include after the cmocka prelude (stdarg.h, stddef.h, setjmp.h, stdint.h,
 * cmocka.h).
 */
#ifndef TESTS_ORDER_H
#define TESTS_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define order_run_group_tests(group_tests, group_setup, group_teardown)                            \
  order_run_group(#group_tests, group_tests, sizeof(group_tests) / sizeof((group_tests)[0]),       \
                  group_setup, group_teardown)

#define order_run_group_tests_name(group_name, group_tests, group_setup, group_teardown)           \
  order_run_group(group_name, group_tests, sizeof(group_tests) / sizeof((group_tests)[0]),         \
                  group_setup, group_teardown)

/* Run tests[0..n) (borrowed; the array itself is left as it is) in the
 * shuffled order, as cmocka's _cmocka_run_group_tests would run them.
 * Returns what cmocka returns: the number of failed tests, or 1 when
 * CAIRN_TEST_SEED is not a number or memory runs out. */
int order_run_group(const char *group_name, const struct CMUnitTest *tests, size_t n,
                    CMFixtureFunction group_setup, CMFixtureFunction group_teardown);

/* The seed this process shuffles with: CAIRN_TEST_SEED's, or a random one
 * drawn on the first call. False when CAIRN_TEST_SEED is not a number. */
bool order_seed(uint64_t *seed);

#endif
