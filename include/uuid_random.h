/* Version 4 UUIDs for verdicts and decisions (SPEC 3, 6). */
#ifndef COUNTERSIGN_UUID_RANDOM_H
#define COUNTERSIGN_UUID_RANDOM_H

#define UUID_TEXT_SIZE 37	/* 36 characters and a NUL */

/* A new random (version 4) UUID, lower-case, into out. */
void uuid_random(char out[UUID_TEXT_SIZE]);

#endif
