-- KC versions, review decisions and firming events are immutable evidence.
CREATE TRIGGER "kc_versions_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."kc_versions"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "kc_review_decisions_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."kc_review_decisions"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "kc_firming_events_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."kc_firming_events"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
