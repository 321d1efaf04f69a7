// The browser tab's title names the page shown, as its heading does:
// "<heading> — Verdict console". A page that is gone leaves the console's
// name alone, until the next page names itself.
import { useEffect } from 'react';

const CONSOLE = 'Verdict console';

export function useTitle(heading: string | null | undefined): void {
  useEffect(() => {
    document.title = heading ? `${heading} — ${CONSOLE}` : CONSOLE;
    return () => {
      document.title = CONSOLE;
    };
  }, [heading]);
}
