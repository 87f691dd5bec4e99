CREATE TABLE "curriculum"."source_ingest_jobs" (
	"tenant_id" text NOT NULL,
	"job_id" uuid NOT NULL,
	"source_system" text NOT NULL,
	"producer_batch_id" text NOT NULL,
	"request_sha256" text NOT NULL,
	"status" text NOT NULL,
	"courses" jsonb NOT NULL,
	"rows" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "source_ingest_jobs_tenant_id_job_id_pk" PRIMARY KEY("tenant_id","job_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "source_ingest_jobs_run_idx" ON "curriculum"."source_ingest_jobs" USING btree ("tenant_id","source_system","producer_batch_id");