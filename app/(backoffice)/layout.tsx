import { KeyboardShortcuts } from '@/components/shell/keyboard-shortcuts';
import { ScrollRegions } from '@/components/shell/scroll-regions';
import { Sidebar } from '@/components/shell/sidebar';
import { requireStaffOrg } from '@/lib/platform/next';

// Every back-office page reads the database for the signed-in member: never prerendered.
export const dynamic = 'force-dynamic';

export default async function BackofficeLayout({ children }: { children: React.ReactNode }) {
  const staff = await requireStaffOrg();
  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        Aller au contenu
      </a>
      <Sidebar orgs={staff.orgs} orgId={staff.orgId} email={staff.email} />
      <main className="content" id="content" tabIndex={-1}>
        {children}
      </main>
      <KeyboardShortcuts />
      <ScrollRegions />
    </div>
  );
}
