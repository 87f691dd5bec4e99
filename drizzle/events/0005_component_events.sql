-- A gate reads one student's events on one curriculum component (the player's component_id
-- extension): on the student's index alone that walked the student's whole history. Partial: events
-- about no component cost no insertion. IF NOT EXISTS: on a large PostgreSQL table an operator may build it first
-- with CREATE INDEX CONCURRENTLY under this name and definition, so the start that applies this does not hold
-- event writes for the build.
CREATE INDEX IF NOT EXISTS "learning_events_component_idx" ON "events"."learning_events" USING btree ("tenant_id",("extensions" ->> 'urn:alpha:events:player/component_id'),"student_id","seq") WHERE ("events"."learning_events"."extensions" ->> 'urn:alpha:events:player/component_id') is not null;