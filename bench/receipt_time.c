/*
 * The receipt of a record picked at random, R times, in one warm process
 * (issue 32): the time store_log_receipt() takes, without the program's
 * start, which on this machine alone costs more than the 10 ms target.
 *
 *   receipt_time DB R      (prints the median and the slowest, in ms)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "store.h"
#include "store_log.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	struct audit_head head;
	struct store *s;
	struct error err;
	double *ms;
	char *text;
	long r, i;

	if (argc != 3 || (r = atol(argv[2])) <= 0)
		return 2;
	store_library_init();
	if (store_open(argv[1], STORE_EXISTING, &s, &err) != 0 ||
	    store_audit_head(s, &head, &err) != 0) {
		fprintf(stderr, "receipt_time: %s\n", err.message);
		return 1;
	}
	if ((ms = calloc((size_t)r, sizeof *ms)) == NULL)
		return 1;
	srandom(32);
	for (i = 0; i < r; i++) {
		long long seq = 1 + random() % head.seq;
		double t0 = now_ms();

		if (store_log_receipt(s, seq, &text, &err) != 0) {
			fprintf(stderr, "receipt_time: %s\n", err.message);
			return 1;
		}
		ms[i] = now_ms() - t0;
		free(text);
	}
	qsort(ms, (size_t)r, sizeof *ms, by_value);
	printf("%ld receipts of random records of %lld: median %.3f ms, "
	    "slowest %.3f ms\n", r, head.seq, ms[r / 2], ms[r - 1]);
	store_close(s);
	free(ms);
	return 0;
}
