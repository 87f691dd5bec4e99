-- A course approval and its exact KC-version snapshot are immutable evidence.
CREATE TRIGGER "course_approvals_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."course_approvals"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
--> statement-breakpoint
CREATE TRIGGER "course_approval_kc_versions_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."course_approval_kc_versions"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
