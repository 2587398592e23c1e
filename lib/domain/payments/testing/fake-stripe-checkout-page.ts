import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeStripe } from './fake-stripe';
import type { FakeMethod, FakePayments } from './fake-stripe-payments';
import { decodeForm, type Json } from './fake-stripe-shared';

/*
 * The fake's hosted Checkout page, for the e2e journeys: GET /checkout/<session> shows the amount and three plain
 * forms (no JavaScript) — "Payer", "Échec", "Annuler". Their POST plays the payer as completeCheckout does, delivers
 * the webhook, then answers 303 to the session's success_url ({CHECKOUT_SESSION_ID} replaced) or cancel_url.
 */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const euros = (cents: number) => `${(cents / 100).toFixed(2).replace('.', ',')} €`;

function page(session: Json, method: FakeMethod): string {
  const action = `/checkout/${escapeHtml(String(session.id))}`;
  const button = (value: string, label: string) =>
    `<form method="post" action="${action}"><input type="hidden" name="method" value="${method}"><button name="action" value="${value}">${label}</button></form>`;
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Fake Checkout</title></head>
<body><h1>Fake Stripe Checkout</h1><p>Montant : <strong>${euros(Number(session.amount_total ?? 0))}</strong> (${method === 'card' ? 'carte' : 'prélèvement SEPA'})</p>
${button('pay', 'Payer')}${button('fail', 'Échec')}${button('cancel', 'Annuler')}</body></html>`;
}

/** Serves /checkout/<id> (GET and POST); false when the request is not for it. */
export async function checkoutPage(fake: FakeStripe, payments: FakePayments, req: IncomingMessage, res: ServerResponse, raw: string): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://fake');
  const id = /^\/checkout\/([^/]+)$/.exec(url.pathname)?.[1];
  if (!id) return false;
  const session = fake.objects.get(id)?.object;
  if (session?.object !== 'checkout.session' || session.mode !== 'payment') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No such checkout session');
    return true;
  }
  const allowed = (session.allowed_payment_method_types as FakeMethod[] | null) ?? ['card', 'sepa_debit'];
  if (req.method !== 'POST') {
    const status = session.status === 'open' ? 200 : 410;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(status === 200 ? page(session, allowed[0]!) : '<p>Session terminée.</p>');
    return true;
  }
  const form = decodeForm(raw);
  const method = allowed.includes(form.method as FakeMethod) ? (form.method as FakeMethod) : allowed[0]!;
  if (session.status === 'open' && form.action !== 'cancel') {
    await payments.completeCheckout(id, { method, outcome: form.action === 'fail' ? 'failed' : method === 'card' ? 'paid' : 'processing' });
  }
  const success = form.action === 'pay';
  const target = success ? String(session.success_url).replace('{CHECKOUT_SESSION_ID}', id) : String(session.cancel_url ?? session.success_url);
  res.writeHead(303, { location: target }).end();
  return true;
}
