import type { z } from 'zod';
import { formatInstant } from '@/lib/platform/format';
import type { WebhookEndpointDisabledData } from './data';
import { Action, Facts, Layout, P } from './layout';
import type { Language } from './nouns';
import type { RenderedTemplate } from './types';

type Data = z.output<typeof WebhookEndpointDisabledData>;

const COPY = {
  fr: {
    subject: 'Webhook désactivé : votre point de réception ne répond plus',
    heading: 'Webhook désactivé',
    body: (since: string) =>
      `Depuis le ${since}, chaque envoi d’événement vers ce webhook a échoué. Après 5 jours d’échecs, Paraphe l’a désactivé : plus aucun événement ne lui est envoyé.`,
    facts: { url: 'Adresse', since: 'En échec depuis le', last: 'Dernier résultat' },
    next: 'Une fois le point de réception réparé, réactivez le webhook (API : PATCH /v1/webhooks/endpoints/{id} avec enabled à true) ; les événements manqués restent consultables dans son journal des envois et peuvent être renvoyés.',
    open: 'Voir les webhooks',
    footer: 'Ce message vous est envoyé automatiquement par Paraphe, en tant que propriétaire ou administrateur de l’organisation.',
  },
  en: {
    subject: 'Webhook disabled: your endpoint stopped answering',
    heading: 'Webhook disabled',
    body: (since: string) =>
      `Since ${since}, every delivery of an event to this webhook failed. After 5 days of failures, Paraphe disabled it: no more events are sent to it.`,
    facts: { url: 'URL', since: 'Failing since', last: 'Last result' },
    next: 'Once the receiver is fixed, enable the webhook again (API: PATCH /v1/webhooks/endpoints/{id} with enabled true); the missed events stay in its delivery log and can be redelivered.',
    open: 'Open the webhooks',
    footer: 'This message is sent automatically by Paraphe to the owners and administrators of the organisation.',
  },
} as const;

/** Sent to an org's owners and admins when a webhook endpoint failing for 5 days is disabled. */
export function webhookEndpointDisabled(d: Data, lang: Language): RenderedTemplate {
  const c = COPY[lang];
  const since = formatInstant(d.failing_since, { lang });
  const body = c.body(since);
  const facts: Array<[string, string]> = [
    [c.facts.url, d.endpoint_url],
    [c.facts.since, since],
  ];
  if (d.last_failure) facts.push([c.facts.last, d.last_failure]);
  return {
    subject: c.subject,
    element: (
      <Layout lang={lang} seller="Paraphe" preview={body} heading={c.heading} footer={c.footer}>
        <P>{body}</P>
        <Facts rows={facts} />
        <P>{c.next}</P>
        <Action href={d.settings_url} label={c.open} />
      </Layout>
    ),
  };
}
