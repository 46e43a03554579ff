/*
 * The commands of the log anyone can check (SPEC 13): keygen,
 * verify-receipt, receipt, audit checkpoint and audit consistency, and
 * what the service's receipt and checkpoint methods answer.
 */
#ifndef COUNTERSIGN_CMD_LOG_H
#define COUNTERSIGN_CMD_LOG_H

#include "commands.h"
#include "error.h"
#include "note.h"

struct store;

int cmd_keygen(const struct invocation *);
int cmd_verify_receipt(const struct invocation *);
int cmd_receipt(const struct invocation *);
/*
 * A signed note's text (a receipt, a checkpoint) to -o FILE (a new
 * file) or stdout, once it is shown to hold no control character: local
 * and, on the client's side, through --connect.
 */
int note_output(const char *text, const struct invocation *,
    struct error *);
/* audit checkpoint and audit consistency, on an open store. */
int audit_checkpoint(struct store *, const struct invocation *);
int audit_consistency(struct store *, const struct invocation *);
/*
 * audit verify's part for the signed log: "BROKEN" or a line of what was
 * checked; EXIT_OK, EXIT_REFUSED or the error's status.
 */
int audit_verify_log(struct store *, const struct invocation *);

/*
 * The receipt (C2SP tlog-proof) of an action's decision, malloc'd:
 * EXIT_REFUSED with field "not_decided" while it is pending,
 * "no_signing_key" when no checkpoint covers it; the service's receipt
 * method and `countersign receipt` answer with it.
 */
int log_receipt_text(struct store *, const char *action_id, char **text,
    struct error *);
/* The latest signed checkpoint, or the stored one of that size (size > 0). */
int log_checkpoint_text(struct store *, long long size, char **text,
    struct error *);

/*
 * serve --signing-key, --trusted-key, --log-name: loads the keys (a
 * signing key anyone but its owner may read is refused) and fixes the
 * log's name in the store; without a key, says on stderr that nothing is
 * signed.  The keys stay loaded for the process.
 */
int log_serve_setup(const struct invocation *, struct error *);

#endif
