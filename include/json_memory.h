/* Where cJSON's trees get their memory. */
#ifndef COUNTERSIGN_JSON_MEMORY_H
#define COUNTERSIGN_JSON_MEMORY_H

#include <cjson/cJSON.h>

/*
 * Hands cJSON small blocks from free lists instead of malloc for each
 * node and string.  Call once, before any tree exists: memory cJSON
 * allocated before must not reach cJSON_free() after.  Everything cJSON
 * returns must then be freed with cJSON_free() or cJSON_Delete().
 */
void json_memory_init(void);

/*
 * cJSON_Parse(), with every block cut in order from one scratch region,
 * for the packet a re-check reads and drops: json_scratch_free() lets
 * the whole region go at once instead of walking a few hundred blocks
 * back to the lists (2.8% of a `check`'s instructions).  One such tree
 * at a time: while it lives, another call parses the ordinary way.  The
 * tree is for reading only (nothing may be added to it, it would not be
 * freed), and goes only to json_scratch_free(), which takes ordinary
 * trees too.
 */
/* text need not end in a NUL: length bytes are parsed, as bare cJSON would. */
cJSON *json_scratch_parse(const char *text, size_t length);
void json_scratch_free(cJSON *tree);

#endif
