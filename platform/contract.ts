/**
 * Vocabulary that crosses service boundaries through the published APIs (a curriculum pin names
 * a content kind), written once so both sides of the contract agree.
 */
export const CONTENT_KINDS = [
  'question', 'test', 'test_spec', 'test_bank', 'article', 'video', 'audio', 'image',
  'interactive', 'media_asset', 'external_link', 'script',
] as const;
