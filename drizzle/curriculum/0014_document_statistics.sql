-- Document columns (jsonb) that no statement compares as a whole carry no planner statistics: reads reach into
-- them with ->> or with @> on a member, which column statistics never inform (an expression index keeps its own).
-- Sorting the sampled documents was over half of each ANALYZE of the tables that grow on request paths, both the
-- platform's re-analysis as a table doubles (platform/postgres-statistics.ts, pglite-statistics.ts) and autovacuum's.
-- Here: the components' alpha, the pin audit and the rest; standards_frameworks.subject_ids keeps its
-- statistics, since its filter is @> on the column itself.
ALTER TABLE "curriculum"."components" ALTER COLUMN "alpha" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."course_approvals" ALTER COLUMN "provenance" SET STATISTICS 0, ALTER COLUMN "course_graph" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."idempotency_records" ALTER COLUMN "response" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."kc_firming_events" ALTER COLUMN "evidence" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."kc_versions" ALTER COLUMN "alpha" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."knowledge_components" ALTER COLUMN "alpha" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."pin_audit" ALTER COLUMN "previous_target_ref" SET STATISTICS 0, ALTER COLUMN "target_ref" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."source_ingest_jobs" ALTER COLUMN "courses" SET STATISTICS 0, ALTER COLUMN "rows" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "curriculum"."standards_releases" ALTER COLUMN "package" SET STATISTICS 0;
