import { z } from 'zod';

/** The spec's "SEPA mandate status" (provider identifiers are never exposed). */
export const SepaMandateStatus = z
  .object({
    active: z.boolean().meta({ description: "true when the invoice's buyer contact has an active mandate." }),
    status: z.enum(['active']).nullable().meta({ description: "'active' when present; null when there is no active mandate." }),
  })
  .meta({ id: 'SepaMandateStatus' });

export const SepaMandateSetup = z
  .object({
    setup_url: z.string().meta({ description: "The provider's hosted page where the payer authorizes a SEPA mandate." }),
  })
  .meta({ id: 'SepaMandateSetup' });
