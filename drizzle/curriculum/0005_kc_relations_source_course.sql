CREATE TABLE "curriculum"."kc_relations" (
	"tenant_id" text NOT NULL,
	"relation_id" uuid NOT NULL,
	"relation_type" text NOT NULL,
	"from_kc_id" uuid NOT NULL,
	"to_kc_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "kc_relations_tenant_id_relation_id_pk" PRIMARY KEY("tenant_id","relation_id")
);
--> statement-breakpoint
ALTER TABLE "curriculum"."components" ADD COLUMN "source_course_ref" text;--> statement-breakpoint
CREATE UNIQUE INDEX "kc_relations_triple_idx" ON "curriculum"."kc_relations" USING btree ("tenant_id","from_kc_id","to_kc_id","relation_type");--> statement-breakpoint
CREATE INDEX "kc_relations_to_idx" ON "curriculum"."kc_relations" USING btree ("tenant_id","to_kc_id");--> statement-breakpoint
CREATE INDEX "components_source_course_idx" ON "curriculum"."components" USING btree ("tenant_id","source_course_ref") WHERE source_course_ref is not null;