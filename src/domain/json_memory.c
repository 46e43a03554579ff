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
 * The one packet a re-check parses, reads and drops comes from a scratch
 * region instead (json_scratch_parse()): cut in order, let go at once,
 * with no walk over its blocks.
 *
 * Under AddressSanitizer neither the lists nor the region are used: a
 * block reused at once would hide exactly the use-after-free ASan is
 * there to find.  Each block still sits behind a header there, so that
 * text cJSON made and free() gets instead of cJSON_free() fails under
 * ASan as it fails in the program (where it aborted a decision once, in
 * json_writer.c).
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

/*
 * The scratch region of json_scratch_parse(): blocks are cut from it in
 * order while it fills, and all go at once when its tree is freed.
 */
#define SCRATCH_BYTES (256 * 1024)
_Static_assert((CLASS_BYTES & (CLASS_BYTES - 1)) == 0 &&
    CLASS_BYTES % _Alignof(max_align_t) == 0,
    "blocks cut from the region must stay aligned");
static char *scratch, *scratch_next;
static bool scratch_filling;	/* pool_malloc() cuts from the region */
static bool scratch_live;	/* a tree in the region is in use */
static bool scratch_spilled;	/* that tree also has blocks from the lists */

static bool
in_scratch(const void *pointer)
{
	uintptr_t at = (uintptr_t)pointer, start = (uintptr_t)scratch;

	return scratch != NULL && at >= start && at - start < SCRATCH_BYTES;
}

static void *
pool_malloc(size_t size)
{
	union header *block;
	size_t size_class, room, cut;

	if (scratch_filling) {
		room = (size_t)(scratch + SCRATCH_BYTES - scratch_next);
		/* Whole classes, as the lists cut them: still max_align_t. */
		cut = ((size == 0 ? 1 : size) + CLASS_BYTES - 1) &
		    ~(size_t)(CLASS_BYTES - 1);
		if (size <= room && cut <= room) {
			block = (union header *)(void *)scratch_next;
			scratch_next += cut;
			return block;
		}
		scratch_spilled = true;
	}
	/* Past the largest list the class only says "malloc's". */
	size_class = size == 0 ? 1 : size > CLASS_COUNT * CLASS_BYTES ?
	    CLASS_COUNT + 1 : (size + CLASS_BYTES - 1) / CLASS_BYTES;
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

	if (pointer == NULL || in_scratch(pointer))
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

cJSON *
json_scratch_parse(const char *text, size_t length)
{
	cJSON *tree;

	if (scratch_live ||
	    (scratch == NULL && (scratch = malloc(SCRATCH_BYTES)) == NULL))
		return cJSON_ParseWithLength(text, length);
	scratch_next = scratch;
	scratch_spilled = false;
	scratch_filling = true;
	tree = cJSON_ParseWithLength(text, length);
	scratch_filling = false;
	/* A failed parse freed what it made: blocks of the lists went back. */
	scratch_live = tree != NULL;
	return tree;
}

void
json_scratch_free(cJSON *tree)
{
	if (tree == NULL)
		return;
	if (!in_scratch(tree)) {
		/* Parsed the ordinary way, while the region was in use. */
		cJSON_Delete(tree);
		return;
	}
	/* The walk frees the blocks that did not fit; region ones are no-ops. */
	if (scratch_spilled)
		cJSON_Delete(tree);
	scratch_live = false;
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

/* No region under ASan: every block is its own, for ASan to watch. */
cJSON *
json_scratch_parse(const char *text, size_t length)
{
	return cJSON_ParseWithLength(text, length);
}

void
json_scratch_free(cJSON *tree)
{
	cJSON_Delete(tree);
}

#endif
