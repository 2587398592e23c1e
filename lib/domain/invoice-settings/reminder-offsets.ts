import { z } from 'zod';

/**
 * The reminder ladders an org sets in its invoice settings: day offsets relative to the due date (payment) or the
 * validity date (quote expiry). lib/domain/reminders schedules them.
 */
export const DEFAULT_PAYMENT_REMINDER_OFFSETS = [-3, 1, 7, 15, 30];
export const DEFAULT_QUOTE_EXPIRY_REMINDER_OFFSETS = [-7, -2];
export const MAX_LADDER_STEPS = 10;

const offsets = (min: number, max: number, fallback: number[], anchor: string) =>
  z
    .array(
      z
        .number({ error: 'must be an integer number of days' })
        .int({ error: 'must be an integer number of days' })
        .min(min, { error: `must be at least ${min} (days from the ${anchor})` })
        .max(max, { error: `must be at most ${max} (days from the ${anchor})` }),
      { error: 'must be an array of day offsets' },
    )
    // Normalized: the ladder is a set of days, in order.
    .transform((days) => [...new Set(days)].sort((a, b) => a - b))
    .refine((days) => days.length <= MAX_LADDER_STEPS, { error: `at most ${MAX_LADDER_STEPS} steps` })
    .default(fallback);

export const PaymentReminderOffsets = offsets(-90, 365, DEFAULT_PAYMENT_REMINDER_OFFSETS, 'due date').meta({
  type: 'array',
  items: { type: 'integer' },
  description:
    `Payment-reminder ladder: days relative to the due date (negative before it), integers from -90 to 365, at most ${MAX_LADDER_STEPS}; ` +
    'stored sorted and deduplicated. [] sends no automatic payment reminder.',
});

export const QuoteExpiryReminderOffsets = offsets(-90, 0, DEFAULT_QUOTE_EXPIRY_REMINDER_OFFSETS, 'validity date').meta({
  type: 'array',
  items: { type: 'integer' },
  description:
    `Quote-expiry ladder: days relative to the validity date (0 = its last day), integers from -90 to 0, at most ${MAX_LADDER_STEPS}; ` +
    'stored sorted and deduplicated. [] sends no quote-expiry reminder.',
});

