/*
 * Unit tests for src/domain/uuid_random.c: every UUID is a well-formed
 * version 4 UUID, and none repeats across several refills of the pool.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "uuid_random.h"

#define DRAWS 5000	/* the pool holds 256: about twenty refills */

static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static void
assert_version_4(const char *uuid)
{
	size_t i;

	assert_int_equal(strlen(uuid), 36);
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			assert_int_equal(uuid[i], '-');
		else if (!is_hex(uuid[i]))
			fail_msg("%s: not lower-case hex at %zu", uuid, i);
	}
	assert_int_equal(uuid[14], '4');
	assert_non_null(strchr("89ab", uuid[19]));
}

static int
compare(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void
test_well_formed_and_distinct(void **state)
{
	char (*all)[UUID_TEXT_SIZE] = calloc(DRAWS, UUID_TEXT_SIZE);
	size_t i;

	(void)state;
	assert_non_null(all);
	for (i = 0; i < DRAWS; i++) {
		uuid_random(all[i]);
		assert_version_4(all[i]);
	}
	qsort(all, DRAWS, UUID_TEXT_SIZE, compare);
	for (i = 1; i < DRAWS; i++)
		if (strcmp(all[i - 1], all[i]) == 0)
			fail_msg("%s drawn twice", all[i]);
	free(all);
}

/*
 * The service forks a child per request after its parent has drawn: the
 * child's next UUID must not be the parent's next (the same pool bytes).
 */
static void
test_fork_draws_anew(void **state)
{
	char parent[UUID_TEXT_SIZE], child[UUID_TEXT_SIZE] = "";
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	(void)state;
	uuid_random(parent);	/* the pool is filled, and most of it left */
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uuid_random(child);
		_exit(write(fds[1], child, UUID_TEXT_SIZE) == UUID_TEXT_SIZE ?
		    0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], child, UUID_TEXT_SIZE);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(n, UUID_TEXT_SIZE);
	uuid_random(parent);
	assert_version_4(child);
	assert_string_not_equal(parent, child);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_well_formed_and_distinct),
		cmocka_unit_test(test_fork_draws_anew),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
