import type { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import type { AccountLockedData } from './data';
import { Action, Facts, Layout, Notice, P } from './layout';
import type { Language } from './nouns';
import type { RenderedTemplate } from './types';

type Data = z.output<typeof AccountLockedData>;

const COPY = {
  fr: {
    subject: 'Connexion à votre compte Paraphe temporairement verrouillée',
    heading: 'Connexion temporairement verrouillée',
    body: (d: Data, until: string) =>
      `Après ${d.failures} tentatives de connexion avec un mot de passe erroné, nous avons verrouillé la connexion à votre compte ${d.account_email} jusqu’au ${until}. Pendant ce délai, même le bon mot de passe est refusé.`,
    facts: { account: 'Compte', until: 'Verrouillé jusqu’au', address: 'Adresse de la dernière tentative' },
    ifYou: 'Si c’était vous, patientez jusqu’à cette heure puis reconnectez-vous.',
    ifNot:
      'Si ce n’était pas vous, quelqu’un essaie peut-être de deviner votre mot de passe : une fois connecté, choisissez-en un autre, long et que vous n’utilisez nulle part ailleurs, et prévenez l’administrateur de votre organisation.',
    login: 'Aller à la page de connexion',
    footer: 'Ce message de sécurité vous est envoyé automatiquement par Paraphe. Vous le recevez une fois par verrouillage.',
  },
  en: {
    subject: 'Sign-in to your Paraphe account is temporarily locked',
    heading: 'Sign-in temporarily locked',
    body: (d: Data, until: string) =>
      `After ${d.failures} sign-in attempts with a wrong password, we locked sign-in to your account ${d.account_email} until ${until}. Until then, even the right password is refused.`,
    facts: { account: 'Account', until: 'Locked until', address: 'Address of the last attempt' },
    ifYou: 'If it was you, wait until then and sign in again.',
    ifNot:
      'If it was not you, someone may be trying to guess your password: once signed in, choose another one, long and used nowhere else, and tell your organisation’s administrator.',
    login: 'Go to the sign-in page',
    footer: 'This security notice is sent automatically by Paraphe, once per lock.',
  },
} as const;

/** Sent to the owner of an account when sign-in to it is locked after too many wrong passwords. */
export function accountLocked(d: Data, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const until = formatInstant(d.locked_until, { lang });
  const body = c.body(d, until);
  const facts: Array<[string, string]> = [
    [c.facts.account, d.account_email],
    [c.facts.until, until],
  ];
  if (d.address) facts.push([c.facts.address, d.address]);
  return {
    subject: c.subject,
    element: (
      <Layout lang={lang} seller="Paraphe" preview={body} heading={c.heading} footer={c.footer}>
        <P>{body}</P>
        <Facts rows={facts} />
        <P>{c.ifYou}</P>
        <Notice>{c.ifNot}</Notice>
        <Action href={d.login_url} label={c.login} />
      </Layout>
    ),
  };
}
