-- modifiedSince finds its first event by a binary search over (tenant_id, seq), since recorded_at never
-- goes back as seq grows: an index on recorded_at cost every stored event a fifth index insertion.
DROP INDEX "events"."learning_events_recorded_idx";
