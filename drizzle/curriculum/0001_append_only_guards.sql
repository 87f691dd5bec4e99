-- Pin audit rows are immutable evidence of accepted pin operations.
CREATE FUNCTION "curriculum"."refuse_append_only_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are append-only', TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER "pin_audit_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."pin_audit"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
