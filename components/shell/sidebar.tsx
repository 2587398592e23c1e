'use client';

import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { useState, useTransition } from 'react';
import { NAV_SECTIONS } from './nav';
import { switchOrg } from './switch-org';
import { buttonClass } from '@/components/ui';

interface Props {
  orgs: Array<{ id: string; name: string }>;
  orgId: string | null;
  email: string;
  /** The read-only role: its menu leaves out the settings it could not change. */
  readOnly?: boolean;
}

/*
 * Why no SessionProvider: the layout reads the session on the server for each request and passes what the sidebar
 * shows (the member's orgs, the active one, the e-mail). The provider fetched /api/auth/session on every page load
 * and every return to the tab — 154 calls in one walk of the back-office — for data the page already had. The only
 * session request left is the org switch itself (switchOrg), which must rewrite the session cookie.
 */
export function Sidebar({ orgs, orgId, email, readOnly = false }: Props) {
  const pathname = usePathname();
  const router = useRouter();
  const [switching, startSwitch] = useTransition();
  const [switchError, setSwitchError] = useState<string | null>(null);

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
                setSwitchError(null);
                startSwitch(async () => {
                  const outcome = await switchOrg(next);
                  // Refused or failed: the select stays on the active org (its value is the server's), the reason shown.
                  if (outcome.ok) router.refresh();
                  else setSwitchError(outcome.notice);
                });
              }}
            >
              {orgs.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
            {switchError && (
              <span className="field-error" role="alert">
                {switchError}
              </span>
            )}
          </label>
        )}
        {NAV_SECTIONS.map((section) => (
          <nav key={section.title} aria-label={section.title}>
            <div className="section">{section.title}</div>
            {section.items.filter((item) => !readOnly || !section.settings || item.readable).map((item) =>
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
