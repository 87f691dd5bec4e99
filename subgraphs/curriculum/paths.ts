/** Data paths of the curriculum service, relative to {curriculum_root}. */
export const CURRICULUM_V1 = '/alpha/curriculum/v1';
