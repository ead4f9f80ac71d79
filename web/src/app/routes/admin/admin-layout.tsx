import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link, NavLink, Outlet, useNavigate } from 'react-router-dom';

import { Icon } from '@/components/ui/icons';
import { SupportUnreadBadge } from '@/features/admin-support/components/support-unread-badge';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { useLogout, useSession } from '@/lib/session/session';
import { useMediaQuery } from '@/lib/use-media-query';

import { adminNav } from './admin-nav';

/** At 900 px or less the sidebar becomes a slide-out drawer (docs/product.md, Limits). */
const DRAWER_QUERY = '(max-width: 900px)';

function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Разделы админки">
      <ul className="admin-nav list-unstyled mb-0">
        {adminNav.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end ?? false}
              onClick={onNavigate}
              className={({ isActive }) => `admin-nav-link ${isActive && item.to !== paths.home ? 'active' : ''}`}
            >
              <Icon name={item.icon} size={18} />
              <span>{item.label}</span>
              {item.count === 'supportUnread' && <SupportUnreadBadge />}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Brand() {
  return (
    <Link to={paths.admin.root} className="admin-brand text-decoration-none">
      <span className="brand-mark me-2" aria-hidden>
        <Icon name="chat" size={16} />
      </span>
      {site.name} <span className="admin-brand-suffix">админка</span>
    </Link>
  );
}

/** Admin area frame: sidebar (or drawer), top bar, the page. No public header or footer. */
export function AdminLayout() {
  const narrow = useMediaQuery(DRAWER_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { user } = useSession();
  const logout = useLogout();
  const navigate = useNavigate();

  // Home first, synchronously: signed out inside /admin, its guard would send the user to /login.
  function onLogout() {
    navigate(paths.home, { flushSync: true });
    logout.mutate();
  }

  return (
    <div className="admin-shell">
      {!narrow && (
        <aside className="admin-sidebar">
          <div className="admin-sidebar-inner">
            <Brand />
            <SidebarNav />
          </div>
        </aside>
      )}
      <div className="admin-main">
        <header className="admin-topbar">
          {narrow && (
            <Button
              variant="light"
              className="admin-burger"
              onClick={() => setDrawerOpen(true)}
              aria-label="Открыть меню"
              aria-controls="admin-drawer"
              aria-expanded={drawerOpen}
            >
              <Icon name="menu" size={20} />
            </Button>
          )}
          {narrow && <Brand />}
          <div className="ms-auto d-flex align-items-center gap-2">
            <span className="text-body-secondary small d-none d-sm-inline">{user?.email}</span>
            <Button variant="outline-secondary" size="sm" onClick={onLogout}>
              <Icon name="logout" size={16} className="me-1" />
              Выйти
            </Button>
          </div>
        </header>
        <main className="admin-content">
          <Outlet />
        </main>
      </div>
      {narrow && (
        <Offcanvas id="admin-drawer" show={drawerOpen} onHide={() => setDrawerOpen(false)} className="admin-drawer">
          <Offcanvas.Header closeButton closeLabel="Закрыть меню">
            <Offcanvas.Title as="div">
              <Brand />
            </Offcanvas.Title>
          </Offcanvas.Header>
          <Offcanvas.Body>
            <SidebarNav onNavigate={() => setDrawerOpen(false)} />
          </Offcanvas.Body>
        </Offcanvas>
      )}
    </div>
  );
}

// Route module convention of react-router `lazy`.
export { AdminLayout as Component };
