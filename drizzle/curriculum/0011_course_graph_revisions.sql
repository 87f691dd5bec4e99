CREATE TABLE "curriculum"."course_graph_revisions" (
	"tenant_id" text NOT NULL,
	"course_id" text NOT NULL,
	"revision" bigint NOT NULL,
	CONSTRAINT "course_graph_revisions_tenant_id_course_id_pk" PRIMARY KEY("tenant_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "curriculum"."course_approvals" ADD COLUMN "graph_revision" bigint;--> statement-breakpoint
ALTER TABLE "curriculum"."course_approvals" ADD COLUMN "route_component_id" text;