/** The demo lesson every bench scenario reads, and issue 18's headline federated query of it. */
export const LESSON_ID = 'demo-lesson-what-is-a-fraction';
export const HEADLINE = `query($id: ID!) { component(componentId: $id) { componentId kind alpha { targetRef { contentId contentVersionId contentKind version { versionId versionNumber releaseEligibility { contentId contentVersionId releaseEligible serveable trustStatus usageScope problemCode } } } } } }`;
/** The headers of every bench request: the bench's token and a JSON body. */
export const benchHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});

/** The headline's request body, as every bench sends it. */
export const HEADLINE_BODY = JSON.stringify({ query: HEADLINE, variables: { id: LESSON_ID } });

/**
 * Asks the headline once and throws unless the answer is the lesson with its pinned version's live eligibility:
 * autocannon counts only non-2xx answers as failures, and a GraphQL error answers 200.
 */
export async function requireHeadlineAnswer(base: string, token: string, server: string): Promise<void> {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: benchHeaders(token),
    body: HEADLINE_BODY,
  });
  const text = await response.text();
  const answer = response.ok ? JSON.parse(text) : undefined;
  const eligibility = answer?.data?.component?.alpha?.targetRef?.version?.releaseEligibility;
  if (answer?.errors || answer?.data?.component?.componentId !== LESSON_ID || eligibility?.releaseEligible !== true) {
    throw new Error(`${server} did not answer the headline (${response.status}): ${text.slice(0, 500)}`);
  }
}
