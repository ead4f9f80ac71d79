import { Outlet } from 'react-router-dom';

import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Every page outside /admin: header, the page, footer. */
export function PublicLayout() {
  return (
    <div className="d-flex flex-column min-vh-100">
      <SiteHeader />
      <main className="flex-grow-1 d-flex flex-column" id="main">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
