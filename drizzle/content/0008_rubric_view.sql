-- A rubric component's QTI view list, so that a scorer's rubric text reaches only answer-key readers. Rubrics projected
-- before it was kept have none, and count as answer-key material (docs/decisions.md, canonical_xml).
ALTER TABLE "content"."assessment_components" ADD COLUMN "view" text;
