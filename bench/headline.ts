/** The demo lesson every bench scenario reads, and issue 18's headline federated query of it. */
export const LESSON_ID = 'demo-lesson-what-is-a-fraction';
export const HEADLINE = `query($id: ID!) { component(componentId: $id) { componentId kind alpha { targetRef { contentId contentVersionId contentKind version { versionId versionNumber releaseEligibility { contentId contentVersionId releaseEligible serveable trustStatus usageScope problemCode } } } } } }`;
