/*
 * Free lists for cJSON's nodes and strings.
 *
 * A re-check builds and deletes several trees of a few hundred small
 * blocks each, and SQLite's and the output's larger buffers come and go
 * in between.  Every such large malloc makes glibc consolidate the small
 * chunks freed so far, so that malloc and free were 40% of a `check`.
 * Here freed blocks of up to 256 bytes wait on a list of their size and
 * are handed out again as they are; larger ones go back to malloc.  The
 * lists only grow to the most that was live at once.
 *
 * Under AddressSanitizer the lists are not used: a block reused at once
 * would hide exactly the use-after-free ASan is there to find.  Each
 * block still sits behind a header there, so that text cJSON made and
 * free() gets instead of cJSON_free() fails under ASan as it fails in
 * the program (where it aborted a decision once, in json_writer.c).
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <cjson/cJSON.h>

#include "json_memory.h"

#if defined(__SANITIZE_ADDRESS__)
#define POOL_DISABLED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_DISABLED 1
#endif
#endif

#ifndef POOL_DISABLED

#define CLASS_BYTES 16
#define CLASS_COUNT 16		/* blocks of 16, 32, ... 256 bytes */

/* In front of every block: its size class, 0 for one from malloc. */
union header {
	size_t size_class;
	max_align_t align;
};

/* A free block's first bytes point at the next free block. */
static union header *free_lists[CLASS_COUNT + 1];

static void *
pool_malloc(size_t size)
{
	size_t size_class = size == 0 ? 1 :
	    (size + CLASS_BYTES - 1) / CLASS_BYTES;
	union header *block;

	if (size_class > CLASS_COUNT) {
		if (size > (size_t)-1 - sizeof *block)
			return NULL;
		if ((block = malloc(sizeof *block + size)) == NULL)
			return NULL;
		block->size_class = 0;
		return block + 1;
	}
	if ((block = free_lists[size_class]) != NULL) {
		free_lists[size_class] = *(union header **)(void *)(block + 1);
		return block + 1;
	}
	if ((block = malloc(sizeof *block + size_class * CLASS_BYTES)) ==
	    NULL)
		return NULL;
	block->size_class = size_class;
	return block + 1;
}

static void
pool_free(void *pointer)
{
	union header *block;

	if (pointer == NULL)
		return;
	block = (union header *)pointer - 1;
	if (block->size_class == 0) {
		free(block);
		return;
	}
	*(union header **)pointer = free_lists[block->size_class];
	free_lists[block->size_class] = block;
}

void
json_memory_init(void)
{
	cJSON_Hooks hooks = { pool_malloc, pool_free };

	cJSON_InitHooks(&hooks);
}

#else

/* Keeps what follows as aligned as malloc's own blocks. */
union header {
	max_align_t align;
};

static void *
checked_malloc(size_t size)
{
	union header *block;

	if (size > (size_t)-1 - sizeof *block)
		return NULL;
	if ((block = malloc(sizeof *block + size)) == NULL)
		return NULL;
	return block + 1;
}

static void
checked_free(void *pointer)
{
	if (pointer != NULL)
		free((union header *)pointer - 1);
}

void
json_memory_init(void)
{
	cJSON_Hooks hooks = { checked_malloc, checked_free };

	cJSON_InitHooks(&hooks);
}

#endif
