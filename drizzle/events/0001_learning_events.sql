CREATE TABLE "events"."attendance_events" (
	"tenant_id" text NOT NULL,
	"attendance_event_id" uuid NOT NULL,
	"student_id" text NOT NULL,
	"school_id" text NOT NULL,
	"class_id" text,
	"event_date" date NOT NULL,
	"category" text NOT NULL,
	"category_descriptor" text NOT NULL,
	"duration_days" double precision,
	"session_name" text,
	"school_year" text,
	"source_system" text NOT NULL,
	"source_record_id" text,
	"import_id" uuid NOT NULL,
	"raw_payload" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "attendance_events_tenant_id_attendance_event_id_pk" PRIMARY KEY("tenant_id","attendance_event_id")
);
--> statement-breakpoint
CREATE TABLE "events"."discipline_events" (
	"tenant_id" text NOT NULL,
	"discipline_event_id" uuid NOT NULL,
	"incident_id" text NOT NULL,
	"student_id" text NOT NULL,
	"school_id" text NOT NULL,
	"event_date" date NOT NULL,
	"incident_time" text,
	"behavior" text NOT NULL,
	"behavior_descriptor" text NOT NULL,
	"participation_code" text,
	"participation_code_descriptor" text,
	"location" text,
	"location_descriptor" text,
	"discipline_action" text,
	"discipline_action_descriptor" text,
	"reporter_description" text,
	"reporter_description_descriptor" text,
	"source_system" text NOT NULL,
	"source_record_id" text,
	"import_id" uuid NOT NULL,
	"raw_payload" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "discipline_events_tenant_id_discipline_event_id_pk" PRIMARY KEY("tenant_id","discipline_event_id")
);
--> statement-breakpoint
CREATE TABLE "events"."learning_events" (
	"tenant_id" text NOT NULL,
	"event_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"student_id" text,
	"content_id" text,
	"org_id" text,
	"activity_source_id" uuid NOT NULL,
	"happened_at" timestamp with time zone NOT NULL,
	"source_event_id" text,
	"event_type" text NOT NULL,
	"profile" text NOT NULL,
	"action" text NOT NULL,
	"actor_ref" jsonb NOT NULL,
	"object_ref" jsonb NOT NULL,
	"extensions" jsonb NOT NULL,
	"raw_payload" jsonb NOT NULL,
	"import_id" uuid,
	CONSTRAINT "learning_events_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "events"."source_imports" (
	"tenant_id" text NOT NULL,
	"import_id" uuid NOT NULL,
	"label" text,
	"source_system" text NOT NULL,
	"adapter" text NOT NULL,
	"status" text NOT NULL,
	"accepted_count" integer NOT NULL,
	"materialized_count" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "source_imports_tenant_id_import_id_pk" PRIMARY KEY("tenant_id","import_id")
);
--> statement-breakpoint
CREATE INDEX "attendance_events_date_idx" ON "events"."attendance_events" USING btree ("tenant_id","event_date","attendance_event_id");--> statement-breakpoint
CREATE INDEX "attendance_events_student_idx" ON "events"."attendance_events" USING btree ("tenant_id","student_id","event_date");--> statement-breakpoint
CREATE INDEX "discipline_events_date_idx" ON "events"."discipline_events" USING btree ("tenant_id","event_date","discipline_event_id");--> statement-breakpoint
CREATE INDEX "discipline_events_student_idx" ON "events"."discipline_events" USING btree ("tenant_id","student_id","event_date");--> statement-breakpoint
CREATE UNIQUE INDEX "learning_events_seq_idx" ON "events"."learning_events" USING btree ("tenant_id","seq");--> statement-breakpoint
CREATE INDEX "learning_events_recorded_idx" ON "events"."learning_events" USING btree ("tenant_id","recorded_at");--> statement-breakpoint
CREATE INDEX "learning_events_student_idx" ON "events"."learning_events" USING btree ("tenant_id","student_id","seq");--> statement-breakpoint
CREATE INDEX "learning_events_content_idx" ON "events"."learning_events" USING btree ("tenant_id","content_id","seq");