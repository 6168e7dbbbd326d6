import { useEffect } from 'react';

/** Names the browser tab after the screen, as screen readers announce it on navigation. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Cloud Nodes`;
  }, [title]);
}
