import { useEffect } from 'react';

import { site } from '@/config/site';

/** Sets the browser tab title: «<title> — <site name>». */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} — ${site.name}` : `${site.name} — ${site.tagline}`;
  }, [title]);
}
