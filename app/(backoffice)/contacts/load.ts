import { getContact } from '@/lib/domain/contacts';
import { loadOr404, type Staff } from '../load';

/** The org's contact for a page, or Next's 404 page (unknown id, malformed id, another org's contact alike). */
export const loadContactOr404 = (staff: Staff, id: string) => loadOr404(id, (i) => getContact(staff.db, staff.orgId, i));
