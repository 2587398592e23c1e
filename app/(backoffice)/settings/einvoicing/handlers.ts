import { type ConnectionTestResult, EnrollmentInput, getEnrollment, type PaErrorKind, requestEnrollment, testPaConnection } from '@/lib/domain/einvoicing';
import { fieldErrors } from '@/lib/platform/errors';
import { refuse, type StaffContext } from '@/lib/platform/next';
import { getInvoiceSettings, InvoiceSettingsInput, putInvoiceSettings, SECRET_MASK } from '@/lib/domain/invoice-settings';

/*
 * What Réglages → Facturation électronique's actions do, apart from their wrappers (actions.ts adds revalidation):
 * the PA connection (pdp_config, the secret kept when left blank) and the directory enrollment.
 */

export const SETTINGS_PATH = '/settings/einvoicing';
export const ADMIN_ONLY = 'Seuls le propriétaire et les administrateurs règlent la facturation électronique.';

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** « Enregistrer »: pdp_config from the form (a blank secret keeps the stored one) and the e-invoicing switch; the other settings as stored. */
export async function savePlatform({ db, orgId }: StaffContext, form: FormData) {
  const current = await getInvoiceSettings(db, orgId);
  const { org_id: _o, created_at: _c, updated_at: _u, ...kept } = current;
  const storedSecret = typeof current.pdp_config?.client_secret === 'string' ? current.pdp_config.client_secret : '';
  const secret = text(form, 'client_secret');
  const fields = ['base_url', 'token_url', 'client_id'].map((name) => text(form, name));
  const empty = fields.every((v) => v === '') && secret === '';
  const pdp_config = empty
    ? null
    : {
        provider: 'afnor',
        base_url: fields[0],
        token_url: fields[1] || null,
        client_id: fields[2],
        // Blank: the stored secret, as GET shows it (masked), which keeps it.
        client_secret: secret || (storedSecret.startsWith(SECRET_MASK) ? storedSecret : ''),
      };
  const parsed = InvoiceSettingsInput.safeParse({ ...kept, einvoicing_enabled: form.get('einvoicing_enabled') === 'on', pdp_config });
  if (!parsed.success) refuse(fieldErrors(parsed.error));
  await putInvoiceSettings(db, orgId, parsed.data);
  return { done: pdp_config ? 'Plateforme agréée enregistrée.' : 'Connexion à la plateforme agréée supprimée.' };
}

const STEP_LABELS: Record<ConnectionTestResult['checks'][number]['step'], string> = {
  token: 'Jeton OAuth (identifiant et secret client)',
  flow: 'Service Flow (dépôt et suivi des factures)',
  directory: 'Service Annuaire',
};

const FAILURES: Record<PaErrorKind, (status: number | null) => string> = {
  unreachable: () => 'impossible de joindre la plateforme à cette adresse (adresse, port ou réseau)',
  timeout: () => 'pas de réponse de la plateforme dans les 10 secondes',
  auth: () => 'identifiant ou secret client refusé par la plateforme',
  rejected: (status) => `requête refusée par la plateforme${status ? ` (HTTP ${status})` : ''} : vérifiez les adresses`,
  not_found: () => 'rien à cette adresse chez la plateforme (HTTP 404) : vérifiez l’adresse de l’API',
  rate_limited: () => 'la plateforme limite les demandes (HTTP 429) : réessayez plus tard',
  server: (status) => `erreur de la plateforme${status ? ` (HTTP ${status})` : ''} : réessayez plus tard`,
  invalid_response: () => 'réponse inattendue de la plateforme : est-ce bien une interface AFNOR XP Z12-013 ?',
};

export interface ConnectionView {
  ok: boolean;
  summary: string;
  checks: Array<{ step: string; label: string; outcome: 'ok' | 'failed' | 'skipped'; text: string }>;
}

/**
 * « Tester la connexion »: the fields as typed (a blank secret: the stored one) tried on the PA, nothing saved; each
 * step said in French — what worked, what failed and why, what was not tried after a failure.
 */
export async function testPlatform({ db, orgId }: StaffContext, fields: Record<string, string>): Promise<ConnectionView> {
  const field = (name: string) => String(fields[name] ?? '').trim();
  const result = await testPaConnection(db, orgId, {
    base_url: field('base_url'),
    token_url: field('token_url') || null,
    client_id: field('client_id'),
    client_secret: field('client_secret') || null,
  });
  const checks = result.checks.map((c) => ({
    step: c.step,
    label: STEP_LABELS[c.step],
    outcome: c.outcome,
    text: c.outcome === 'ok' ? 'répond' : c.outcome === 'skipped' ? 'non testé' : FAILURES[c.error!.kind](c.error!.status),
  }));
  const failed = checks.find((c) => c.outcome === 'failed');
  return {
    ok: result.ok,
    summary: failed
      ? `La connexion a échoué : ${failed.label} — ${failed.text}. Rien n’a été enregistré.`
      : `Connexion réussie à ${result.base_url} : le jeton, le service Flow et l’annuaire répondent. Enregistrez pour la garder.`,
    checks,
  };
}

/** « S’inscrire à l’annuaire »: blank identifiers take the organisation’s legal identity. */
export async function enroll({ db, orgId }: StaffContext, form: FormData) {
  const parsed = EnrollmentInput.safeParse({ siren: text(form, 'siren') || null, siret: text(form, 'siret') || null, routing_code: text(form, 'routing_code') || null });
  if (!parsed.success) refuse(fieldErrors(parsed.error));
  const { body } = await requestEnrollment(db, orgId, parsed.data);
  return {
    done:
      body.status === 'enrolled'
        ? `Inscription confirmée : votre adresse de facturation électronique est ${body.electronic_address}.`
        : 'Inscription demandée : la plateforme agréée doit la confirmer (vérifiée chaque minute).',
  };
}

export { getEnrollment };
