CREATE SCHEMA "events";
--> statement-breakpoint
CREATE TABLE "events"."activity_sources" (
	"tenant_id" text NOT NULL,
	"source_id" uuid NOT NULL,
	"source_iri" text NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activity_sources_tenant_id_source_id_pk" PRIMARY KEY("tenant_id","source_id")
);
--> statement-breakpoint
CREATE TABLE "events"."idempotency_records" (
	"tenant_id" text NOT NULL,
	"operation" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_records_tenant_id_operation_idempotency_key_pk" PRIMARY KEY("tenant_id","operation","idempotency_key")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "activity_sources_iri_idx" ON "events"."activity_sources" USING btree ("tenant_id","source_iri");--> statement-breakpoint
CREATE INDEX "activity_sources_created_idx" ON "events"."activity_sources" USING btree ("tenant_id","created_at","source_id");