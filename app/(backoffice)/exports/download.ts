import { Period } from '@/lib/exports';

/** A refusal the browser shows as a page of text (the download link was followed). */
export const refusal = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/** The period of the link (?from=YYYY-MM-DD&to=YYYY-MM-DD), or the refusal to answer. */
export function periodOf(request: Request): Period | Response {
  const query = new URL(request.url).searchParams;
  const parsed = Period.safeParse({ from: query.get('from'), to: query.get('to') });
  return parsed.success ? parsed.data : refusal(422, 'Cette période n’est pas valable : revenez aux exports et choisissez un début et une fin (le début avant la fin).');
}

/** The file as a download. */
export const attachment = (body: string, name: string, type: string) =>
  new Response(body, {
    headers: { 'content-type': `${type}; charset=utf-8`, 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'private, no-store' },
  });
