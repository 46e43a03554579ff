-- countersign on PostgreSQL (SPEC v2 10): the least-privilege role layout.
-- Step 1, as a superuser, before the schema exists:
--   psql -U postgres -f postgresql-roles.sql
-- Step 2, as the owner, creates the schema (any import does):
--   countersign --db postgresql://countersign_owner@HOST/countersign import security_map.json
-- Step 3, as a superuser or the owner, once the schema exists:
--   psql -U postgres -d countersign -f postgresql-grants.sql
-- Give both roles passwords (ALTER ROLE ... PASSWORD) or peer/cert rules in
-- pg_hba.conf as your site requires; nothing here sets one.

-- Holds the schema: its tables, triggers and functions.  Only this role can
-- drop a trigger or rewrite a row, so it is not the one services log in as.
CREATE ROLE countersign_owner LOGIN;
-- What every countersign service logs in as (serve --db URI), and only the
-- services: it reads, appends, and writes the rest through the owner's
-- functions (postgresql-grants.sql).  Its password belongs in the service
-- account's ~/.pgpass (mode 0600), never on an officer's host.
CREATE ROLE countersign_service LOGIN;

-- Any collation will do: the schema's text columns declare COLLATE "C"
-- themselves, as action ids are looked up by their byte order.
CREATE DATABASE countersign OWNER countersign_owner ENCODING 'UTF8'
	TEMPLATE template0;
-- Nobody else connects, or creates objects in it.
REVOKE ALL ON DATABASE countersign FROM PUBLIC;
GRANT CONNECT ON DATABASE countersign TO countersign_service;
\connect countersign
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
ALTER SCHEMA public OWNER TO countersign_owner;
