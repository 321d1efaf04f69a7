import type { Notice } from '../action';

/** The line the last action on a page left: a status when it went well, an alert when it did not. */
export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <p className={`alert ${notice.kind === 'ok' ? 'alert-ok' : 'alert-error'}`} role={notice.kind === 'ok' ? 'status' : 'alert'}>
      {notice.text}
    </p>
  );
}
