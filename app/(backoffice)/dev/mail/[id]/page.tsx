import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Fragment } from 'react';
import { z } from 'zod';
import { EmailStatusChip } from '@/components/email/email-log';
import { getEmail } from '@/lib/platform/email';
import { ApiError } from '@/lib/platform/errors';
import { formatInstant } from '@/lib/platform/format';
import { requireStaffOrg } from '@/lib/platform/next';
import { formatSize, TEMPLATE_LABELS } from '../labels';
import { EmptyState } from '@/components/ui';

export const metadata: Metadata = { title: 'E-mail' };

const LANGUAGES = { fr: 'français', en: 'anglais' } as const;

/** One e-mail as its recipient sees it: the HTML in a sandboxed frame (no script, no access to this page), the text version, the attachments. */
export default async function EmailPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffOrg();
  const { id } = await params;
  if (!z.uuid().safeParse(id).success) notFound();
  const email = await getEmail(staff.db, staff.orgId, id).catch((err) => {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  });
  const rows: Array<[string, string]> = [
    ['De', email.from],
    ['À', email.to.join(', ')],
    ...(email.cc.length ? [['Cc', email.cc.join(', ')] as [string, string]] : []),
    ...(email.reply_to ? [['Répondre à', email.reply_to] as [string, string]] : []),
    ['Créé', (formatInstant(email.created_at) || '—')],
    ['Envoyé', (formatInstant(email.sent_at) || '—')],
    ...(email.delivered_at ? [['Délivré', (formatInstant(email.delivered_at) || '—')] as [string, string]] : []),
    ['Modèle', `${TEMPLATE_LABELS[email.template]} (${LANGUAGES[email.language]})`],
    ['Transport', email.transport === 'outbox' ? 'boîte d’envoi (aucun fournisseur)' : `Resend${email.provider_id ? ` · ${email.provider_id}` : ''}`],
    ['Tentatives', String(email.attempts)],
    ...(email.last_error ? [['Dernière erreur', email.last_error] as [string, string]] : []),
  ];
  return (
    <>
      <div className="page-header">
        <div>
          <p className="muted">
            <Link href="/dev/mail">Boîte d’envoi</Link> /
          </p>
          <h1>{email.subject}</h1>
          <div className="toolbar">
            <EmailStatusChip status={email.status} />
          </div>
        </div>
      </div>
      <section className="card">
        <dl className="props">
          {rows.map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      </section>
      <section className="card">
        <h2>Aperçu</h2>
        <iframe
          title="Aperçu de l’e-mail"
          sandbox=""
          srcDoc={email.html}
          style={{ width: '100%', height: 720, border: '1px solid var(--line)', borderRadius: 6, background: '#fff' }}
        />
      </section>
      <div className="grid-2">
        <section className="card">
          <h2>Version texte</h2>
          <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 13 }}>{email.text}</pre>
        </section>
        <section className="card">
          <h2>Pièces jointes</h2>
          {email.attachments.length === 0 ? (
            <EmptyState>Aucune pièce jointe.</EmptyState>
          ) : (
            <ul>
              {email.attachments.map((a) => (
                <li key={a.filename}>
                  <strong>{a.filename}</strong> <span className="muted">· {a.content_type} · {formatSize(a.size)}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}
