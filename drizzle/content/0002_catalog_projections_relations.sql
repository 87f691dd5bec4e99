CREATE TABLE "content"."answer_slots" (
	"tenant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"response_identifier" text NOT NULL,
	"content_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"interaction_type" text NOT NULL,
	"qti_cardinality" text NOT NULL,
	"qti_base_type" text,
	"choices" jsonb NOT NULL,
	"correct_values" jsonb,
	CONSTRAINT "answer_slots_tenant_id_version_id_response_identifier_pk" PRIMARY KEY("tenant_id","version_id","response_identifier")
);
--> statement-breakpoint
CREATE TABLE "content"."assessment_components" (
	"tenant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"component_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"component_role" text NOT NULL,
	"identifier" text NOT NULL,
	"parent_identifier" text,
	"text" text,
	CONSTRAINT "assessment_components_tenant_id_component_id_pk" PRIMARY KEY("tenant_id","component_id")
);
--> statement-breakpoint
CREATE TABLE "content"."catalog_facets" (
	"tenant_id" text NOT NULL,
	"facet_key" text NOT NULL,
	"value_type" text NOT NULL,
	"grain" text NOT NULL,
	"status" text NOT NULL,
	"allowed_values" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "catalog_facets_tenant_id_facet_key_pk" PRIMARY KEY("tenant_id","facet_key")
);
--> statement-breakpoint
CREATE TABLE "content"."content_references" (
	"tenant_id" text NOT NULL,
	"reference_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"relationship_kind" text NOT NULL,
	"referenced_content_id" uuid NOT NULL,
	"parent_version_id" uuid,
	"referenced_version_id" uuid,
	"ordinal" integer,
	"status" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"retired_by" text,
	"retired_at" timestamp with time zone,
	CONSTRAINT "content_references_tenant_id_reference_id_pk" PRIMARY KEY("tenant_id","reference_id")
);
--> statement-breakpoint
CREATE TABLE "content"."curriculum_links" (
	"tenant_id" text NOT NULL,
	"link_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"curriculum_node_id" text NOT NULL,
	"curriculum_link_kind" text NOT NULL,
	"archived_at" timestamp with time zone NOT NULL,
	CONSTRAINT "curriculum_links_tenant_id_link_id_pk" PRIMARY KEY("tenant_id","link_id")
);
--> statement-breakpoint
CREATE TABLE "content"."external_links" (
	"tenant_id" text NOT NULL,
	"content_id" uuid NOT NULL,
	"url" text NOT NULL,
	"external_open_policy" text NOT NULL,
	"provider" text,
	"title" text,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "external_links_tenant_id_content_id_pk" PRIMARY KEY("tenant_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "content"."facet_assignments" (
	"tenant_id" text NOT NULL,
	"assignment_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"facet_key" text NOT NULL,
	"facet_value" text NOT NULL,
	"provenance" jsonb,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "facet_assignments_tenant_id_assignment_id_pk" PRIMARY KEY("tenant_id","assignment_id")
);
--> statement-breakpoint
CREATE TABLE "content"."kc_tags" (
	"tenant_id" text NOT NULL,
	"content_id" uuid NOT NULL,
	"kc_id" text NOT NULL,
	"weight" double precision NOT NULL,
	"status" text NOT NULL,
	"tagged_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kc_tags_tenant_id_content_id_kc_id_pk" PRIMARY KEY("tenant_id","content_id","kc_id")
);
--> statement-breakpoint
CREATE TABLE "content"."media_assets" (
	"tenant_id" text NOT NULL,
	"media_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"media_kind" text NOT NULL,
	"mime_type" text NOT NULL,
	"file_name" text,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "media_assets_tenant_id_media_id_pk" PRIMARY KEY("tenant_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "content"."scoring_plans" (
	"tenant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"ordinal" integer NOT NULL,
	"content_id" uuid NOT NULL,
	"scoring_rule_scope" text NOT NULL,
	"identifier" text NOT NULL,
	"qti_cardinality" text,
	"qti_base_type" text,
	"template" text,
	CONSTRAINT "scoring_plans_tenant_id_version_id_ordinal_pk" PRIMARY KEY("tenant_id","version_id","ordinal")
);
--> statement-breakpoint
CREATE TABLE "content"."test_spec_blueprints" (
	"tenant_id" text NOT NULL,
	"content_id" uuid NOT NULL,
	"kc_coverage" jsonb NOT NULL,
	"item_type_mix" jsonb NOT NULL,
	"difficulty_constraints" jsonb NOT NULL,
	"passing_rule" jsonb NOT NULL,
	"min_forms" integer NOT NULL,
	"max_item_overlap" double precision NOT NULL,
	"enemy_item_rule" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "test_spec_blueprints_tenant_id_content_id_pk" PRIMARY KEY("tenant_id","content_id")
);
--> statement-breakpoint
CREATE INDEX "assessment_components_version_idx" ON "content"."assessment_components" USING btree ("tenant_id","version_id","ordinal");--> statement-breakpoint
CREATE INDEX "content_references_parent_idx" ON "content"."content_references" USING btree ("tenant_id","content_id","created_at");--> statement-breakpoint
CREATE INDEX "curriculum_links_node_idx" ON "content"."curriculum_links" USING btree ("tenant_id","curriculum_node_id");--> statement-breakpoint
CREATE UNIQUE INDEX "facet_assignments_value_idx" ON "content"."facet_assignments" USING btree ("tenant_id","content_id","facet_key","facet_value");--> statement-breakpoint
CREATE INDEX "facet_assignments_filter_idx" ON "content"."facet_assignments" USING btree ("tenant_id","facet_key","facet_value");--> statement-breakpoint
CREATE INDEX "media_assets_item_idx" ON "content"."media_assets" USING btree ("tenant_id","content_id","created_at");