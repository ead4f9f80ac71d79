import { Outlet, ScrollRestoration } from 'react-router-dom';

import { AnalyticsTag } from './analytics-tag';

/** Wraps every route: scroll restoration and the analytics tag. */
export function RootLayout() {
  return (
    <>
      <ScrollRestoration />
      <AnalyticsTag />
      <Outlet />
    </>
  );
}
