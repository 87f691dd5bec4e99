CREATE TABLE "curriculum"."standard_kc_maps" (
	"tenant_id" text NOT NULL,
	"map_id" uuid NOT NULL,
	"source_release_id" uuid NOT NULL,
	"standards_framework_id" uuid NOT NULL,
	"standard_id" text NOT NULL,
	"kc_id" uuid NOT NULL,
	"relationship" text NOT NULL,
	"match_type" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "standard_kc_maps_tenant_id_map_id_pk" PRIMARY KEY("tenant_id","map_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."standards_frameworks" (
	"tenant_id" text NOT NULL,
	"standards_framework_id" uuid NOT NULL,
	"framework_identifier" text NOT NULL,
	"title" text NOT NULL,
	"creator" text,
	"subject_ids" jsonb NOT NULL,
	"language" text,
	"framework_version" text,
	"case_version" text,
	"current_release_id" uuid NOT NULL,
	"current_checksum" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "standards_frameworks_tenant_id_standards_framework_id_pk" PRIMARY KEY("tenant_id","standards_framework_id")
);
--> statement-breakpoint
CREATE TABLE "curriculum"."standards_releases" (
	"tenant_id" text NOT NULL,
	"release_id" uuid NOT NULL,
	"standards_framework_id" uuid NOT NULL,
	"checksum_sha256" text NOT NULL,
	"package" jsonb NOT NULL,
	"item_count" integer NOT NULL,
	"association_count" integer NOT NULL,
	"map_count" integer NOT NULL,
	"imported_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "standards_releases_tenant_id_release_id_pk" PRIMARY KEY("tenant_id","release_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "standard_kc_maps_pair_idx" ON "curriculum"."standard_kc_maps" USING btree ("tenant_id","source_release_id","standard_id","kc_id");--> statement-breakpoint
CREATE INDEX "standard_kc_maps_kc_idx" ON "curriculum"."standard_kc_maps" USING btree ("tenant_id","kc_id") WHERE retired_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "standards_frameworks_identifier_idx" ON "curriculum"."standards_frameworks" USING btree ("tenant_id","framework_identifier");--> statement-breakpoint
CREATE INDEX "standards_frameworks_updated_idx" ON "curriculum"."standards_frameworks" USING btree ("tenant_id","updated_at","standards_framework_id");--> statement-breakpoint
CREATE UNIQUE INDEX "standards_releases_checksum_idx" ON "curriculum"."standards_releases" USING btree ("tenant_id","checksum_sha256");