/* Where cJSON's trees get their memory. */
#ifndef COUNTERSIGN_JSON_MEMORY_H
#define COUNTERSIGN_JSON_MEMORY_H

/*
 * Hands cJSON small blocks from free lists instead of malloc for each
 * node and string.  Call once, before any tree exists: memory cJSON
 * allocated before must not reach cJSON_free() after.  Everything cJSON
 * returns must then be freed with cJSON_free() or cJSON_Delete().
 */
void json_memory_init(void);

#endif
