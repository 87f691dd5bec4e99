-- Events and school-records moments are immutable: no write path, not even a bug, can change or
-- remove one.
CREATE FUNCTION "events"."refuse_event_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are immutable', TG_TABLE_NAME USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER "learning_events_immutable" BEFORE UPDATE OR DELETE ON "events"."learning_events"
  FOR EACH ROW EXECUTE FUNCTION "events"."refuse_event_change"();
--> statement-breakpoint
CREATE TRIGGER "attendance_events_immutable" BEFORE UPDATE OR DELETE ON "events"."attendance_events"
  FOR EACH ROW EXECUTE FUNCTION "events"."refuse_event_change"();
--> statement-breakpoint
CREATE TRIGGER "discipline_events_immutable" BEFORE UPDATE OR DELETE ON "events"."discipline_events"
  FOR EACH ROW EXECUTE FUNCTION "events"."refuse_event_change"();
