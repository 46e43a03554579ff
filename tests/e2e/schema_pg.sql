-- The PostgreSQL schema as the same facts as schema_sqlite.sql, and the
-- INSERT, UPDATE and DELETE triggers (tests/e2e/schema_compare.sh).
WITH t AS (SELECT c.oid, c.relname FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'),
att AS (SELECT a.attrelid, a.attnum, a.attname, a.attnotnull FROM pg_attribute a JOIN t ON t.oid = a.attrelid WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attname <> 'rowid'),
pk AS (SELECT con.conrelid, k.n, k.o FROM pg_constraint con, unnest(con.conkey) WITH ORDINALITY k(n, o) WHERE con.contype = 'p')
SELECT 'column ' || t.relname || ' ' || att.attname || ' notnull=' || (CASE WHEN att.attnotnull OR pk.o IS NOT NULL THEN 1 ELSE 0 END) || ' pk=' || coalesce(pk.o, 0)
  FROM t JOIN att ON att.attrelid = t.oid LEFT JOIN pk ON pk.conrelid = t.oid AND pk.n = att.attnum
UNION ALL
SELECT 'fk ' || t.relname || ' (' || (SELECT string_agg(a.attname, ',' ORDER BY k.o) FROM unnest(con.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n)
  || ') -> ' || r.relname || ' (' || (SELECT string_agg(a.attname, ',' ORDER BY k.o) FROM unnest(con.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n) || ')'
  FROM pg_constraint con JOIN t ON t.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid WHERE con.contype = 'f'
UNION ALL
SELECT 'unique ' || t.relname || ' (' || (SELECT string_agg(coalesce(a.attname, '(expr)'), ',' ORDER BY k.o) FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o) LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n)
  || ')' || CASE WHEN i.indpred IS NOT NULL THEN ' partial' ELSE '' END
  FROM pg_index i JOIN t ON t.oid = i.indrelid WHERE i.indisunique AND NOT i.indisprimary
UNION ALL
SELECT DISTINCT 'trigger ' || t.relname || ' ' || ev.name
  FROM pg_trigger g JOIN t ON t.oid = g.tgrelid,
  (VALUES (4, 'INSERT'), (8, 'DELETE'), (16, 'UPDATE')) ev(bit, name)
  WHERE NOT g.tgisinternal AND (g.tgtype & ev.bit) <> 0;
