CREATE TABLE "curriculum"."course_approval_kc_versions" (
	"tenant_id" text NOT NULL,
	"approval_id" uuid NOT NULL,
	"kc_id" uuid NOT NULL,
	"kc_version_id" uuid NOT NULL,
	"version_number" integer NOT NULL,
	"firming_event_id" uuid NOT NULL,
	"firmed_by_approval" boolean NOT NULL,
	CONSTRAINT "course_approval_kc_versions_tenant_id_approval_id_kc_id_pk" PRIMARY KEY("tenant_id","approval_id","kc_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."course_approvals" (
	"tenant_id" text NOT NULL,
	"approval_id" uuid NOT NULL,
	"course_id" text NOT NULL,
	"sequence" integer NOT NULL,
	"approved_by" text NOT NULL,
	"provenance" jsonb NOT NULL,
	"course_graph_sha256" text NOT NULL,
	"kc_snapshot_sha256" text NOT NULL,
	"expected_course_graph_sha256" text,
	"expected_kc_snapshot_sha256" text,
	"course_graph" jsonb NOT NULL,
	"recorded_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "course_approvals_tenant_id_approval_id_pk" PRIMARY KEY("tenant_id","approval_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "course_approvals_sequence_idx" ON "curriculum"."course_approvals" USING btree ("tenant_id","course_id","sequence");