'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { SessionProvider, signOut, useSession } from 'next-auth/react';
import { useTransition } from 'react';
import { NAV_SECTIONS } from './nav';
import { buttonClass } from '@/components/ui';

interface Props {
  orgs: Array<{ id: string; name: string }>;
  orgId: string | null;
  email: string;
}

export function Sidebar(props: Props) {
  return (
    <SessionProvider>
      <SidebarInner {...props} />
    </SessionProvider>
  );
}

function SidebarInner({ orgs, orgId, email }: Props) {
  const pathname = usePathname();
  const router = useRouter();
  const { update } = useSession();
  const [switching, startSwitch] = useTransition();

  const isCurrent = (href: string) => (href === '/' ? pathname === '/' : pathname.startsWith(href));

  return (
    <aside className="sidebar">
      {/* On a phone the navigation folds under "Menu": a checkbox, so it opens without JavaScript too; keyed on the
          path, it closes again when a link is followed. */}
      <input key={pathname} type="checkbox" id="nav-toggle" className="nav-toggle" aria-controls="sidebar-body" />
      <div className="sidebar-top">
        <div className="brand">Paraphe</div>
        <label htmlFor="nav-toggle" className={buttonClass({ small: true, className: 'nav-toggle-label' })}>
          Menu
        </label>
      </div>
      <div className="sidebar-body" id="sidebar-body">
        {orgs.length > 0 && (
          <label>
            <span className="section">Organisation</span>
            <select
              aria-label="Organisation active"
              value={orgId ?? ''}
              disabled={switching || orgs.length < 2}
              onChange={(e) => {
                const next = e.target.value;
                startSwitch(async () => {
                  await update({ orgId: next });
                  router.refresh();
                });
              }}
            >
              {orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {NAV_SECTIONS.map((section) => (
          <nav key={section.title} aria-label={section.title}>
            <div className="section">{section.title}</div>
            {section.items.map((item) =>
              item.ready ? (
                <Link key={item.href} href={item.href} aria-current={isCurrent(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              ) : (
                <span key={item.href} title="Module à venir">
                  {item.label} <small>bientôt</small>
                </span>
              ),
            )}
          </nav>
        ))}
        <div className="me">
          <span>{email}</span>
          <button type="button" onClick={() => signOut({ callbackUrl: '/login' })}>
            Se déconnecter
          </button>
        </div>
      </div>
    </aside>
  );
}
