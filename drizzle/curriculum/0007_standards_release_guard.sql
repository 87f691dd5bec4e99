-- Standards releases are frozen once imported.
CREATE TRIGGER "standards_releases_append_only" BEFORE UPDATE OR DELETE ON "curriculum"."standards_releases"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."refuse_append_only_change"();
