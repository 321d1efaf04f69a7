import type { Notice } from '../action';

/**
 * The line the last action on a page left: a status when it went well, an
 * alert when it did not. id lets a field the refusal is about name it.
 */
export function NoticeLine({ notice, id }: { notice: Notice | null; id?: string }) {
  if (!notice) return null;
  return (
    <p id={id} className={`alert ${notice.kind === 'ok' ? 'alert-ok' : 'alert-error'}`} role={notice.kind === 'ok' ? 'status' : 'alert'}>
      {notice.text}
    </p>
  );
}
