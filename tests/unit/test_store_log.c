/*
 * Unit tests for src/store/store_log.c (SPEC 13): with a signing key,
 * every commit that appends stores one checkpoint, and a receipt of every
 * record verifies against it; an --atomic batch's rolled-back savepoint
 * leaves the tree as the records are; a log kept before the tree gets it
 * at its next append; records appended without the key, or a checkpoint
 * under another key, stop the next append.
 */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "exit_codes.h"
#include "merkle.h"
#include "note.h"
#include "store_fixture.h"
#include "store_log.h"

static struct note_signer signer;
static struct note_verifier verifier;

static void
make_key(const char *name)
{
	struct error err;
	char *skey, *vkey;

	assert_int_equal(note_keygen(name, &skey, &vkey, &err), 0);
	assert_int_equal(note_signer_parse(skey, &signer, &err), 0);
	assert_int_equal(note_verifier_parse(vkey, &verifier, &err), 0);
	free(skey);
	free(vkey);
}

static int
setup(void **state)
{
	make_key("test.example/log");
	store_log_keys(&signer, NULL, 0);
	return sf_setup(state);
}

/* The same, with nothing imported: an empty log. */
static int
setup_bare(void **state)
{
	make_key("test.example/log");
	store_log_keys(&signer, NULL, 0);
	return sf_setup_bare(state);
}

static int
teardown(void **state)
{
	store_log_keys(NULL, NULL, 0);
	return sf_teardown(state);
}

/* The receipt of seq verifies under the key, and carries its record. */
static void
assert_receipt_verifies(long long seq)
{
	const struct note_verifier *by;
	struct tlog_proof p;
	struct checkpoint c;
	struct error err;
	merkle_hash leaf;
	char *text, sql[128], *record;
	size_t text_len;

	error_clear(&err);
	if (store_log_receipt(fx.store, seq, &text, &err) != 0)
		fail_msg("receipt of %lld: %s", seq, err.message);
	assert_int_equal(tlog_proof_parse(text, strlen(text), &p, &err), 0);
	assert_int_equal(p.index, seq - 1);
	assert_int_equal(note_open(p.note, p.note_len, &verifier, 1, &text_len,
	    &by, &err), 0);
	assert_int_equal(checkpoint_parse(p.note, text_len, &c, &err), 0);
	assert_int_equal(merkle_leaf_hash(p.extra, p.extra_len, leaf), 0);
	if (!merkle_verify_inclusion(p.index, c.size, leaf,
	    (const merkle_hash *)p.proof, p.count, c.root))
		fail_msg("the receipt of %lld does not verify", seq);
	snprintf(sql, sizeof sql, "SELECT record_json FROM audit_log"
	    " WHERE seq = %lld", seq);
	record = sf_sql_text(fx.path, sql);
	assert_int_equal(p.extra_len, strlen(record));
	assert_memory_equal(p.extra, record, p.extra_len);
	free(record);
	tlog_proof_free(&p);
	free(text);
}

static void
append_committed(int n)
{
	struct audit_head head;
	struct error err;
	char record[64];
	int i;

	assert_int_equal(store_begin(fx.store, &err), 0);
	for (i = 0; i < n; i++) {
		snprintf(record, sizeof record, "{\"event\":\"test\",\"n\":%d}",
		    i);
		assert_int_equal(store_audit_append(fx.store, record, &head,
		    &err), 0);
	}
	assert_int_equal(store_commit(fx.store, &err), 0);
}

static void
test_one_checkpoint_a_commit_and_every_receipt(void **state)
{
	/* The fixture's policy imports, one commit, were signed too. */
	long long seq, records, commits = 1;
	struct log_report r;
	struct error err;
	int n;

	(void)state;
	for (n = 1; n <= 12; n++) {
		append_committed(n % 4 + 1);
		commits++;
	}
	records = sf_sql_int(fx.path, "SELECT count(*) FROM audit_log");
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM log_checkpoint"),
	    commits);
	assert_int_equal(sf_sql_int(fx.path, "SELECT max(size) FROM log_checkpoint"),
	    records);
	for (seq = 1; seq <= records; seq++)
		assert_receipt_verifies(seq);
	assert_int_equal(store_log_verify(fx.store, &verifier, 1, &r, &err), 0);
	assert_string_equal(r.problem, "");
	assert_int_equal(r.checkpoints, commits);
	assert_true(r.signature_checked);
}

static void
test_savepoint_rolled_back(void **state)
{
	struct audit_head head;
	struct log_report r;
	struct error err;

	(void)state;
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(store_audit_append(fx.store, "{\"a\":1}", &head, &err),
	    0);
	assert_int_equal(store_savepoint(fx.store, &err), 0);
	assert_int_equal(store_audit_append(fx.store, "{\"b\":2}", &head, &err),
	    0);
	store_rollback_savepoint(fx.store);
	assert_int_equal(store_audit_append(fx.store, "{\"c\":3}", &head, &err),
	    0);
	assert_int_equal(store_commit(fx.store, &err), 0);
	assert_int_equal(store_log_verify(fx.store, &verifier, 1, &r, &err), 0);
	assert_string_equal(r.problem, "");
	assert_receipt_verifies(head.seq);
	assert_receipt_verifies(head.seq - 1);
}

static void
test_tree_of_an_older_log(void **state)
{
	struct log_report r;
	struct error err;

	(void)state;
	/* As the migration leaves a log kept before: records, no tree. */
	sf_sql(fx.path, "DROP TRIGGER merkle_node_no_delete;"
	    " DELETE FROM merkle_node");
	append_committed(2);
	assert_int_equal(sf_sql_int(fx.path, "SELECT count(*) FROM merkle_node"
	    " WHERE level = 0"), sf_sql_int(fx.path,
	    "SELECT count(*) FROM audit_log"));
	assert_int_equal(store_log_verify(fx.store, &verifier, 1, &r, &err), 0);
	assert_string_equal(r.problem, "");
	assert_receipt_verifies(1);
}

static void
test_unattested_records_stop_the_next_append(void **state)
{
	struct audit_head head;
	struct error err;

	(void)state;
	append_committed(1);
	/* Appended by a writer without the key (local mode). */
	store_log_keys(NULL, NULL, 0);
	append_committed(1);
	store_log_keys(&signer, NULL, 0);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(store_audit_append(fx.store, "{}", &head, &err),
	    EXIT_STORAGE);
	assert_contains(err.message, "beyond the latest signed checkpoint");
	store_rollback(fx.store);
	/* Another key of the same name is not trusted either. */
	store_close(fx.store);
	fx.store = NULL;
	assert_int_equal(store_open(fx.path, STORE_EXISTING, &fx.store, &err),
	    0);
	make_key("test.example/log");
	store_log_keys(&signer, NULL, 0);
	assert_int_equal(store_begin(fx.store, &err), 0);
	assert_int_equal(store_audit_append(fx.store, "{}", &head, &err),
	    EXIT_STORAGE);
	/* Nothing this key signed: every record is unattested (SPEC 13). */
	assert_contains(err.message, "audit record 1 lies beyond the latest "
	    "checkpoint signed by a trusted key (tree size 0)");
	store_rollback(fx.store);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_one_checkpoint_a_commit_and_every_receipt, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_savepoint_rolled_back,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_tree_of_an_older_log,
		    setup_bare, teardown),
		cmocka_unit_test_setup_teardown(
		    test_unattested_records_stop_the_next_append, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
