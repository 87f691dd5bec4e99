-- A learning event's raw payload is stored only when it says something its row does not: an event sent as exactly
-- the row's own fields (restatesRow in subgraphs/events/learning/events.service.ts) keeps null here, and the row is
-- the evidence. Storing it again was a third of each row's bytes and of the batch statement's JSON, for nothing.
ALTER TABLE "events"."learning_events" ALTER COLUMN "raw_payload" DROP NOT NULL;
