import { useState } from 'react';

/** An article's cover: height capped by its class, and gone (not a broken-image icon) when it fails to load. */
export function CoverImage({ src, className }: { src: string; className: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return <img src={src} alt="" loading="lazy" className={className} onError={() => setFailed(true)} />;
}
