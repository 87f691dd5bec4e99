-- Test-serve authorization receipts are immutable.
CREATE TRIGGER "test_serve_authorizations_append_only" BEFORE UPDATE OR DELETE ON "content"."test_serve_authorizations"
  FOR EACH ROW EXECUTE FUNCTION "content"."refuse_append_only_change"();
