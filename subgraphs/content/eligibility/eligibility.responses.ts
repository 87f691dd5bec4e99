import { z } from 'zod';
import { ReleaseEligibilityAnswer } from '../../../platform/contract.ts';

/** The published answer's eight fields, and nothing else: the same schema its readers parse. */
export const ReleaseEligibilityResponse = z.strictObject(ReleaseEligibilityAnswer.shape);
