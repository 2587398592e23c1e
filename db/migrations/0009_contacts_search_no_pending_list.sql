-- PGlite never runs autovacuum: with GIN fast update, new contacts pile up in the index pending list and a
-- search over recent rows scans it instead of the index. Insert straight into the index on both engines.
ALTER INDEX "contacts_search_trgm" SET (fastupdate = off);
