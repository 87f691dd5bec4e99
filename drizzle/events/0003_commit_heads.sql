CREATE TABLE "events"."commit_heads" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Tenants that already have events start from their last seq and recordedAt.
INSERT INTO "events"."commit_heads" ("tenant_id", "seq", "recorded_at")
  SELECT "tenant_id", max("seq"), max("recorded_at") FROM "events"."learning_events" GROUP BY "tenant_id";
