CREATE TABLE "curriculum"."kc_firming_events" (
	"tenant_id" text NOT NULL,
	"firming_event_id" uuid NOT NULL,
	"kc_id" uuid NOT NULL,
	"kc_version_id" uuid NOT NULL,
	"source" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"recorded_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kc_firming_events_tenant_id_firming_event_id_pk" PRIMARY KEY("tenant_id","firming_event_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."kc_prerequisites" (
	"tenant_id" text NOT NULL,
	"prerequisite_id" uuid NOT NULL,
	"prerequisite_kc_id" uuid NOT NULL,
	"dependent_kc_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kc_prerequisites_tenant_id_prerequisite_id_pk" PRIMARY KEY("tenant_id","prerequisite_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."kc_review_decisions" (
	"tenant_id" text NOT NULL,
	"decision_id" uuid NOT NULL,
	"kc_id" uuid NOT NULL,
	"kc_version_id" uuid NOT NULL,
	"decision" text NOT NULL,
	"reason" text,
	"reviewer_ref" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kc_review_decisions_tenant_id_decision_id_pk" PRIMARY KEY("tenant_id","decision_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."kc_versions" (
	"tenant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"kc_id" uuid NOT NULL,
	"version_number" integer NOT NULL,
	"definition" text NOT NULL,
	"alpha" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kc_versions_tenant_id_version_id_pk" PRIMARY KEY("tenant_id","version_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "kc_firming_events_version_idx" ON "curriculum"."kc_firming_events" USING btree ("tenant_id","kc_version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kc_prerequisites_pair_idx" ON "curriculum"."kc_prerequisites" USING btree ("tenant_id","prerequisite_kc_id","dependent_kc_id");--> statement-breakpoint
CREATE INDEX "kc_prerequisites_dependent_idx" ON "curriculum"."kc_prerequisites" USING btree ("tenant_id","dependent_kc_id");--> statement-breakpoint
CREATE INDEX "kc_review_decisions_version_idx" ON "curriculum"."kc_review_decisions" USING btree ("tenant_id","kc_version_id");--> statement-breakpoint
CREATE UNIQUE INDEX "kc_versions_number_idx" ON "curriculum"."kc_versions" USING btree ("tenant_id","kc_id","version_number");--> statement-breakpoint
CREATE UNIQUE INDEX "associations_one_parent_idx" ON "curriculum"."associations" USING btree ("tenant_id","origin_id") WHERE association_type = 'isChildOf' and status = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_components_source_idx" ON "curriculum"."knowledge_components" USING btree ("tenant_id","source_kc_id") WHERE source_kc_id is not null;--> statement-breakpoint
CREATE INDEX "knowledge_components_updated_idx" ON "curriculum"."knowledge_components" USING btree ("tenant_id","updated_at","kc_id");