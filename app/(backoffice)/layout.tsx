import { Sidebar } from '@/components/sidebar';
import { requireStaffOrg } from '@/lib/http/staff';

// Every back-office page reads the database for the signed-in member: never prerendered.
export const dynamic = 'force-dynamic';

export default async function BackofficeLayout({ children }: { children: React.ReactNode }) {
  const staff = await requireStaffOrg();
  return (
    <div className="shell">
      <Sidebar orgs={staff.orgs} orgId={staff.orgId} email={staff.email} />
      <main className="content">{children}</main>
    </div>
  );
}
