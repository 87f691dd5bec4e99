CREATE SCHEMA "curriculum";
--> statement-breakpoint
CREATE TABLE "curriculum"."associations" (
	"tenant_id" text NOT NULL,
	"association_id" uuid NOT NULL,
	"association_type" text NOT NULL,
	"origin_id" text NOT NULL,
	"destination_id" text NOT NULL,
	"sequence_number" integer,
	"status" text NOT NULL,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "associations_tenant_id_association_id_pk" PRIMARY KEY("tenant_id","association_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."components" (
	"tenant_id" text NOT NULL,
	"component_id" text NOT NULL,
	"kind" text NOT NULL,
	"document_id" uuid,
	"parent_component_id" text,
	"position" integer,
	"name" text,
	"human_coding_scheme" text,
	"student_id" text,
	"alpha" jsonb NOT NULL,
	"publication_status" text NOT NULL,
	"subject_id" text,
	"status" text NOT NULL,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "components_tenant_id_component_id_pk" PRIMARY KEY("tenant_id","component_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."idempotency_records" (
	"tenant_id" text NOT NULL,
	"operation" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_records_tenant_id_operation_idempotency_key_pk" PRIMARY KEY("tenant_id","operation","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."knowledge_components" (
	"tenant_id" text NOT NULL,
	"kc_id" uuid NOT NULL,
	"stored_as" text NOT NULL,
	"definition" text NOT NULL,
	"source_kc_id" text,
	"subject_id" text,
	"kc_kind" text,
	"alpha" jsonb NOT NULL,
	"publication_status" text NOT NULL,
	"status" text NOT NULL,
	"current_version_id" uuid,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "knowledge_components_tenant_id_kc_id_pk" PRIMARY KEY("tenant_id","kc_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."pin_audit" (
	"tenant_id" text NOT NULL,
	"audit_seq" bigserial NOT NULL,
	"component_id" text NOT NULL,
	"operation" text NOT NULL,
	"previous_target_ref" jsonb,
	"target_ref" jsonb NOT NULL,
	"actor" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pin_audit_tenant_id_audit_seq_pk" PRIMARY KEY("tenant_id","audit_seq")
);
--> statement-breakpoint
CREATE INDEX "associations_origin_idx" ON "curriculum"."associations" USING btree ("tenant_id","origin_id","association_type");--> statement-breakpoint
CREATE INDEX "associations_destination_idx" ON "curriculum"."associations" USING btree ("tenant_id","destination_id","association_type");--> statement-breakpoint
CREATE INDEX "components_parent_idx" ON "curriculum"."components" USING btree ("tenant_id","parent_component_id","position");--> statement-breakpoint
CREATE INDEX "components_kind_idx" ON "curriculum"."components" USING btree ("tenant_id","kind","component_id");--> statement-breakpoint
CREATE INDEX "components_updated_idx" ON "curriculum"."components" USING btree ("tenant_id","updated_at","component_id");