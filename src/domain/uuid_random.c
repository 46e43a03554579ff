/*
 * Version 4 UUIDs from the kernel's random source, 256 at a time.
 *
 * libuuid's uuid_generate_random() makes a getrandom() call and reseeds a
 * second generator for every UUID, and uuid_unparse_lower() formats with
 * sprintf; `check` makes one per verdict, and that was a tenth of its
 * instructions.  Taking the same kernel bytes in 4 KiB
 * draws keeps them exactly as random.  countersign is single-threaded,
 * but the service forks a child per request: a pool filled before a fork
 * would hand every child the same bytes, and so the same decision ids,
 * so a child starts with an empty pool (pthread_atfork).
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <pthread.h>
#include <sys/random.h>
#include <uuid/uuid.h>

#include "uuid_random.h"

static unsigned char pool[4096];
static size_t pool_left;
static bool pool_forgotten_at_fork;

/* In a child after fork(): the parent's bytes are never used again. */
static void
pool_forget(void)
{
	memset(pool, 0, sizeof pool);
	pool_left = 0;
}

/* Fills the pool; false if the kernel would not. */
static bool
pool_fill(void)
{
	size_t done = 0;
	ssize_t n;

	while (done < sizeof pool) {
		n = getrandom(pool + done, sizeof pool - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	pool_left = sizeof pool;
	if (!pool_forgotten_at_fork)
		pool_forgotten_at_fork = pthread_atfork(NULL, NULL,
		    pool_forget) == 0;
	return true;
}

void
uuid_random(char out[UUID_TEXT_SIZE])
{
	static const char digits[] = "0123456789abcdef";
	uuid_t uuid;
	size_t i;

	if (pool_left < sizeof uuid && !pool_fill()) {
		uuid_generate_random(uuid);
	} else {
		pool_left -= sizeof uuid;
		memcpy(uuid, pool + pool_left, sizeof uuid);
		/* Used once: no copy of it stays behind. */
		memset(pool + pool_left, 0, sizeof uuid);
		uuid[6] = (unsigned char)((uuid[6] & 0x0f) | 0x40);
		uuid[8] = (unsigned char)((uuid[8] & 0x3f) | 0x80);
	}
	/* uuid_unparse_lower() goes through sprintf: as costly as the rest. */
	for (i = 0; i < sizeof uuid; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*out++ = '-';
		*out++ = digits[uuid[i] >> 4];
		*out++ = digits[uuid[i] & 0x0f];
	}
	*out = '\0';
}
