import { KeyboardShortcuts } from '@/components/shell/keyboard-shortcuts';
import { ScrollRegions } from '@/components/shell/scroll-regions';
import { Sidebar } from '@/components/shell/sidebar';
import { requireStaffOrg } from '@/lib/platform/next';
import { readsOnly } from '@/lib/platform/orgs';

// Every back-office page reads the database for the signed-in member: never prerendered.
export const dynamic = 'force-dynamic';

export default async function BackofficeLayout({ children }: { children: React.ReactNode }) {
  const staff = await requireStaffOrg();
  // The read-only role (« comptable »): globals.css hides what would change something; the action and route
  // wrappers refuse it anyway (lib/platform/next).
  const readOnly = readsOnly(staff.role);
  return (
    <div className="shell" data-read-only={readOnly || undefined}>
      <a className="skip-link" href="#content">
        Aller au contenu
      </a>
      <Sidebar orgs={staff.orgs} orgId={staff.orgId} email={staff.email} readOnly={readOnly} />
      <main className="content" id="content" tabIndex={-1}>
        {readOnly && (
          <p className="notice" role="note" data-testid="read-only-notice">
            Accès comptable, en lecture seule : vous consultez les documents et téléchargez les PDF et les exports ; rien ne peut être modifié.
          </p>
        )}
        {children}
      </main>
      <KeyboardShortcuts />
      <ScrollRegions />
    </div>
  );
}
