/* The standard reasons the dialogs offer (data/reasons). */
#ifndef COUNTERSIGN_REASONS_H
#define COUNTERSIGN_REASONS_H

#include <stddef.h>

#define REASON_SIZE 256
#define REASONS_MAX 9		/* keys 1 to 9 */

/*
 * Loads the reasons for decision ("approve" or "reject") offered for an
 * action of kind (NULL: several kinds): the kind's section's, then those
 * for every kind; returns how many.
 */
size_t reasons_load(const char *decision, const char *kind,
    char reasons[][REASON_SIZE], size_t max);

#endif
