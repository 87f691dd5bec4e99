-- Document columns (jsonb) that no statement compares as a whole carry no planner statistics: reads reach into
-- them with ->> or with @> on a member, which column statistics never inform (an expression index keeps its own).
-- Sorting the sampled documents was over half of each ANALYZE of the tables that grow on request paths, both the
-- platform's re-analysis as a table doubles (platform/postgres-statistics.ts, pglite-statistics.ts) and autovacuum's.
-- Here: the events' raw payloads, Caliper refs and extensions, and the idempotency records' answers.
ALTER TABLE "events"."attendance_events" ALTER COLUMN "raw_payload" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "events"."discipline_events" ALTER COLUMN "raw_payload" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "events"."idempotency_records" ALTER COLUMN "response" SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE "events"."learning_events" ALTER COLUMN "actor_ref" SET STATISTICS 0, ALTER COLUMN "object_ref" SET STATISTICS 0, ALTER COLUMN "extensions" SET STATISTICS 0, ALTER COLUMN "raw_payload" SET STATISTICS 0;
