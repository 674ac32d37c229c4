import { useEffect, useState } from 'react';
import { adminFileUrl } from '../../api/queries/admin.ts';

/** An admin-only image (a selfie): fetched with the session's token when there is one (see adminFileUrl). */
export function AdminImage({ path, alt }: { path: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let made: string | null = null;
    adminFileUrl(path, controller.signal)
      .then((url) => {
        if (url.startsWith('blob:')) made = url;
        setSrc(url);
      })
      .catch(() => setSrc(null));
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [path]);
  return src ? <img src={src} alt={alt} /> : <span className="admin-image-placeholder" aria-hidden="true" />;
}
