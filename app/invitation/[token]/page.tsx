import type { Metadata } from 'next';
import { getDb } from '@/db/client';
import { Button, Field, Input } from '@/components/ui';
import { openInvitation } from '@/lib/platform/orgs';
import { invitationError } from './errors';

export const metadata: Metadata = { title: 'Invitation', robots: { index: false } };
export const dynamic = 'force-dynamic';

const ROLE_WORDS = { owner: 'propriétaire', admin: 'administrateur', member: 'membre', accountant: 'comptable, en lecture seule' } as const;

/**
 * /invitation/<token>: the link of an invitation e-mail. A new address chooses its password, an existing account
 * types its own; the form posts to ./accept (no script needed), which answers with the login page.
 */
export default async function InvitationPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | undefined>> }) {
  const { token } = await params;
  const query = await searchParams;
  const invitation = await openInvitation(await getDb(), token);
  const error = invitationError(query.error, query.field);
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <div className="brand">Paraphe</div>
        {!invitation ? (
          <>
            <h1>Invitation indisponible</h1>
            <p>Ce lien d’invitation a expiré, a été retiré ou a déjà servi. Demandez une nouvelle invitation à l’organisation.</p>
          </>
        ) : (
          <>
            <h1>Rejoindre {invitation.org_name}</h1>
            <p className="muted">
              Invitation pour {invitation.email}, en tant que {ROLE_WORDS[invitation.role]}.
            </p>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <form className="form" method="post" action={`/invitation/${token}/accept`}>
              {invitation.hasAccount ? (
                <Field id="invitation-password" label="Votre mot de passe Paraphe" hint="Vous avez déjà un compte : l’organisation s’y ajoute.">
                  <Input name="password" type="password" autoComplete="current-password" required />
                </Field>
              ) : (
                <>
                  <Field id="invitation-name" label="Votre nom">
                    <Input name="name" autoComplete="name" />
                  </Field>
                  <Field id="invitation-password" label="Mot de passe" hint="10 caractères au moins.">
                    <Input name="password" type="password" autoComplete="new-password" minLength={10} required />
                  </Field>
                  <Field id="invitation-password-confirmation" label="Mot de passe, à nouveau">
                    <Input name="password_confirmation" type="password" autoComplete="new-password" minLength={10} required />
                  </Field>
                </>
              )}
              <Button type="submit" variant="primary">
                Accepter l’invitation
              </Button>
            </form>
          </>
        )}
      </div>
    </div>
  );
}
