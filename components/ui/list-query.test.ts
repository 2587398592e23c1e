import { expect, it } from 'vitest';
import { ContactListQuery, createContact, listContacts } from '@/lib/domain/contacts';
import { createTestOrg } from '@/lib/testing/fixtures';
import { listHref, loadListPage, readListFilters, readListSort } from './list-query';

it('reads only the named filters, trimmed, a blank field being no filter', () => {
  expect(readListFilters({ q: '  Dupont ', type: '', tag: ['a', 'b'], other: 'x', cursor: 'c1' }, ['q', 'type', 'tag', 'cursor'])).toEqual({
    q: 'Dupont',
    cursor: 'c1',
  });
});

it('builds list links that restart at the first page when a filter changes and drop emptied filters', () => {
  const current = { q: 'Dupont', lead_status: 'client', cursor: 'c1' };
  expect(listHref('/contacts', current, { lead_status: 'prospect' })).toBe('/contacts?q=Dupont&lead_status=prospect');
  expect(listHref('/contacts', current, { lead_status: undefined })).toBe('/contacts?q=Dupont');
  expect(listHref('/contacts', current, { cursor: 'c2' })).toBe('/contacts?q=Dupont&lead_status=client&cursor=c2');
  expect(listHref('/contacts', {}, {})).toBe('/contacts');
});

it('loads a page through the API list function, and turns a bad filter or a stale cursor into a message', async () => {
  const { db, org } = await createTestOrg();
  await createContact(db, org.id, { company: 'Dupont SARL' });
  await createContact(db, org.id, { company: 'Martin SA' });
  const load = (filters: Record<string, string>) => loadListPage(ContactListQuery, filters, (q) => listContacts(db, org.id, q));

  const found = await load({ q: 'dupont' });
  expect(found.problem).toBeNull();
  expect(found.page.data.map((c) => c.company)).toEqual(['Dupont SARL']);

  const badFilter = await load({ lead_status: 'nope' });
  expect(badFilter.page.data).toEqual([]);
  expect(badFilter.problem).toBe('Statut commercial : choisissez une valeur de la liste.');

  const staleCursor = await load({ cursor: 'forged' });
  expect(staleCursor.page.data).toEqual([]);
  expect(staleCursor.problem).toBe('Ce lien de pagination n’est plus valable : reprenez à la première page.');
});

it('reads a sort named by the list, ascending unless dir=desc, and ignores any other', () => {
  const keys = ['number', 'total_ttc'] as const;
  expect(readListSort({ sort: 'total_ttc', dir: 'desc' }, keys)).toEqual({ key: 'total_ttc', dir: 'desc' });
  expect(readListSort({ sort: 'number', dir: 'sideways' }, keys)).toEqual({ key: 'number', dir: 'asc' });
  expect(readListSort({ sort: 'id; drop table' }, keys)).toBeUndefined();
  expect(readListSort({ sort: ['number', 'total_ttc'] }, keys)).toBeUndefined();
});
