import type { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import type { OrgInvitationData } from './data';
import { Action, Facts, Layout, P } from './layout';
import type { Language } from './nouns';
import type { RenderedTemplate } from './types';

type Data = z.output<typeof OrgInvitationData>;

const COPY = {
  fr: {
    subject: (d: Data) => `${d.inviter} vous invite sur Paraphe (${d.org_name})`,
    heading: 'Vous êtes invité',
    roles: { owner: 'propriétaire', admin: 'administrateur', member: 'membre', accountant: 'comptable (lecture seule)' },
    body: (d: Data, role: string) => `${d.inviter} vous invite à rejoindre ${d.org_name} sur Paraphe, en tant que ${role}.`,
    accountant:
      'Vous pourrez consulter les devis, factures, avoirs, contacts et factures reçues, télécharger leurs PDF et les exports comptables (FEC, CSV). Vous ne pourrez rien modifier.',
    facts: { org: 'Organisation', role: 'Rôle', until: 'Lien valable jusqu’au' },
    accept: 'Accepter l’invitation',
    footer: 'Si vous n’attendiez pas cette invitation, ignorez ce message : sans votre clic, rien ne se passe.',
  },
  en: {
    subject: (d: Data) => `${d.inviter} invites you to Paraphe (${d.org_name})`,
    heading: 'You are invited',
    roles: { owner: 'owner', admin: 'administrator', member: 'member', accountant: 'accountant (read-only)' },
    body: (d: Data, role: string) => `${d.inviter} invites you to join ${d.org_name} on Paraphe, as ${role}.`,
    accountant: 'You will see the quotes, invoices, credit notes, contacts and received invoices, and download their PDFs and the accounting exports. You will not be able to change anything.',
    facts: { org: 'Organisation', role: 'Role', until: 'Link valid until' },
    accept: 'Accept the invitation',
    footer: 'If you did not expect this invitation, ignore this message: nothing happens unless you click.',
  },
} as const;

/** Sent to the person an owner or admin invites into their org (the link sets their password, or adds the org to their account). */
export function orgInvitation(d: Data, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const role = c.roles[d.role];
  const body = c.body(d, role);
  return {
    subject: c.subject(d),
    element: (
      <Layout lang={lang} seller="Paraphe" preview={body} heading={c.heading} footer={c.footer}>
        <P>{body}</P>
        {d.role === 'accountant' && <P>{c.accountant}</P>}
        <Facts
          rows={[
            [c.facts.org, d.org_name],
            [c.facts.role, role],
            [c.facts.until, formatInstant(d.expires_at, { lang })],
          ]}
        />
        <Action href={d.accept_url} label={c.accept} />
      </Layout>
    ),
  };
}
