#!/usr/bin/env bash
# The README's tour, runnable as it stands: `npm run tour` (or `bash scripts/tour.sh http://host:port`)
# against a running platform with the demo tenant seeded (`npm start`). Each step prints the HTTP
# status it got and the one it expected; a step answering anything else stops the tour with exit 1.
# It can be run again and again: every run makes its own item, lesson and KCs.
set -euo pipefail

BASE=${1:-${BASE:-http://127.0.0.1:4000}}
CURRICULUM=$BASE/curriculum/alpha/implementation/api
CONTENT=$BASE/content/alpha/implementation/api
EVENTS=$BASE/events/alpha/implementation/api
RUN=$(node -e 'console.log(require("node:crypto").randomUUID().slice(0, 8))')
BODY=$(mktemp)
trap 'rm -f "$BODY"' EXIT

# call EXPECTED_STATUS DESCRIPTION curl-arguments...: prints "<status> (expected <status>) <description>"
# and the answer's body; the body stays in $BODY for the next step to read.
call() {
  local expected=$1 description=$2
  shift 2
  local status
  status=$(curl -s -o "$BODY" -w '%{http_code}' "$@")
  printf '\n%s (expected %s) %s\n' "$status" "$expected" "$description"
  head -c 600 "$BODY"
  echo
  if [ "$status" != "$expected" ]; then
    echo "tour: step '$description' answered $status, expected $expected" >&2
    exit 1
  fi
}
# field NAME: a top-level field of the last answer.
field() { node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]])' "$BODY" "$1"; }
new_key() { echo "tour-$RUN-$1"; }
# holds MESSAGE CONDITION [ARGS...]: stops the tour with MESSAGE unless CONDITION (JavaScript over the last answer `a`
# and the arguments `args`) is true.
holds() {
  local message=$1 condition=$2
  shift 2
  node -e "const a = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8')); const args = process.argv.slice(2);
    process.exit(($condition) ? 0 : 1);" "$BODY" "$@" || { echo "tour: $message" >&2; exit 1; }
}

# 1. A demo token (works on every service; any other tenantId is refused). Minted at the events root, whose answer
# also names the demo tenant's registered activity source (step 10: a demo token may not register one).
call 200 'mint a demo token' -X POST "$EVENTS/dev/mint?tenantId=demo"
TOKEN=$(field token)
SOURCE=$(field defaultActivitySourceId)
AUTH=(-H "Authorization: Bearer $TOKEN")
JSON=(-H 'Content-Type: application/json')

# 2. The seeded course, and one lesson with its exact content pin.
call 200 'the seeded course tree' "$CURRICULUM/alpha/curriculum/v1/courses/demo-course-fractions/tree" "${AUTH[@]}"
call 200 'one lesson with its exact pin' "$CURRICULUM/alpha/curriculum/v1/components/demo-lesson-what-is-a-fraction" "${AUTH[@]}"

# 3. Author content: an item (Idempotency-Key required), then an exact version.
call 201 'create an article' -X POST "$CONTENT/tenants/demo/alpha/content/items" "${AUTH[@]}" "${JSON[@]}" \
  -H "Idempotency-Key: $(new_key item)" \
  -d '{"content_kind":"article","title":"Equivalent fractions","status":"published","subject_id":"math"}'
ITEM=$(field content_id)
call 201 'append an exact version' -X POST "$CONTENT/tenants/demo/alpha/content/items/$ITEM/versions" "${AUTH[@]}" "${JSON[@]}" \
  -d '{"student_view":{"blocks":[{"type":"text","text":"1/2 = 2/4","order":0}]}}'
VERSION=$(field version_id)
ELIGIBILITY="$CONTENT/tenants/demo/alpha/content/items/$ITEM/versions/$VERSION/release-eligibility"

# 4. Not eligible yet, on purpose: nobody has trusted it (the problem content.version_not_serveable).
call 409 'release eligibility before review (refused on purpose)' "$ELIGIBILITY" "${AUTH[@]}"

# 5. A QC reviewer, who is not the author, trusts it (each mint is a new identity).
call 200 'mint a second identity, the reviewer' -X POST "$CONTENT/dev/mint?tenantId=demo"
REVIEWER=$(field token)
call 201 'the reviewer trusts the version' -X POST "$CONTENT/tenants/demo/alpha/content/items/$ITEM/versions/$VERSION/qc-decisions" \
  -H "Authorization: Bearer $REVIEWER" "${JSON[@]}" -d '{"trust_status":"trusted","reason":"checked"}'
call 200 'release eligibility after review' "$ELIGIBILITY" "${AUTH[@]}"

# 6. Pin that exact version from a curriculum lesson (curriculum asks content over HTTP first).
LESSON=tour-lesson-$RUN
call 201 'a lesson pinning the exact version' -X POST "$CURRICULUM/alpha/curriculum/v1/components" "${AUTH[@]}" "${JSON[@]}" \
  -d "{\"component_id\":\"$LESSON\",\"kind\":\"lesson\",\"parent_component_id\":\"demo-unit-understanding-fractions\",\
\"alpha\":{\"target_ref\":{\"module\":\"content\",\"content_kind\":\"article\",\"content_id\":\"$ITEM\",\
\"content_version_id\":\"$VERSION\"}}}"

# 7. Two registry KCs, and a prerequisite edge between them (a reverse edge would be 409 prerequisite_cycle).
KC=$CURRICULUM/alpha/curriculum/v1/kcs
kc_body() { echo "{\"stored_as\":\"alpha.knowledge_component\",\"definition\":\"$1\",\"alpha\":{\"subject_id\":\"math\",\"kc_kind\":\"substantive\"}}"; }
call 201 'KC A' -X POST "$KC" "${AUTH[@]}" "${JSON[@]}" -H "Idempotency-Key: $(new_key kc-a)" -d "$(kc_body 'Name the parts of a fraction')"
A=$(field kc_id)
call 201 'KC B' -X POST "$KC" "${AUTH[@]}" "${JSON[@]}" -H "Idempotency-Key: $(new_key kc-b)" -d "$(kc_body 'Compare unit fractions')"
B=$(field kc_id)
call 201 'A is a prerequisite of B' -X POST "$CURRICULUM/alpha/curriculum/v1/kc-prerequisites" "${AUTH[@]}" "${JSON[@]}" \
  -H "Idempotency-Key: $(new_key edge)" -d "{\"prerequisite_kc_id\":\"$A\",\"dependent_kc_id\":\"$B\"}"
call 409 'the reverse edge B -> A (refused on purpose: prerequisite_cycle)' \
  -X POST "$CURRICULUM/alpha/curriculum/v1/kc-prerequisites" "${AUTH[@]}" "${JSON[@]}" \
  -H "Idempotency-Key: $(new_key reverse-edge)" -d "{\"prerequisite_kc_id\":\"$B\",\"dependent_kc_id\":\"$A\"}"

# 8. Retiring A needs its ETag, and is refused (409 kc_in_use, naming the edge) while the edge is active.
call 200 'read KC A with its ETag' "$KC/$A" "${AUTH[@]}"
ETAG=$(field etag)
call 409 'retire KC A while the edge is active (refused on purpose: kc_in_use)' -X DELETE "$KC/$A" "${AUTH[@]}" \
  -H "If-Match: $ETAG" -H "Idempotency-Key: $(new_key retire)"

# 9. The headline GraphQL query: the new lesson, its pinned version and that version's live eligibility.
QUERY='query($id: ID!) { component(componentId: $id) { componentId alpha { targetRef { version { versionNumber releaseEligibility { releaseEligible trustStatus problemCode } } } } } }'
call 200 'the headline GraphQL query' "$BASE/graphql" "${AUTH[@]}" "${JSON[@]}" \
  -d "{\"query\":\"$QUERY\",\"variables\":{\"id\":\"$LESSON\"}}"
holds 'the headline query did not answer an eligible version' \
  '!a.errors && a.data.component.alpha.targetRef.version.releaseEligibility.releaseEligible === true'

# 10. A learning event about the new item, sent as a player would, naming the activity source from step 1. A player
# needs only the ids of what it recorded: Prefer: return=minimal answers those instead of the whole events.
STUDENT=tour-student-$RUN
call 202 'a content_viewed event from the player' -X POST "$EVENTS/events" "${AUTH[@]}" "${JSON[@]}" \
  -H 'Prefer: return=minimal' \
  -d "{\"events\":[{\"kind\":\"content_viewed\",\"studentId\":\"$STUDENT\",\"contentId\":\"$ITEM\",\
\"activitySourceId\":\"$SOURCE\",\"happenedAt\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}]}"
holds 'the minimal answer is not the event id and commit time' \
  'a.data.length === 1 && Object.keys(a.data[0]).join() === "id,modifiedAt"'
EVENT=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).data[0].id)' "$BODY")
call 200 "the student's events, read back" "$EVENTS/events?studentId=$STUDENT" "${AUTH[@]}"
holds 'the event did not read back' \
  'a.data.length === 1 && a.data[0].id === args[0] && a.data[0].contentId === args[1]' "$EVENT" "$ITEM"

# 11. The learner side: next-lesson routes only on an approval of the course as it is now. Step 6 added a lesson, so
# the demo course has no such approval yet (course_not_approved on a fresh platform, approval_stale after that).
NEXT="$CURRICULUM/alpha/curriculum/v1/courses/demo-course-fractions/next-lesson"
call 409 'next lesson before the course is approved (refused on purpose)' "$NEXT" "${AUTH[@]}"
holds 'next-lesson was not refused for want of a current approval' \
  '["curriculum:course_not_approved", "curriculum:approval_stale"].includes(a.code)'
call 201 'approve the course: a snapshot of its graph and exact KC versions' \
  -X POST "$CURRICULUM/alpha/curriculum/v1/courses/demo-course-fractions/approvals" "${AUTH[@]}" "${JSON[@]}" \
  -H "Idempotency-Key: $(new_key approval)" \
  -d '{"approved_by":"tour-reviewer","provenance":{"source":"tour","course_ref":"demo-course-fractions"}}'
call 200 'the next lesson of the approved course' "$NEXT" "${AUTH[@]}"
holds 'next-lesson did not name the first ordered lesson with its pinned version' \
  'a.component.component_id === "demo-lesson-what-is-a-fraction" && a.component.alpha.target_ref.content_version_id'

printf '\nThe tour ran to the end.\n'
