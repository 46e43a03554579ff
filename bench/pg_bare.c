/*
 * The floors for the PostgreSQL store (issue 20), on the same server:
 *
 *   pg_bare insert URI RECORDS_FILE   each line one audit_log row, one
 *                                     transaction and commit per row, a
 *                                     prepared INSERT (durable decisions)
 *   pg_bare copy URI FILE...          each JSON line parsed with cJSON and
 *                                     its text sent by one COPY, one
 *                                     transaction (import)
 *
 * No rules, no hashing, no queue: what libpq and the server alone cost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include <libpq-fe.h>

static void
must(PGconn *c, PGresult *r, ExecStatusType want, const char *what)
{
	if (PQresultStatus(r) != want) {
		fprintf(stderr, "pg_bare: %s: %s", what, PQerrorMessage(c));
		exit(1);
	}
	PQclear(r);
}

static void
exec(PGconn *c, const char *sql)
{
	must(c, PQexec(c, sql), PGRES_COMMAND_OK, sql);
}

int
main(int argc, char **argv)
{
	PGconn *c;
	FILE *in;
	char *line = NULL, seqtext[24], *buf = NULL;
	size_t size = 0, cap = 0;
	ssize_t len;
	long long seq = 0;
	int i;

	if (argc < 4 || (strcmp(argv[1], "insert") != 0 &&
	    strcmp(argv[1], "copy") != 0)) {
		fprintf(stderr, "usage: pg_bare insert|copy URI FILE...\n");
		return 2;
	}
	c = PQconnectdb(argv[2]);
	if (PQstatus(c) != CONNECTION_OK) {
		fprintf(stderr, "pg_bare: %s", PQerrorMessage(c));
		return 1;
	}
	if (strcmp(argv[1], "insert") == 0) {
		exec(c, "DROP TABLE IF EXISTS bare_log; CREATE TABLE bare_log"
		    " (seq BIGINT PRIMARY KEY, record_json TEXT NOT NULL,"
		    " prev_hash TEXT NOT NULL, hash TEXT NOT NULL)");
		must(c, PQprepare(c, "ins", "INSERT INTO bare_log VALUES ($1,"
		    " $2, repeat('0', 64), repeat('0', 64))", 2, NULL),
		    PGRES_COMMAND_OK, "prepare");
		if ((in = fopen(argv[3], "r")) == NULL)
			return 2;
		while ((len = getline(&line, &size, in)) > 0) {
			const char *values[2] = { seqtext, line };

			if (line[len - 1] == '\n')
				line[--len] = '\0';
			snprintf(seqtext, sizeof seqtext, "%lld", ++seq);
			exec(c, "BEGIN");
			must(c, PQexecPrepared(c, "ins", 2, values, NULL, NULL,
			    0), PGRES_COMMAND_OK, "insert");
			exec(c, "COMMIT");
		}
		fclose(in);
	} else {
		exec(c, "DROP TABLE IF EXISTS bare_action; CREATE TABLE"
		    " bare_action (action_id TEXT PRIMARY KEY, raw_json TEXT"
		    " NOT NULL)");
		exec(c, "BEGIN");
		must(c, PQexec(c, "COPY bare_action FROM STDIN"),
		    PGRES_COPY_IN, "copy");
		for (i = 3; i < argc; i++) {
			if ((in = fopen(argv[i], "r")) == NULL)
				return 2;
			while ((len = getline(&line, &size, in)) > 0) {
				cJSON *j, *id;
				size_t n = 0, k;

				if (line[len - 1] == '\n')
					line[--len] = '\0';
				j = cJSON_ParseWithLength(line, (size_t)len);
				id = cJSON_GetObjectItemCaseSensitive(
				    cJSON_GetObjectItemCaseSensitive(j,
				    "proposed_action"), "action_id");
				if (!cJSON_IsString(id))
					return 1;
				/* COPY's text form: tab, newline, backslash escaped. */
				if (cap < (size_t)len * 2 + 300 &&
				    (buf = realloc(buf, cap = (size_t)len * 2 + 300)) == NULL)
					return 1;
				n = (size_t)snprintf(buf, cap, "%s\t", id->valuestring);
				for (k = 0; k < (size_t)len; k++) {
					if (line[k] == '\\' || line[k] == '\t')
						buf[n++] = '\\';
					buf[n++] = line[k];
				}
				buf[n++] = '\n';
				if (PQputCopyData(c, buf, (int)n) != 1)
					return 1;
				cJSON_Delete(j);
				seq++;
			}
			fclose(in);
		}
		if (PQputCopyEnd(c, NULL) != 1)
			return 1;
		must(c, PQgetResult(c), PGRES_COMMAND_OK, "copy end");
		exec(c, "COMMIT");
	}
	PQfinish(c);
	free(line);
	free(buf);
	printf("%lld\n", seq);
	return 0;
}
