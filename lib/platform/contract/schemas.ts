import { z } from 'zod';
import { hasControlCharacter } from '@/lib/platform/http';
import { withinEmailLengths } from './email';

export const ErrorBody = z
  .object({
    code: z.string().meta({ description: 'Stable machine-readable token, e.g. validation_error.' }),
    message: z.string().meta({ description: 'Human-readable explanation.' }),
    field: z.string().nullable().meta({ description: 'Dotted path of the offending field (items.2.vat_rate), when known.' }),
    errors: z
      .array(
        z.object({
          rule: z.string().meta({ description: 'The rule broken, as its authors name it: BR-CO-10, BR-FR-12, FX-SCH-A-000226, XSD.' }),
          message: z.string().meta({ description: 'What the rule requires, in its authors’ words.' }),
          field: z.string().nullable().meta({ description: 'The business term (BT-106) the rule concerns, else where in the XML it failed.' }),
          layer: z.enum(['xsd', 'en16931', 'facturx', 'br-fr']).meta({ description: 'Factur-X XSD, CEN EN 16931, Factur-X 1.0.9 or French BR-FR schematron.' }),
        }),
      )
      .optional()
      .meta({ description: 'einvoice_invalid only: every rule the document\'s Factur-X breaks.' }),
  })
  .meta({ id: 'Error' });

export const Uuid = z.uuid();
export const Timestamp = z.iso.datetime({ offset: true }).meta({ description: 'RFC 3339 timestamp.' });
/** An id in a path: any case is the same UUID, so it is read in lower case (the form the API writes and compares). */
export const PathId = z.uuid().toLowerCase().meta({ description: 'The id (a UUID) of what the path names: the resource before it.' });
export const IdParams = z.object({ id: PathId });

export const pageOf = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item).meta({ description: 'This page’s items, newest first.' }),
      meta: z
        .object({ next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last.' }) })
        .meta({ description: 'Where the next page starts.' }),
    })
    .meta({ id });

/** Lone UTF-16 surrogates cannot be canonicalized (RFC 8785) nor stored as valid UTF-8. */
export const wellFormed = (s: string) => !/\p{Cs}/u.test(s) && !hasControlCharacter(s);

/** Optional free text: trimmed, blank becomes null. */
export const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, { error: `at most ${max} characters` })
    .refine(wellFormed, { error: 'contains an invalid character' })
    .transform((s) => (s === '' ? null : s))
    .nullish();

/**
 * An e-mail address: trimmed, lower-cased, z.email's syntax within RFC 5321's lengths (an address no mail server
 * takes is refused here, not by the provider after the envelope is made). z.email refuses control characters.
 */
export const EmailAddress = z
  .string({ error: 'must be an e-mail address' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'must be an e-mail address' }).refine(withinEmailLengths, { error: 'must be an e-mail address of at most 254 characters, 64 before the @' }));

export const IsoDate = z.iso.date({ error: 'must be a date YYYY-MM-DD' }).meta({ description: 'Calendar date YYYY-MM-DD (Europe/Paris).' });

export const nullableString = z.string().nullable();
