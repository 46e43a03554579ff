-- countersign on PostgreSQL: what the service role may do, table by table
-- (step 3 of postgresql-roles.sql; run again after an upgrade's migration).
--   psql -U postgres -d countersign -f postgresql-grants.sql
-- The role reads every table and appends to the few below; it has no UPDATE
-- on any table and no DELETE.  Whatever needs more (a decision with its
-- action's status, an approval, a judgment, a policy object's rows, the
-- derived tables' upkeep, the write lock) is a function of the owner's
-- (schema 20, SECURITY DEFINER, a fixed search_path), granted EXECUTE at
-- the end.  Each function that writes a decision, an approval, a judgment
-- or a policy row refuses one that the audit record it names (for a policy,
-- the audit head: import appends the record first) does not describe.  The
-- triggers refuse UPDATE, DELETE and TRUNCATE on what is final as well, but
-- a role that cannot even ask is the stronger guarantee.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM countersign_service;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO countersign_service;
-- The signed log (SPEC 13): its tree, checkpoints and name, appended.
GRANT INSERT ON merkle_node, log_checkpoint, log_name TO countersign_service;
-- Packets, and the policy texts decisions name (keyed by their SHA-256).
GRANT INSERT ON action, policy_object TO countersign_service;
-- The queue's and the artifacts' rows of a new action (derived tables).
GRANT INSERT ON queue_index, artifact_node, artifact_lock, artifact_pr
	TO countersign_service;
-- The functions (schema 20, and 23's decision in one call): the write
-- lock, the audit log's append, the decisions, approvals and judgments,
-- an import's replacements, and the derived tables' changes.
GRANT EXECUTE ON FUNCTION cs_write_lock(),
	cs_audit_append(bigint, text, text, text),
	cs_decision_insert(text, text, text, text, bigint, text, bigint, text,
		bigint, text, text),
	cs_decision_append(bigint, text, text, text, text, text, text, text,
		bigint, text, bigint, text, bigint, text, text),
	cs_approval_insert(text, text, text, bigint, text, text, bigint, bigint,
		bigint),
	cs_judgment_insert(text, text, text, text, text, bigint, text, bigint),
	cs_ips_put(text, bigint, text, text, bigint),
	cs_holdings_put(text, text, bigint, text, bigint, text),
	cs_approval_policy_put(text, bigint, text, bigint),
	cs_security_put(text, text, text, text, bigint, text),
	cs_document_put(text, text, bigint),
	cs_queue_put(text, bigint, bigint, bigint, text, text, text, bigint, text,
		bigint, bigint, text, text, bigint, text),
	cs_queue_remove(text), cs_queue_mark_stale(text),
	cs_queue_mark_touched(text, text),
	cs_queue_totals_add(bigint, bigint, bigint),
	cs_queue_totals_set(bigint, bigint, bigint),
	cs_artifact_size_grow(integer, text, bigint),
	cs_artifact_size_drop(integer, text),
	cs_artifact_relabel(text, text), cs_artifact_relabel_tree(text, text),
	cs_artifact_relabel_locks(text, text), cs_artifact_pr_rejected(text),
	cs_artifact_queue_stale(text, text)
	TO countersign_service;
