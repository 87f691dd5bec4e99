-- A component inserted without a parent is the root of its own course graph: the walk up from it
-- finds only itself, so its revision is advanced directly (the same row and value as the walk gave;
-- on a write of a fresh root the walk's recursive query was a third of the insert's cost).
CREATE OR REPLACE FUNCTION "curriculum"."advance_course_graph_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant text;
  starts text[];
BEGIN
  IF TG_OP = 'INSERT' AND NEW.parent_component_id IS NULL THEN
    INSERT INTO "curriculum"."course_graph_revisions" AS current (tenant_id, course_id, revision)
      VALUES (NEW.tenant_id, NEW.component_id, 1)
    ON CONFLICT (tenant_id, course_id) DO UPDATE SET revision = current.revision + 1;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    tenant := NEW.tenant_id;
    starts := ARRAY[coalesce(NEW.parent_component_id, NEW.component_id)];
  ELSIF TG_OP = 'DELETE' THEN
    tenant := OLD.tenant_id;
    starts := ARRAY[coalesce(OLD.parent_component_id, OLD.component_id)];
  ELSE
    tenant := NEW.tenant_id;
    starts := ARRAY[coalesce(OLD.parent_component_id, OLD.component_id), coalesce(NEW.parent_component_id, NEW.component_id)];
  END IF;
  INSERT INTO "curriculum"."course_graph_revisions" AS current (tenant_id, course_id, revision)
    WITH RECURSIVE up(component_id, parent_id) AS (
      SELECT c.component_id, c.parent_component_id FROM "curriculum"."components" c
      WHERE c.tenant_id = tenant AND c.component_id = ANY (starts)
      UNION
      SELECT p.component_id, p.parent_component_id FROM up CROSS JOIN LATERAL (
        SELECT component_id, parent_component_id FROM "curriculum"."components"
        WHERE tenant_id = tenant AND component_id = up.parent_id OFFSET 0
      ) p
    )
    SELECT DISTINCT tenant, up.component_id, 1 FROM up WHERE up.parent_id IS NULL
  ON CONFLICT (tenant_id, course_id) DO UPDATE SET revision = current.revision + 1;
  RETURN NULL;
END $$;
