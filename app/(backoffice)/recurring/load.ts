import { getRecurringTemplate } from '@/lib/domain/recurring';
import { loadOr404, type Staff } from '../load';

export { contactChoice } from '../load';

/** The org's template for a page, or Next's 404 page (unknown, malformed or another org's id alike). */
export const loadTemplateOr404 = (staff: Staff, id: string) => loadOr404(id, (i) => getRecurringTemplate(staff.db, staff.orgId, i));
