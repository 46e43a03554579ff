-- countersign on PostgreSQL: what the service role may do, table by table
-- (step 3 of postgresql-roles.sql; run again after an upgrade's migration).
--   psql -U postgres -d countersign -f postgresql-grants.sql
-- The audit log and the decisions: read and append, nothing more.  Their
-- triggers refuse UPDATE, DELETE and TRUNCATE as well, but a role that
-- cannot even ask is the stronger guarantee.
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM countersign_service;
GRANT SELECT, INSERT ON audit_log, decision TO countersign_service;
-- The signed log (SPEC 13): its tree, checkpoints and name, appended too.
GRANT SELECT, INSERT ON merkle_node, log_checkpoint, log_name
	TO countersign_service;
-- Partial approvals under a quorum (SPEC 14): final as decisions are.
GRANT SELECT, INSERT ON approval, approval_policy TO countersign_service;
-- The product owner's judgments (SPEC 2.3): final as approvals are.
GRANT SELECT, INSERT ON po_judgment TO countersign_service;
-- Imported objects: appended; an action's status moves once, to decided.
GRANT SELECT, INSERT ON action, ips, holdings, policy_object
	TO countersign_service;
GRANT UPDATE (status) ON action TO countersign_service;
-- Replaced by a newer import (security map entries, roster, standards).
GRANT SELECT, INSERT, UPDATE ON security, policy_document
	TO countersign_service;
-- The queue index and its counters, which only mirror the tables above.
GRANT SELECT, INSERT, UPDATE, DELETE ON queue_index TO countersign_service;
-- The artifacts' labels and lockouts (issue 34), derived as the queue is.
GRANT SELECT, INSERT, UPDATE, DELETE ON artifact_node, artifact_size,
	artifact_lock, artifact_pr TO countersign_service;
GRANT SELECT, INSERT, UPDATE ON queue_totals, meta TO countersign_service;
GRANT SELECT ON schema_version TO countersign_service;
