/*
 * Shared by the two halves of the artifacts in the store (SPEC 2.4):
 * artifact.c, which keeps the sets as versions are stored and decided,
 * and artifact_chain.c, which reads an artifact's versions for the
 * lockout rule.  Not for other files.
 */
#ifndef COUNTERSIGN_ARTIFACT_INTERNAL_H
#define COUNTERSIGN_ARTIFACT_INTERNAL_H

#include "error.h"
#include "store_internal.h"

/* One of artifact.c's statements, prepared once per connection, reset. */
db_stmt *artifact_statement(struct store *, enum artifact_statement,
    struct error *);
/* The label of action_id's artifact (the caller's), or NULL: it has none. */
int artifact_label_of(struct store *, const char *action_id, char **label,
    struct error *);

#endif
