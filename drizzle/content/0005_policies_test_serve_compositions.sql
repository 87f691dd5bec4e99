CREATE TABLE "content"."interactive_compositions" (
	"tenant_id" text NOT NULL,
	"content_id" uuid NOT NULL,
	"composition" jsonb NOT NULL,
	"revision" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "interactive_compositions_tenant_id_content_id_pk" PRIMARY KEY("tenant_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "content"."policies" (
	"tenant_id" text NOT NULL,
	"policy_id" uuid NOT NULL,
	"policy_key" text NOT NULL,
	"status" text NOT NULL,
	"value" jsonb NOT NULL,
	"provisioned_by" text NOT NULL,
	"provisioned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "policies_tenant_id_policy_id_pk" PRIMARY KEY("tenant_id","policy_id")
);
--> statement-breakpoint
CREATE TABLE "content"."test_serve_authorizations" (
	"tenant_id" text NOT NULL,
	"authorization_id" uuid NOT NULL,
	"bank_content_id" uuid NOT NULL,
	"bank_version_id" uuid NOT NULL,
	"form_content_id" uuid NOT NULL,
	"form_version_id" uuid NOT NULL,
	"test_identity_id" text NOT NULL,
	"person_reality" text NOT NULL,
	"grant_policy_id" uuid NOT NULL,
	"producer_surface" text,
	"authorized_by" text NOT NULL,
	"authorized_at" timestamp with time zone NOT NULL,
	CONSTRAINT "test_serve_authorizations_tenant_id_authorization_id_pk" PRIMARY KEY("tenant_id","authorization_id")
);
--> statement-breakpoint
CREATE INDEX "policies_key_idx" ON "content"."policies" USING btree ("tenant_id","policy_key");