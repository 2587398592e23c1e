import { and, asc, eq } from 'drizzle-orm';
import * as activate from '@/app/v1/recurring-invoices/[id]/activate/route';
import * as generations from '@/app/v1/recurring-invoices/[id]/generations/route';
import * as pause from '@/app/v1/recurring-invoices/[id]/pause/route';
import * as one from '@/app/v1/recurring-invoices/[id]/route';
import * as run from '@/app/v1/recurring-invoices/[id]/run/route';
import * as collection from '@/app/v1/recurring-invoices/route';
import { recurringGenerations, recurringTemplates } from '@/db/schema';
import { line } from '@/lib/domain/documents/testing';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/** The recurring route handlers, for tests. */
export const recurringRoutes = {
  list: collection.GET,
  create: collection.POST,
  get: one.GET,
  patch: one.PATCH,
  delete: one.DELETE,
  activate: activate.POST,
  pause: pause.POST,
  run: run.POST,
  generations: generations.GET,
};

/** The recurring calls with one token (another may be passed). */
export function recurringApi(token: string) {
  const onTemplate = (handler: (typeof recurringRoutes)['run'], verb: string) => (id: string, t = token) =>
    call(handler, 'POST', `/v1/recurring-invoices/${id}/${verb}`, { token: t, params: { id } });
  return {
    list: (query: Record<string, string> = {}, t = token) => call(recurringRoutes.list, 'GET', '/v1/recurring-invoices', { token: t, query }),
    create: (body: unknown, t = token) => call(recurringRoutes.create, 'POST', '/v1/recurring-invoices', { token: t, body }),
    get: (id: string, t = token) => call(recurringRoutes.get, 'GET', `/v1/recurring-invoices/${id}`, { token: t, params: { id } }),
    patch: (id: string, body: unknown, t = token) => call(recurringRoutes.patch, 'PATCH', `/v1/recurring-invoices/${id}`, { token: t, params: { id }, body }),
    remove: (id: string, t = token) => call(recurringRoutes.delete, 'DELETE', `/v1/recurring-invoices/${id}`, { token: t, params: { id } }),
    activate: onTemplate(recurringRoutes.activate, 'activate'),
    pause: onTemplate(recurringRoutes.pause, 'pause'),
    run: onTemplate(recurringRoutes.run, 'run'),
    generations: (id: string, t = token) => call(recurringRoutes.generations, 'GET', `/v1/recurring-invoices/${id}/generations`, { token: t, params: { id } }),
  };
}

/** A valid template body: monthly, one 1 200,00 € HT line at 20 %, services. */
export const templateBody = (contactId: string, extra: Record<string, unknown> = {}) => ({
  contact_id: contactId,
  frequency: 'monthly',
  items: [line('Abonnement', '1', 120000)],
  next_generation_date: '2026-01-31',
  operation_nature: 'services',
  ...extra,
});

export const generationsOf = (org: TestOrg, templateId: string) =>
  org.db
    .select()
    .from(recurringGenerations)
    .where(and(eq(recurringGenerations.org_id, org.org.id), eq(recurringGenerations.template_id, templateId)))
    .orderBy(asc(recurringGenerations.period_start));

export const templateRow = async (org: TestOrg, id: string) => (await org.db.select().from(recurringTemplates).where(eq(recurringTemplates.id, id)))[0]!;
