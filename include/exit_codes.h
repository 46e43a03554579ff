/*
 * Process exit statuses (countersign(1) EXIT STATUS); library code returns
 * them, only main() exits.
 */
#ifndef COUNTERSIGN_EXIT_CODES_H
#define COUNTERSIGN_EXIT_CODES_H

enum exit_code {
	EXIT_OK = 0,		/* all passed, all recorded, chain intact */
	EXIT_REFUSED = 1,	/* a check failed, a decision was refused, the chain is broken */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_DATA = 3,		/* bad input data */
	EXIT_STORAGE = 4,	/* the database could not be used */
	EXIT_TIMED_OUT = 5	/* (v3) wait: the action is still pending */
};

#endif
