/*
 * Who is deciding (SPEC 5): the real uid's login in local mode, the
 * socket's peer in service mode.  Kept apart from decide.c, which only
 * asks.
 */
#include "config.h"

#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include "decision.h"

/* Set only by the service (issue 19), in the child serving one request. */
static const struct operator_identity *operator_peer;

void
operator_serve_as(const struct operator_identity *peer)
{
	operator_peer = peer;
}

bool
operator_served(void)
{
	return operator_peer != NULL;
}

/* Set only by the service: the officer's role, read at each decision. */
static operator_role_check_fn *operator_role_check;

void
operator_check_role_with(operator_role_check_fn *check)
{
	operator_role_check = check;
}

bool
operator_may_decide(const struct operator_identity *op, char *why,
    size_t why_size)
{
	return operator_role_check == NULL || operator_role_check(op, why,
	    why_size);
}

void
operator_current(struct operator_identity *op)
{
	/* Not getlogin(), USER or LOGNAME: those a user can set. */
	uid_t uid = getuid();
	struct passwd *pw;

	if (operator_peer != NULL) {
		*op = *operator_peer;
		return;
	}
	pw = getpwuid(uid);
	op->uid = (long long)uid;
	if (pw != NULL && pw->pw_name != NULL)
		snprintf(op->login, sizeof op->login, "%s", pw->pw_name);
	else
		snprintf(op->login, sizeof op->login, "#%lld", op->uid);
}
