#!/bin/sh
# Issue 20: on PostgreSQL a write transaction pipelines its writes and
# remembers its reads (src/store/pg_pipeline.c), and an import asks once
# per chunk which ids are new (src/store/fresh_ids.c).  What that must
# never change: a write that fails is never followed by "recorded", a
# refusal mid-group undoes only itself, answers stay those of the data.
. "$TOP_SRCDIR/tests/e2e/lib.sh"
. "$TOP_SRCDIR/tests/e2e/pg_lib.sh"

pg_start
q() { pg_psql "$1" -At -c "$2"; }

### 1. The chunked import on this backend too.
uri=$(pg_createdb chunks)
if COUNTERSIGN_TEST_DB=$uri sh "$TOP_SRCDIR/tests/e2e/import_chunks.sh" >"$WORK/chunks.log" 2>&1; then
	pass "import_chunks.sh on PostgreSQL"
else
	fail "import_chunks.sh on PostgreSQL:"
	grep -E '^FAIL' "$WORK/chunks.log" | sed 's/^/    /'
fi

### 2. A write the server refuses in the middle of a group: the batch says
# nothing of that group was recorded, and nothing of it is.
DB=$(pg_createdb boom)
import_passing_trades b 40
pg_psql boom -c "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS
	\$\$ BEGIN IF NEW.action_id = 'b-25' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END \$\$;
	CREATE TRIGGER boom BEFORE INSERT ON decision FOR EACH ROW EXECUTE FUNCTION boom();" >/dev/null
approvals b 40 >"$WORK/all"
expect_status "a group whose 26th decision's insert fails" 4 cs batch "$WORK/all"
jq -r 'select(.status == "recorded") | .action_id' "$WORK/out" | sort >"$WORK/said"
q boom "SELECT action_id FROM decision" | sort >"$WORK/there"
expect_eq "every line said recorded is recorded" "$(comm -23 "$WORK/said" "$WORK/there" | wc -l)" 0
expect_eq "nothing of the failed group is" "$(wc -l <"$WORK/there")" 0
expect_contains "the failure is a storage error naming the server's words" "$WORK/out" "boom"
expect_eq "no line after the failure is recorded" \
	"$(jq -r 'select(.line > 26 and .status == "recorded") | .line' "$WORK/out" | wc -l)" 0
expect_status "the chain verifies" 0 cs audit verify
# --atomic: the same failure, the whole batch undone.
expect_status "--atomic with the failing insert" 4 cs batch --atomic "$WORK/all"
expect_eq "--atomic: nothing recorded" "$(q boom 'SELECT count(*) FROM decision')" 0
# The failed write's words reach the officer, said to be an earlier one.
expect_contains "named as an earlier write of the transaction" "$WORK/out" \
	"a write sent earlier in this transaction failed: boom"
pg_psql boom -c "DROP TRIGGER boom ON decision" >/dev/null
expect_status "without the trigger the same batch passes" 0 cs batch "$WORK/all"
expect_eq "all forty recorded" "$(q boom 'SELECT count(*) FROM decision')" 40
expect_status "the chain verifies" 0 cs audit verify

# One process, two files: the first fails on the server mid-pipeline,
# the second must still import (no statement is left taken as prepared
# when the server never reached its PREPARE).
pg_psql boom -c "CREATE FUNCTION boom2() RETURNS trigger LANGUAGE plpgsql AS
	\$\$ BEGIN IF NEW.action_id = 'f-1' THEN RAISE EXCEPTION 'boom2'; END IF; RETURN NEW; END \$\$;
	CREATE TRIGGER boom2 BEFORE INSERT ON action FOR EACH ROW EXECUTE FUNCTION boom2();" >/dev/null
for p in f g; do
	jq -c --arg p "$p" 'range(0; 3) as $i | .proposed_action.action_id = "\($p)-\($i)"
		| .reviewer_verdict.action_id = "\($p)-\($i)"' "$EXAMPLES/packet-trade-pass.json" >"$WORK/$p.jsonl"
done
expect_status "two files, the first refused by the server" 4 cs import "$WORK/f.jsonl" "$WORK/g.jsonl"
expect_contains "the first says why" "$WORK/err" "boom2"
expect_contains "the second is imported" "$WORK/out" "g.jsonl: 3 imported"
expect_eq "g's three are there, f's none" \
	"$(q boom "SELECT string_agg(action_id, ' ' ORDER BY action_id) FROM action WHERE action_id ~ '^[fg]-'")" "g-0 g-1 g-2"

### 3. Refusals between recorded decisions in one group: each refusal
# undoes itself only, a decided action is refused the second time within
# the same group (the remembered "no decision yet" is forgotten).
DB=$(pg_createdb mixed)
import_passing_trades m 10
{
	approvals m 3
	echo '{"action_id": "m-1", "decision": "approve"}'
	echo '{"action_id": "nope", "decision": "approve"}'
	echo '{"action_id": "m-4", "decision": "reject", "reason": "no"}'
	echo '{"action_id": "m-4", "decision": "approve"}'
	approvals m 10 | sed -n '6,10p'
} >"$WORK/mixed"
expect_status "a group mixing decisions and refusals" 1 cs batch "$WORK/mixed"
expect_eq "the answers, in order" "$(jq -r '.status + ":" + (.code // "")' "$WORK/out" | tr '\n' ' ')" \
	"recorded: recorded: recorded: refused:already_decided refused:unknown_action recorded: refused:already_decided recorded: recorded: recorded: recorded: recorded: "
expect_eq "the database agrees" "$(q mixed "SELECT string_agg(action_id || '=' || decision, ' ' ORDER BY action_id) FROM decision")" \
	"m-0=approve m-1=approve m-2=approve m-4=reject m-5=approve m-6=approve m-7=approve m-8=approve m-9=approve"
expect_eq "the queue keeps only the undecided" "$(cs list --json | jq -r .action_id | tr '\n' ' ')" "m-3 "
expect_status "the chain verifies" 0 cs audit verify

### 4. Policy imported between two batches is read afresh (nothing is
# remembered past a transaction): the second batch sees the new IPS.
DB=$(pg_createdb policy)
import_passing_trades pp 2
approvals pp 1 >"$WORK/one"
expect_status "approving under the first IPS" 0 cs batch "$WORK/one"
jq -c '.version = (.version + 1) | .constraints.excluded_tickers += ["BND"]' \
	"$EXAMPLES/ips.json" >"$WORK/tight.json"
expect_status "an IPS that excludes the trade's ticker" 0 cs import "$WORK/tight.json"
approvals pp 2 | sed -n 2p >"$WORK/two"
expect_status "the next batch is refused under it" 1 cs batch "$WORK/two"
expect_eq "as failing the local re-check" "$(jq -r .code "$WORK/out")" rules_failed
finish
