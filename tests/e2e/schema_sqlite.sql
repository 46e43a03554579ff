-- The SQLite schema as facts, one a line (tests/e2e/schema_compare.sh):
-- columns with NOT NULL and their place in the primary key, foreign keys,
-- unique indexes other than the primary key.  Triggers are read there.
WITH t AS (SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%')
SELECT 'column ' || t.name || ' ' || c.name || ' notnull=' || (c."notnull" OR c.pk > 0) || ' pk=' || c.pk
  FROM t, pragma_table_info(t.name) c
UNION ALL
SELECT 'fk ' || t.name || ' (' || group_concat(f."from", ',') || ') -> ' || f."table" || ' (' || group_concat(coalesce(f."to", ''), ',') || ')'
  FROM t, pragma_foreign_key_list(t.name) f GROUP BY t.name, f.id
UNION ALL
SELECT 'unique ' || t.name || ' (' || (SELECT group_concat(coalesce(ii.name, '(expr)'), ',') FROM (SELECT * FROM pragma_index_xinfo(i.name) WHERE key ORDER BY seqno) ii) || ')' || CASE WHEN i.partial THEN ' partial' ELSE '' END
  FROM t, pragma_index_list(t.name) i WHERE i."unique" AND i.origin <> 'pk';
