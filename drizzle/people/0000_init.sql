CREATE SCHEMA "people_standin";
--> statement-breakpoint
CREATE TABLE "people_standin"."persons" (
	"tenant_id" text NOT NULL,
	"person_id" text NOT NULL,
	"given_name" text NOT NULL,
	"family_name" text NOT NULL,
	"reality" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "persons_tenant_id_person_id_pk" PRIMARY KEY("tenant_id","person_id")
);
