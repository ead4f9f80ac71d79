import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

import { isAdminPath } from '@/config/paths';
import { getAppConfig } from '@/config/runtime-config';
import { installAnalytics, trackPageView } from '@/lib/analytics';

/**
 * The analytics counter on every page except /admin* (docs/product.md, What it sells): added on the first public page
 * and fed one hit per navigation. Renders nothing; no tag at all without a configured id.
 */
export function AnalyticsTag() {
  const location = useLocation();
  const previousUrl = useRef<string | null>(null);

  useEffect(() => {
    const { analyticsId } = getAppConfig();
    if (!analyticsId || isAdminPath(location.pathname)) return;
    const url = window.location.href;
    if (previousUrl.current === url) return;
    installAnalytics(analyticsId);
    trackPageView(analyticsId, url, previousUrl.current ?? document.referrer);
    previousUrl.current = url;
  }, [location.pathname, location.search]);

  return null;
}
