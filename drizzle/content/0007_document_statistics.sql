-- Document columns (jsonb) that no statement compares as a whole carry no planner statistics: reads reach into
-- them with ->> or with @> on a member, which column statistics never inform (an expression index keeps its own).
-- Sorting the sampled documents was over half of each ANALYZE of the tables that grow on request paths, both the
-- platform's re-analysis as a table doubles (platform/postgres-statistics.ts, pglite-statistics.ts) and autovacuum's.
-- Here: the versions' student views, the idempotency records' answers and the smaller documents beside them.
ALTER TABLE "content"."answer_slots" ALTER COLUMN "choices" SET STATISTICS 0, ALTER COLUMN "correct_values" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."catalog_facets" ALTER COLUMN "allowed_values" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."facet_assignments" ALTER COLUMN "provenance" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."idempotency_records" ALTER COLUMN "response" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."interactive_compositions" ALTER COLUMN "composition" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."policies" ALTER COLUMN "value" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."test_spec_blueprints" ALTER COLUMN "kc_coverage" SET STATISTICS 0, ALTER COLUMN "item_type_mix" SET STATISTICS 0, ALTER COLUMN "difficulty_constraints" SET STATISTICS 0, ALTER COLUMN "passing_rule" SET STATISTICS 0, ALTER COLUMN "enemy_item_rule" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "content"."versions" ALTER COLUMN "student_view" SET STATISTICS 0;
