import { z } from 'zod';
import { withinEmailLengths } from '@/lib/platform/contract/client';

const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((s) => s || null)
    .nullish();

const digits = (n: number, label: string) =>
  z
    .string()
    .transform((s) => s.replace(/\s/g, ''))
    .pipe(z.string().regex(new RegExp(`^\\d{${n}}$`), `${label} must be ${n} digits.`))
    .nullish();

/** The seller's legal identity: what French law requires on every invoice it issues. */
export const OrgIdentityInput = z
  .object({
    name: z.string().trim().min(1, 'The organisation needs a name.').max(200),
    legal_name: optionalText(),
    legal_form: optionalText(60),
    share_capital_cents: z.number().int().min(0).nullish(),
    siren: digits(9, 'SIREN'),
    siret: digits(14, 'SIRET'),
    vat_number: z
      .string()
      .transform((s) => s.replace(/\s/g, '').toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/, 'VAT number must look like FR12345678901.'))
      .nullish(),
    rcs: optionalText(),
    address: optionalText(300),
    postal_code: optionalText(20),
    city: optionalText(),
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, 'Country must be an ISO 3166-1 alpha-2 code.')
      .default('FR'),
    email: z.email('E-mail address is malformed.').refine(withinEmailLengths, 'E-mail address is too long (RFC 5321).').nullish(),
    phone: optionalText(40),
  })
  .superRefine((org, ctx) => {
    if (org.siren && org.siret && !org.siret.startsWith(org.siren)) {
      ctx.addIssue({ code: 'custom', path: ['siret'], message: 'SIRET must start with the SIREN.' });
    }
  });
export type OrgIdentityInput = z.input<typeof OrgIdentityInput>;

export const Role = z.enum(['owner', 'admin', 'member', 'accountant']);
export type Role = z.infer<typeof Role>;

/** The read-only role (« comptable »): reads and downloads, changes nothing — refused by the action and route wrappers. */
export const readsOnly = (role: string | null | undefined): boolean => role === 'accountant';

export const CreateUserInput = z.object({
  email: z
    .email('E-mail address is malformed.')
    .refine(withinEmailLengths, 'E-mail address is too long (RFC 5321).')
    .transform((e) => e.trim().toLowerCase()),
  password: z.string().min(10, 'Password must be at least 10 characters.').max(200),
  name: optionalText(),
});
export type CreateUserInput = z.input<typeof CreateUserInput>;
