-- A version's projections (answer slots and keys, components, scoring plans) and a test_spec's
-- blueprint are written with it and never change afterwards.
CREATE TRIGGER "answer_slots_append_only" BEFORE UPDATE OR DELETE ON "content"."answer_slots"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "assessment_components_append_only" BEFORE UPDATE OR DELETE ON "content"."assessment_components"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "scoring_plans_append_only" BEFORE UPDATE OR DELETE ON "content"."scoring_plans"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "test_spec_blueprints_append_only" BEFORE UPDATE OR DELETE ON "content"."test_spec_blueprints"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "version_publications_append_only" BEFORE UPDATE OR DELETE ON "content"."version_publications"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
