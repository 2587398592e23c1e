import { DownloadButton } from '@/components/ui';
import { formatInstant, type Language } from '@/lib/platform/format';
import { apiBase, type SignOutcome } from './api';
import type { SignTexts } from './texts';

/** The end pages a signing link can land on. */
export type End = 'signed' | 'declined' | 'othersDeclined' | 'cancelled' | 'envelopeExpired' | 'expired' | 'notFound' | 'waiting';

/** The end page of a link that no longer signs, from what happened (the state's or the server's `outcome`). */
export function endOfOutcome(outcome: Pick<SignOutcome, 'kind'> & { by_you?: boolean }): End {
  switch (outcome.kind) {
    case 'signed':
    case 'completed':
      return 'signed';
    case 'declined':
      return outcome.by_you ? 'declined' : 'othersDeclined';
    case 'cancelled':
      return 'cancelled';
    case 'expired':
      return 'envelopeExpired';
    default:
      return 'expired';
  }
}

/** The end page's title: a completed envelope says everyone signed. */
export const doneTitle = (end: End, outcome: SignOutcome | null, t: SignTexts) => (end === 'signed' && outcome?.kind === 'completed' ? t.done.completedTitle : t.end[end].title);

/**
 * What the signed end page says beyond « Merci » (issue 35, item 9): how many signatures remain, or that everyone
 * signed and the signed PDF to download (a plain link: no script needed), or that it is being sealed (a plain link
 * reloads the page, which then offers it). No hooks: rendered by the server page and by the client view alike.
 */
export function DoneDetails({ outcome, t, lang, token }: { outcome: SignOutcome; t: SignTexts; lang: Language; token: string }) {
  const day = (iso: string | null) => formatInstant(iso, { time: null, lang });
  const refresh = (
    <p>
      <a href={`?lang=${lang}`}>{t.done.refresh}</a>
    </p>
  );
  if (outcome.kind === 'signed') return <p>{t.done.remaining(outcome.remaining)}</p>;
  if (outcome.kind !== 'completed') return null;
  switch (outcome.document) {
    case 'ready':
      return (
        <>
          <p>{t.done.ready(day(outcome.download_until))}</p>
          <p>
            <DownloadButton variant="primary" href={`${apiBase(token)}/signed`} download>
              {t.done.downloadSigned}
            </DownloadButton>
          </p>
        </>
      );
    case 'sealing':
      return (
        <>
          <p role="status">{t.done.sealing}</p>
          {refresh}
        </>
      );
    case 'delayed':
      return (
        <>
          <p>{t.done.delayed}</p>
          {refresh}
        </>
      );
    case 'proof_only':
      return <p>{t.done.proofOnly}</p>;
    default:
      return <p>{t.done.closed(day(outcome.download_until))}</p>;
  }
}
