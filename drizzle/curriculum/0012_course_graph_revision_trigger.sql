-- Every change of a field of the canonical course graph (docs/decisions.md, "Course approvals"; the revision: "Next lesson") to a
-- component advances the revision of each course root above it, before and after the change, in the
-- writing transaction: a reparent advances both courses. Routing trusts an approval while the
-- course's revision equals the one the approval recorded. Ancestors are walked by parent pointer
-- whatever their status (advancing too often costs only a re-digest; too rarely would route on a
-- changed graph), and UNION stops on a loop. One index lookup per ancestor: OFFSET 0 keeps the lateral
-- lookup from being flattened into a join that stale statistics plan as a scan of the tenant's components.
CREATE FUNCTION "curriculum"."advance_course_graph_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant text;
  starts text[];
BEGIN
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
--> statement-breakpoint
CREATE TRIGGER "components_course_graph_membership" AFTER INSERT OR DELETE ON "curriculum"."components"
  FOR EACH ROW EXECUTE FUNCTION "curriculum"."advance_course_graph_revision"();
--> statement-breakpoint
CREATE TRIGGER "components_course_graph_change" AFTER UPDATE ON "curriculum"."components"
  FOR EACH ROW WHEN (
    OLD.parent_component_id IS DISTINCT FROM NEW.parent_component_id
    OR OLD.position IS DISTINCT FROM NEW.position
    OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.kind IS DISTINCT FROM NEW.kind
    OR OLD.student_id IS DISTINCT FROM NEW.student_id
    OR OLD.alpha -> 'publication_status' IS DISTINCT FROM NEW.alpha -> 'publication_status'
    OR OLD.alpha -> 'target_ref' IS DISTINCT FROM NEW.alpha -> 'target_ref'
    OR OLD.alpha -> 'scope_kc_refs' IS DISTINCT FROM NEW.alpha -> 'scope_kc_refs'
    OR OLD.alpha -> 'remediation_entries' IS DISTINCT FROM NEW.alpha -> 'remediation_entries'
    OR OLD.alpha -> 'kc_scope_decision' IS DISTINCT FROM NEW.alpha -> 'kc_scope_decision'
  )
  EXECUTE FUNCTION "curriculum"."advance_course_graph_revision"();
