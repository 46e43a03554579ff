/*
 * Unit tests for src/commands/xmalloc.c: what the display allocators
 * return is never NULL, and a failed allocation ends the program with
 * "countersign: out of memory" and status 4, after the terminal was
 * given back, instead of showing an empty string.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "exit_codes.h"
#include "xmalloc.h"

static void
restore_says_so(void)
{
	static const char said[] = "terminal given back\n";

	if (write(STDERR_FILENO, said, sizeof said - 1) < 0)
		_exit(99);
}

/*
 * Runs xcheck(NULL), as a failed allocation does, in a child whose
 * stderr is a pipe; returns its exit status, what it wrote in out.
 */
static int
failed_allocation(bool with_restore, char *out, size_t size)
{
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		xmalloc_on_failure(with_restore ? restore_says_so : NULL);
		(void)xcheck(NULL);
		_exit(98);	/* xcheck must not return */
	}
	close(fds[1]);
	while ((size_t)got < size - 1 &&
	    (n = read(fds[0], out + got, size - 1 - (size_t)got)) > 0)
		got += n;
	out[got] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void
test_failure_ends_with_message_and_status_4(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(failed_allocation(false, out, sizeof out),
	    EXIT_STORAGE);
	assert_string_equal(out, "countersign: out of memory\n");
}

static void
test_failure_gives_terminal_back_first(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(failed_allocation(true, out, sizeof out),
	    EXIT_STORAGE);
	assert_string_equal(out, "terminal given back\n"
	    "countersign: out of memory\n");
}

static void
test_allocators_return_what_was_asked(void **state)
{
	char *s, *big;
	unsigned char *zeros;
	size_t i;

	(void)state;
	s = xasprintf("%s %d", "seq", 42);
	assert_string_equal(s, "seq 42");
	free(s);
	/* A missing field shows as nothing, not as a crash. */
	s = xstrdup(NULL);
	assert_string_equal(s, "");
	free(s);
	s = xstrdup("abc");
	assert_string_equal(s, "abc");
	free(s);
	/* The sanitizer's escapes, as sanitize_str() gives them. */
	s = xsanitize("a\x1b[2Jb");
	assert_string_equal(s, "a\\e[2Jb");
	free(s);
	s = xsanitize(NULL);
	assert_string_equal(s, "");
	free(s);
	zeros = xcalloc(16, 1);
	for (i = 0; i < 16; i++)
		assert_int_equal(zeros[i], 0);
	free(zeros);
	big = xmalloc(0);
	assert_non_null(big);
	big = xrealloc(big, 4096);
	memset(big, 'x', 4096);
	free(big);
	s = xcheck(xstrdup("kept"));
	assert_string_equal(s, "kept");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failure_ends_with_message_and_status_4),
		cmocka_unit_test(test_failure_gives_terminal_back_first),
		cmocka_unit_test(test_allocators_return_what_was_asked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
