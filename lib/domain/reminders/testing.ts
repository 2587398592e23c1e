import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import * as reminderOne from '@/app/v1/invoices/[id]/reminders/[reminder_id]/route';
import * as reminderCollection from '@/app/v1/invoices/[id]/reminders/route';
import * as send from '@/app/v1/invoices/[id]/send/route';
import * as tracking from '@/app/v1/invoices/reminders/tracking/route';
import { emails, reminderLadders, reminders } from '@/db/schema';
import { addDays, todayParis } from '@/lib/platform/dates';
import { finalizeDocument } from '@/lib/domain/documents';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import type { TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';

/** The reminders route handlers, for tests (the real route files: the static tracking path included). */
export const reminderRoutes = {
  send: send.POST,
  list: reminderCollection.GET,
  create: reminderCollection.POST,
  delete: reminderOne.DELETE,
  tracking: tracking.GET,
};

/** Rendered PDFs go to a temporary directory, not to .data/storage; returns the cleanup. */
export async function useTempStorage(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'paraphe-reminders-'));
  setStorage(new LocalStorage(dir));
  return async () => {
    setStorage(undefined);
    await rm(dir, { recursive: true, force: true });
  };
}

const DAY_MS = 86_400_000;

/** A billing context plus the reminder calls, and documents issued at a chosen instant (the tests' clock). */
export async function remindersContext(org: TestOrg) {
  const api = await billingContext(org);
  const token = api.token;
  const r = {
    ...api,
    send: (id: string, body?: unknown, t = token) => call(reminderRoutes.send, 'POST', `/v1/invoices/${id}/send`, { token: t, params: { id }, body }),
    reminders: (id: string, t = token) => call(reminderRoutes.list, 'GET', `/v1/invoices/${id}/reminders`, { token: t, params: { id } }),
    addReminder: (id: string, body?: unknown, t = token) =>
      call(reminderRoutes.create, 'POST', `/v1/invoices/${id}/reminders`, { token: t, params: { id }, body }),
    deleteReminder: (id: string, reminderId: string, t = token) =>
      call(reminderRoutes.delete, 'DELETE', `/v1/invoices/${id}/reminders/${reminderId}`, { token: t, params: { id, reminder_id: reminderId } }),
    tracking: (t = token) => call(reminderRoutes.tracking, 'GET', '/v1/invoices/reminders/tracking', { token: t }),
    /**
     * An invoice (or another type) finalized at `at`: dated that day (Europe/Paris), due `dueInDays` later.
     * Finalizing at a past instant makes an overdue invoice at the real clock.
     */
    async issuedAt(at: Date, contactId: string, { dueInDays = 30, type = 'facture', amount = 10000 }: { dueInDays?: number; type?: 'facture' | 'devis'; amount?: number } = {}) {
      const day = todayParis(at);
      const dates = type === 'devis' ? { validity_date: addDays(day, dueInDays) } : { due_date: addDays(day, dueInDays) };
      const draft = await api.draft({ type, contact_id: contactId, issue_date: day, ...dates, items: [line('Prestation', '1', amount)] });
      return finalizeDocument(org.db, org.org.id, draft.id, at);
    },
  };
  return r;
}

/** `days` days after `at` (whole days of 24 h: the tests pick instants away from the DST changes). */
export const later = (at: Date, days: number, hours = 0) => new Date(at.getTime() + days * DAY_MS + hours * 3_600_000);

export async function reminderRows(org: TestOrg, documentId: string) {
  return org.db
    .select()
    .from(reminders)
    .where(and(eq(reminders.org_id, org.org.id), eq(reminders.document_id, documentId)))
    .orderBy(asc(reminders.scheduled_at), asc(reminders.id));
}

export async function ladderRow(org: TestOrg, documentId: string) {
  const [row] = await org.db.select().from(reminderLadders).where(eq(reminderLadders.document_id, documentId));
  return row;
}

export async function documentEmails(org: TestOrg, documentId: string) {
  return org.db
    .select()
    .from(emails)
    .where(and(eq(emails.org_id, org.org.id), eq(emails.document_id, documentId)))
    .orderBy(asc(emails.id));
}
