CREATE SCHEMA "content";
--> statement-breakpoint
CREATE TABLE "content"."idempotency_records" (
	"tenant_id" text NOT NULL,
	"operation" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_records_tenant_id_operation_idempotency_key_pk" PRIMARY KEY("tenant_id","operation","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "content"."items" (
	"tenant_id" text NOT NULL,
	"content_id" uuid NOT NULL,
	"content_kind" text NOT NULL,
	"subtype" text,
	"title" text NOT NULL,
	"language" text,
	"subject_id" text,
	"target_grade_id" text,
	"expected_xp" integer,
	"status" text NOT NULL,
	"dok" text,
	"assessment_role" text,
	"usage_scope" text NOT NULL,
	"test_type" text,
	"is_mastery_gate" boolean DEFAULT false NOT NULL,
	"source_identifier" text,
	"source_system" text,
	"source_table" text,
	"source_record_id" text,
	"source_activity_ref" text,
	"latest_version_id" uuid,
	"latest_version_number" integer DEFAULT 0 NOT NULL,
	"row_version" integer DEFAULT 1 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "items_tenant_id_content_id_pk" PRIMARY KEY("tenant_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "content"."trust_evidence" (
	"tenant_id" text NOT NULL,
	"evidence_seq" bigserial NOT NULL,
	"evidence_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"trust_status" text NOT NULL,
	"source" text NOT NULL,
	"decided_by" text NOT NULL,
	"reason" text,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "trust_evidence_tenant_id_evidence_seq_pk" PRIMARY KEY("tenant_id","evidence_seq")
);
--> statement-breakpoint
CREATE TABLE "content"."version_publications" (
	"tenant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"published_by" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "version_publications_tenant_id_version_id_pk" PRIMARY KEY("tenant_id","version_id")
);
--> statement-breakpoint
CREATE TABLE "content"."versions" (
	"tenant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"version_number" integer NOT NULL,
	"student_view" jsonb NOT NULL,
	"canonical_xml" text,
	"supersedes_version_id" uuid,
	"content_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "versions_tenant_id_version_id_pk" PRIMARY KEY("tenant_id","version_id")
);
--> statement-breakpoint
CREATE INDEX "items_tenant_kind_idx" ON "content"."items" USING btree ("tenant_id","content_kind");--> statement-breakpoint
CREATE INDEX "items_tenant_updated_idx" ON "content"."items" USING btree ("tenant_id","updated_at","content_id");--> statement-breakpoint
CREATE INDEX "trust_version_idx" ON "content"."trust_evidence" USING btree ("tenant_id","version_id","evidence_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "versions_item_number_idx" ON "content"."versions" USING btree ("tenant_id","content_id","version_number");