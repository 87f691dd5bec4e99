-- Exact versions and trust evidence are append-only: no write path, not even a bug, can change
-- stored bytes or history.
CREATE FUNCTION "content"."refuse_append_only_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are append-only', TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER "versions_append_only" BEFORE UPDATE OR DELETE ON "content"."versions"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "trust_evidence_append_only" BEFORE UPDATE OR DELETE ON "content"."trust_evidence"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
